package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.dbd.model.StepOrder;
import dev.sluice.dbd.model.TresCounts;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.JobState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * sacct's reads. A job matches the time window when it was known during it: submitted before
 * the window ends and not ended before it starts (a job still running or pending has end 0).
 * Filters of one kind are ORed, different kinds ANDed, as sacct's options combine.
 */
public final class JobQueries {
    private static final int IN_CHUNK = 500;
    /** Slurm's own steps (interactive 0xfffffffa, batch 0xfffffffb, extern 0xfffffffc) are numbered from here up. */
    private static final long SPECIAL_STEPS = 0xfffffff0L;

    private final DataSource ds;

    public JobQueries(DataSource ds) {
        this.ds = requireNonNull(ds, "ds is null");
    }

    public List<AccountedJob> find(JobQuery q) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT j.id, k.name, j.job_id, j.job_name, j.user_name, j.uid, j.gid,"
                + " j.group_name, j.account, j.partition_name, j.qos, j.submit_time, j.eligible_time, j.start_time,"
                + " j.end_time, j.state, j.exit_status, j.node_list, j.num_nodes, j.alloc_cpus, j.tres_req,"
                + " j.tres_alloc, j.time_limit, j.work_dir, j.display_id, j.array_job_id, j.array_task_id,"
                + " j.req_cpus, j.req_nodes, j.requid, j.priority, j.state_reason, j.constraints,"
                // DerivedExitCode: one set by hand (sacctmgr modify job), else the highest
                // status of the srun steps, not the batch script's.
                + " COALESCE(j.derived_ec_set, (SELECT MAX(s.exit_status) FROM steps s WHERE s.job_ref = j.id"
                + " AND s.step_id < " + SPECIAL_STEPS + ")),"
                + " (SELECT MIN(a.id) FROM acct_associations a WHERE a.cluster_name = k.name"
                + " AND a.account = j.account AND a.user_name = j.user_name AND a.partition_name = ''),"
                // Slurm numbers QOS as they are created, normal first.
                + " (SELECT COUNT(*) FROM acct_qos q, acct_qos o WHERE q.name = j.qos"
                + " AND (o.created_at < q.created_at OR (o.created_at = q.created_at AND o.name <= q.name))),"
                // slurmdbd names a pending job's reservation only through a reservation row that
                // began before its submission and had not ended then, or begins after it: one
                // submitted in the second its reservation began shows none (Slurm 22.05, compat
                // 268). Its ReservationId stays.
                + " CASE WHEN j.start_time = 0 AND j.resv_name <> '' THEN COALESCE((SELECT MIN(r.resv_name)"
                + " FROM reservations r WHERE r.cluster_id = j.cluster_id AND r.resv_id = j.resv_id"
                + " AND ((r.time_start < j.submit_time AND (r.time_end >= j.submit_time OR r.time_end = 0))"
                + " OR r.time_start > j.submit_time)), '') ELSE j.resv_name END,"
                + " j.resv_id, j.suspended, j.wckey, j.comment, j.admin_comment, j.system_comment"
                + " FROM jobs j JOIN clusters k ON k.id = j.cluster_id"
                + " WHERE 1 = 1");
        List<Object> args = new ArrayList<>();
        in(sql, args, "k.name", q.getClustersList());
        if (q.getJobIdsCount() > 0) {
            // An id names a job or a whole array (sacct -j 6 lists every task of array 6).
            List<Long> ids =
                    q.getJobIdsList().stream().map(Integer::toUnsignedLong).toList();
            sql.append(" AND (j.job_id IN (")
                    .append(marks(ids.size()))
                    .append(") OR j.array_job_id IN (")
                    .append(marks(ids.size()))
                    .append("))");
            args.addAll(ids);
            args.addAll(ids);
        }
        if (q.getUsersCount() > 0 || q.getUidsCount() > 0) {
            sql.append(" AND (1 = 0");
            if (q.getUsersCount() > 0) {
                sql.append(" OR j.user_name IN (")
                        .append(marks(q.getUsersCount()))
                        .append(')');
                args.addAll(q.getUsersList());
            }
            if (q.getUidsCount() > 0) {
                sql.append(" OR j.uid IN (").append(marks(q.getUidsCount())).append(')');
                q.getUidsList().forEach(u -> args.add(Integer.toUnsignedLong(u)));
            }
            sql.append(')');
        }
        in(sql, args, "j.account", q.getAccountsList());
        in(sql, args, "j.partition_name", q.getPartitionsList());
        in(sql, args, "j.job_name", q.getJobNamesList());
        window(sql, args, q);
        // Array tasks list together, in task order, as sacct shows them. Records submitted in
        // the same second list in the order they were recorded (a job requeued in the second its
        // preemptor was submitted lists after it, as its later record does in Slurm's).
        sql.append(" ORDER BY k.name, j.submit_time, MIN(j.id) OVER (PARTITION BY j.cluster_id, j.submit_time,"
                + " CASE WHEN j.array_job_id > 0 THEN j.array_job_id ELSE j.job_id END), j.array_task_id, j.job_id");

        try (Connection c = ds.getConnection()) {
            try {
                TresCatalog tres = TresCatalog.load(c);
                Map<Long, AccountedJob.Builder> rows = new LinkedHashMap<>();
                try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                    bind(ps, args);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            rows.put(rs.getLong(1), job(rs, tres));
                        }
                    }
                }
                if (!q.getDuplicates()) {
                    latestRuns(rows);
                }
                if (!q.getAllocationsOnly() && !rows.isEmpty()) {
                    addSteps(c, tres, rows);
                }
                c.commit();
                return rows.values().stream().map(AccountedJob.Builder::build).toList();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /**
     * Keeps each job's latest record only: a requeued job has one per run (submitted anew at
     * each requeue), and sacct without -D shows the newest, as slurmdbd's highest index.
     */
    private static void latestRuns(Map<Long, AccountedJob.Builder> rows) {
        Map<String, Long> latest = new java.util.HashMap<>();
        rows.forEach((ref, b) -> latest.merge(
                b.getCluster() + '/' + Integer.toUnsignedString(b.getJobId()),
                ref,
                (x, y) -> newer(rows.get(x), x, rows.get(y), y) ? x : y));
        rows.keySet().retainAll(latest.values());
    }

    private static boolean newer(AccountedJob.Builder a, long aRef, AccountedJob.Builder b, long bRef) {
        return a.getSubmitTime() != b.getSubmitTime() ? a.getSubmitTime() > b.getSubmitTime() : aRef > bRef;
    }

    /**
     * Without states: jobs known during [start, end]. With states, sacct's "in that state during
     * the window": pending — eligible by the end and not started (nor ended) before the start;
     * running — started by the end and not ended before the start; a final state — ended in
     * the window in that state.
     */
    private static void window(StringBuilder sql, List<Object> args, JobQuery q) {
        long start = q.getWindowStart();
        long end = q.getWindowEnd() > 0 ? q.getWindowEnd() : Long.MAX_VALUE;
        if (q.getStatesCount() == 0) {
            sql.append(" AND j.submit_time <= ? AND (j.end_time = 0 OR j.end_time >= ?)");
            args.add(end);
            args.add(start);
            return;
        }
        List<String> finals = new ArrayList<>();
        sql.append(" AND (1 = 0");
        for (JobState state : q.getStatesList()) {
            switch (state) {
                case PENDING -> {
                    // Eligible by the end, as slurmdbd asks: a job held, or held back after a
                    // requeue (eligible only later), is not pending in its sense.
                    sql.append(" OR (j.eligible_time > 0 AND j.eligible_time <= ?"
                            + " AND (j.start_time = 0 OR j.start_time >= ?)"
                            + " AND (j.end_time = 0 OR j.end_time >= ?))");
                    args.add(end);
                    args.add(start);
                    args.add(start);
                }
                case RUNNING, SUSPENDED -> {
                    sql.append(" OR (j.start_time > 0 AND j.start_time <= ? AND (j.end_time = 0 OR j.end_time >= ?))");
                    args.add(end);
                    args.add(start);
                }
                default -> finals.add(state.name());
            }
        }
        if (!finals.isEmpty()) {
            sql.append(" OR (j.end_time >= ? AND j.end_time <= ? AND j.end_time > 0 AND j.state IN (")
                    .append(marks(finals.size()))
                    .append("))");
            args.add(start);
            args.add(end);
            args.addAll(finals);
        }
        sql.append(')');
    }

    private static AccountedJob.Builder job(ResultSet rs, TresCatalog tres) throws SQLException {
        AccountedJob.Builder b = AccountedJob.newBuilder()
                .setCluster(rs.getString(2))
                .setJobId((int) rs.getLong(3))
                .setName(rs.getString(4))
                .setUserName(rs.getString(5))
                .setUid((int) rs.getLong(6))
                .setGid((int) rs.getLong(7))
                .setGroupName(rs.getString(8))
                .setAccount(rs.getString(9))
                .setPartition(rs.getString(10))
                .setQos(rs.getString(11))
                .setSubmitTime(rs.getLong(12))
                .setEligibleTime(rs.getLong(13))
                .setStartTime(rs.getLong(14))
                .setEndTime(rs.getLong(15))
                .setState(JobState.valueOf(rs.getString(16)))
                .setExitStatus(rs.getInt(17))
                .setNodeList(rs.getString(18))
                .setNumNodes(rs.getInt(19))
                .setNumCpus(rs.getInt(20))
                .setReqTres(named(rs.getString(21), tres))
                .setAllocTres(named(rs.getString(22), tres))
                .setTimeLimitMinutes((int) rs.getLong(23))
                .setWorkDir(rs.getString(24))
                .setDisplayId(rs.getString(25))
                .setArrayJobId((int) rs.getLong(26))
                .setArrayTaskId((int) rs.getLong(27))
                .setReqCpus(rs.getInt(28))
                .setReqNodes(rs.getInt(29))
                .setPriority((int) rs.getLong(31))
                .setReason(rs.getString(32))
                .setConstraints(rs.getString(33))
                .setDerivedExitStatus((int) rs.getLong(34))
                .setAssocId(rs.getLong(35))
                .setQosId(rs.getInt(36))
                .setReservation(rs.getString(37))
                .setReservationId((int) rs.getLong(38))
                .setSuspendedSeconds(rs.getLong(39))
                .setWckey(rs.getString(40))
                .setComment(rs.getString(41))
                .setAdminComment(rs.getString(42))
                .setSystemComment(rs.getString(43))
                .setDbIndex(rs.getLong(1));
        long requid = rs.getLong(30);
        if (requid >= 0) {
            b.setCancelledBy((int) requid);
        }
        return b;
    }

    private static void addSteps(Connection c, TresCatalog tres, Map<Long, AccountedJob.Builder> rows)
            throws SQLException {
        List<Long> refs = new ArrayList<>(rows.keySet());
        Map<Long, List<AccountedStep>> steps = new LinkedHashMap<>();
        for (int from = 0; from < refs.size(); from += IN_CHUNK) {
            List<Long> chunk = refs.subList(from, Math.min(refs.size(), from + IN_CHUNK));
            String sql = "SELECT job_ref, step_id, step_name, state, start_time, end_time, exit_status, node_list,"
                    + " num_nodes, num_tasks, alloc_cpus, tres_alloc FROM steps WHERE job_ref IN ("
                    + marks(chunk.size()) + ")";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                bind(ps, new ArrayList<>(chunk));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        steps.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>())
                                .add(AccountedStep.newBuilder()
                                        .setStepId((int) rs.getLong(2))
                                        .setName(rs.getString(3))
                                        .setState(JobState.valueOf(rs.getString(4)))
                                        .setStartTime(rs.getLong(5))
                                        .setEndTime(rs.getLong(6))
                                        .setExitStatus(rs.getInt(7))
                                        .setNodeList(rs.getString(8))
                                        .setNumNodes(rs.getInt(9))
                                        .setNumTasks(rs.getInt(10))
                                        .setNumCpus(rs.getInt(11))
                                        .setAllocTres(named(rs.getString(12), tres))
                                        .build());
                    }
                }
            }
        }
        steps.forEach((ref, list) -> rows.get(ref)
                .addAllSteps(list.stream()
                        .sorted((a, b) -> StepOrder.compare(a.getStepId(), b.getStepId()))
                        .toList()));
    }

    private static String named(String idForm, TresCatalog tres) {
        return TresCounts.parseIdForm(idForm, tres::nameOf).toNamedForm();
    }

    private static void in(StringBuilder sql, List<Object> args, String column, Collection<?> values) {
        if (values.isEmpty()) {
            return;
        }
        sql.append(" AND ")
                .append(column)
                .append(" IN (")
                .append(marks(values.size()))
                .append(')');
        args.addAll(values);
    }

    private static String marks(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }

    private static void bind(PreparedStatement ps, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            ps.setObject(i + 1, args.get(i));
        }
    }
}
