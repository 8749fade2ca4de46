package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.dbd.model.AccountingEntries;
import dev.sluice.dbd.model.AccountingEntry;
import dev.sluice.dbd.model.TresCounts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the controller's accounting batches. One batch is one transaction: the cluster's
 * applied-sequence row is locked, records at or below it are skipped, the rest are written and
 * the mark moved past them. A batch re-sent after a lost ack therefore changes nothing and gets
 * the same answer; two controllers of one cluster (a failover) are serialised on that row.
 *
 * <p>Job rows are keyed by (cluster, job id, submit time) as in Slurm, and each record carries
 * the whole job as it stands after the event, so applying it is an upsert.
 */
public final class AccountingStore {
    private static final Logger log = LoggerFactory.getLogger(AccountingStore.class);

    private final DataSource ds;
    private final InstantSource clock;

    public AccountingStore(DataSource ds, InstantSource clock) {
        this.ds = requireNonNull(ds, "ds is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Applies a batch and answers the highest sequence now applied for its cluster. */
    public long apply(AccountingEntries batch) throws SQLException {
        long clusterId = ensureCluster(batch.cluster());
        try (Connection c = ds.getConnection()) {
            try {
                long applied = lockApplied(c, clusterId);
                TresCatalog tres = TresCatalog.load(c);
                long through = applied;
                long rewind = Long.MAX_VALUE;
                for (AccountingEntry e : batch.entries()) {
                    if (e.sequence() <= through) {
                        continue;
                    }
                    long changed = switch (e) {
                        case AccountingEntry.Job job -> upsertJob(c, tres, clusterId, job);
                        case AccountingEntry.Step step -> {
                            upsertStep(c, tres, clusterId, step);
                            yield Long.MAX_VALUE;
                        }
                        case AccountingEntry.ClusterSize size -> ClusterTres.apply(c, tres, clusterId, size);
                        case AccountingEntry.Reservation resv -> {
                            ReservationStore.apply(c, clusterId, resv);
                            yield Long.MAX_VALUE;
                        }
                    };
                    rewind = Math.min(rewind, changed);
                    through = e.sequence();
                }
                if (rewind != Long.MAX_VALUE) {
                    // Hours already rolled up that this batch changes are rolled again.
                    UsageRollup.rewind(c, clusterId, rewind);
                }
                if (through != applied) {
                    try (PreparedStatement ps = c.prepareStatement(
                            "UPDATE applied_sequence SET applied_through = ?, updated_at = ? WHERE cluster_id = ?")) {
                        ps.setLong(1, through);
                        ps.setLong(2, clock.instant().getEpochSecond());
                        ps.setLong(3, clusterId);
                        ps.executeUpdate();
                    }
                }
                c.commit();
                return through;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    /** The highest applied sequence of a cluster, 0 when it never sent anything. */
    public long appliedThrough(String cluster) throws SQLException {
        try (Connection c = ds.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT a.applied_through FROM applied_sequence a"
                        + " JOIN clusters k ON k.id = a.cluster_id WHERE k.name = ?")) {
            ps.setString(1, cluster);
            try (ResultSet rs = ps.executeQuery()) {
                long v = rs.next() ? rs.getLong(1) : 0;
                c.commit();
                return v;
            }
        }
    }

    /** Creates the cluster row in its own transaction; a concurrent creator wins harmlessly. */
    public long ensureCluster(String name) throws SQLException {
        try (Connection c = ds.getConnection()) {
            Long id = clusterId(c, name);
            if (id != null) {
                c.commit();
                return id;
            }
            try {
                long created = insertCluster(c, name, clock.instant().getEpochSecond());
                c.commit();
                log.info("registered cluster {}", name);
                return created;
            } catch (SQLException e) {
                c.rollback();
                if (e.getSQLState() == null || !e.getSQLState().startsWith("23")) {
                    throw e;
                }
                Long raced = clusterId(c, name);
                c.commit();
                if (raced == null) {
                    throw e;
                }
                return raced;
            }
        }
    }

    /** Inserts a cluster with its applied-sequence row and root associations; returns its id. */
    static long insertCluster(Connection c, String name, long now) throws SQLException {
        long created;
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO clusters (name, created_at) VALUES (?, ?)", Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, name);
            ps.setLong(2, now);
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                created = keys.getLong(1);
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO applied_sequence (cluster_id, applied_through, updated_at) VALUES (?, 0, ?)")) {
            ps.setLong(1, created);
            ps.setLong(2, now);
            ps.executeUpdate();
        }
        NewAssociations.rootAssociations(c, name, now);
        // New associations: the controllers' next poll must see them.
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE acct_policy_version SET version = version + 1 WHERE id = 1")) {
            ps.executeUpdate();
        }
        return created;
    }

    private static Long clusterId(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM clusters WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    private static long lockApplied(Connection c, long clusterId) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT applied_through FROM applied_sequence WHERE cluster_id = ? FOR UPDATE")) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("no applied_sequence row for cluster " + clusterId);
                }
                return rs.getLong(1);
            }
        }
    }

    /**
     * Upserts the job row; answers the earliest time from which its usage differs from what the
     * row said before ({@code Long.MAX_VALUE} when the usage is the same).
     */
    private static long upsertJob(Connection c, TresCatalog tres, long clusterId, AccountingEntry.Job j)
            throws SQLException {
        AccountingEntry.JobKey key = j.key();
        AccountingEntry.JobOwner owner = j.owner();
        AccountingEntry.JobTimes times = j.times();
        AccountingEntry.JobPlacement placement = j.placement();
        Usage before = jobUsage(c, clusterId, key.jobId(), key.submitTime());
        Long row = before == null ? null : before.row();
        String allocTres = idForm(c, tres, placement.allocTres());
        long changed = (before == null ? new Usage(0, 0, 0, "", owner.account(), owner.userName()) : before)
                .changedFrom(times.start(), times.end(), allocTres, owner.account(), owner.userName());
        String sql = row == null
                ? "INSERT INTO jobs (job_name, user_name, uid, gid, group_name, account, partition_name, qos,"
                        + " eligible_time, start_time, end_time, state, exit_status, node_list, num_nodes, alloc_cpus,"
                        + " tres_req, tres_alloc, time_limit, work_dir, last_sequence, display_id, array_job_id,"
                        + " array_task_id, req_cpus, req_nodes, requid, priority, state_reason, constraints,"
                        + " resv_name, resv_id, suspended, cluster_id, job_id, submit_time)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                        + " ?, ?, ?, ?, ?, ?, ?)"
                : "UPDATE jobs SET job_name = ?, user_name = ?, uid = ?, gid = ?, group_name = ?, account = ?,"
                        + " partition_name = ?, qos = ?, eligible_time = ?, start_time = ?, end_time = ?, state = ?,"
                        + " exit_status = ?, node_list = ?, num_nodes = ?, alloc_cpus = ?, tres_req = ?, tres_alloc = ?,"
                        + " time_limit = ?, work_dir = ?, last_sequence = ?, display_id = ?, array_job_id = ?,"
                        + " array_task_id = ?, req_cpus = ?, req_nodes = ?, requid = ?, priority = COALESCE(?, priority),"
                        + " state_reason = COALESCE(?, state_reason), constraints = ?, resv_name = ?, resv_id = ?,"
                        + " suspended = ? WHERE id = ?";
        // slurmdbd keeps the priority and the reason a job had when it started: its end does not
        // change them (a job that failed reads Reason None in sacct, not NonZeroExitCode). A record
        // without a priority (0: no pass ranked the job) keeps the one held too.
        boolean sameRun = before != null && before.start() > 0 && before.start() == times.start();
        boolean keepPriority = row != null && j.priority() == 0;
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            ps.setString(i++, clip(j.name(), 256));
            ps.setString(i++, clip(owner.userName(), 64));
            ps.setLong(i++, owner.uid());
            ps.setLong(i++, owner.gid());
            ps.setString(i++, clip(owner.groupName(), 64));
            ps.setString(i++, clip(owner.account(), 64));
            ps.setString(i++, clip(placement.partition(), 64));
            ps.setString(i++, clip(owner.qos(), 64));
            ps.setLong(i++, times.eligible());
            ps.setLong(i++, times.start());
            ps.setLong(i++, times.end());
            ps.setString(i++, j.outcome().state());
            ps.setInt(i++, j.outcome().exitStatus());
            ps.setString(i++, clip(placement.nodeList(), 4096));
            // Pending jobs keep their requested counts, as sacct shows them.
            ps.setInt(i++, placement.nodes());
            ps.setInt(i++, placement.cpus());
            ps.setString(i++, idForm(c, tres, placement.reqTres()));
            ps.setString(i++, allocTres);
            ps.setLong(i++, times.limitMinutes());
            ps.setString(i++, clip(j.workDir(), 1024));
            ps.setLong(i++, j.sequence());
            ps.setString(i++, clip(key.displayId(), 64));
            ps.setLong(i++, Integer.toUnsignedLong(key.arrayJobId()));
            ps.setLong(i++, key.arrayTaskId());
            ps.setInt(i++, placement.reqCpus());
            ps.setInt(i++, placement.reqNodes());
            ps.setLong(i++, j.outcome().cancelledBy());
            if (keepPriority) {
                ps.setNull(i++, java.sql.Types.BIGINT);
            } else {
                ps.setLong(i++, j.priority());
            }
            if (sameRun) {
                ps.setNull(i++, java.sql.Types.VARCHAR);
            } else {
                ps.setString(i++, clip(j.outcome().reason(), 64));
            }
            ps.setString(i++, clip(j.constraints(), 1024));
            ps.setString(i++, clip(j.reservation(), 128));
            ps.setLong(i++, j.reservationId());
            ps.setLong(i++, times.suspended());
            if (row == null) {
                ps.setLong(i++, clusterId);
                ps.setLong(i++, Integer.toUnsignedLong(key.jobId()));
                ps.setLong(i, key.submitTime());
            } else {
                ps.setLong(i, row);
            }
            ps.executeUpdate();
        }
        return changed;
    }

    /** What a job row said about usage: its span, allocated TRES and association. */
    private record Usage(long row, long start, long end, String allocTres, String account, String user) {
        /** The earliest time whose usage the new values change; MAX_VALUE when none. */
        long changedFrom(long newStart, long newEnd, String newTres, String newAccount, String newUser) {
            if (start == newStart
                    && end == newEnd
                    && allocTres.equals(newTres)
                    && account.equals(newAccount)
                    && user.equals(newUser)) {
                return Long.MAX_VALUE;
            }
            if (start != newStart
                    || !allocTres.equals(newTres)
                    || !account.equals(newAccount)
                    || !user.equals(newUser)) {
                long s = Math.min(start > 0 ? start : Long.MAX_VALUE, newStart > 0 ? newStart : Long.MAX_VALUE);
                return s;
            }
            // Same start, other end: hours before the earlier end are unchanged.
            return Math.min(end == 0 ? Long.MAX_VALUE : end, newEnd == 0 ? Long.MAX_VALUE : newEnd);
        }
    }

    private static Usage jobUsage(Connection c, long clusterId, int jobId, long submitTime) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id, start_time, end_time, tres_alloc, account, user_name"
                + " FROM jobs WHERE cluster_id = ? AND job_id = ? AND submit_time = ?")) {
            ps.setLong(1, clusterId);
            ps.setLong(2, Integer.toUnsignedLong(jobId));
            ps.setLong(3, submitTime);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? new Usage(
                                rs.getLong(1),
                                rs.getLong(2),
                                rs.getLong(3),
                                rs.getString(4),
                                rs.getString(5),
                                rs.getString(6))
                        : null;
            }
        }
    }

    private static void upsertStep(Connection c, TresCatalog tres, long clusterId, AccountingEntry.Step s)
            throws SQLException {
        Long job = jobRow(c, clusterId, s.jobId(), s.jobSubmitTime());
        if (job == null) {
            // The controller sends a job's record before any of its steps; a step without one
            // means the job row was never stored, and no retry would change that.
            log.warn("step {}.{} (sequence {}) names an unknown job; skipped", s.jobId(), s.stepId(), s.sequence());
            return;
        }
        boolean exists;
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM steps WHERE job_ref = ? AND step_id = ?")) {
            ps.setLong(1, job);
            ps.setLong(2, s.stepId());
            try (ResultSet rs = ps.executeQuery()) {
                exists = rs.next();
            }
        }
        String sql = exists
                ? "UPDATE steps SET step_name = ?, state = ?, start_time = ?, end_time = ?, exit_status = ?,"
                        + " node_list = ?, num_nodes = ?, num_tasks = ?, alloc_cpus = ?, tres_alloc = ?,"
                        + " last_sequence = ? WHERE job_ref = ? AND step_id = ?"
                : "INSERT INTO steps (step_name, state, start_time, end_time, exit_status, node_list, num_nodes,"
                        + " num_tasks, alloc_cpus, tres_alloc, last_sequence, job_ref, step_id)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            AccountingEntry.StepRun run = s.run();
            AccountingEntry.StepPlacement placement = s.placement();
            int i = 1;
            ps.setString(i++, clip(s.name(), 256));
            ps.setString(i++, run.state());
            ps.setLong(i++, run.start());
            ps.setLong(i++, run.end());
            ps.setInt(i++, run.exitStatus());
            ps.setString(i++, clip(placement.nodeList(), 4096));
            ps.setInt(i++, placement.nodes());
            ps.setInt(i++, placement.tasks());
            ps.setInt(i++, placement.cpus());
            ps.setString(i++, idForm(c, tres, placement.allocTres()));
            ps.setLong(i++, s.sequence());
            ps.setLong(i++, job);
            ps.setLong(i, s.stepId());
            ps.executeUpdate();
        }
    }

    private static Long jobRow(Connection c, long clusterId, int jobId, long submitTime) throws SQLException {
        try (PreparedStatement ps =
                c.prepareStatement("SELECT id FROM jobs WHERE cluster_id = ? AND job_id = ? AND submit_time = ?")) {
            ps.setLong(1, clusterId);
            ps.setLong(2, Integer.toUnsignedLong(jobId));
            ps.setLong(3, submitTime);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    static String idForm(Connection c, TresCatalog tres, String named) throws SQLException {
        TresCounts counts;
        try {
            counts = TresCounts.parseNamed(named);
        } catch (IllegalArgumentException e) {
            // A TRES string this version cannot read must not wedge the controller's outbox.
            log.warn("unreadable TRES \"{}\" not stored: {}", named, e.getMessage());
            return "";
        }
        Map<String, Integer> ids = new HashMap<>();
        for (String name : counts.counts().keySet()) {
            ids.put(name, tres.idOf(c, name));
        }
        return clip(counts.toIdForm(ids::get), 1024);
    }

    /** Values longer than their column are cut rather than failing the batch forever. */
    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
