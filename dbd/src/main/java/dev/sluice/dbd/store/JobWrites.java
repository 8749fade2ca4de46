package dev.sluice.dbd.store;

import static dev.sluice.dbd.store.AccountingStore.clip;
import static dev.sluice.dbd.store.AccountingStore.idForm;

import dev.sluice.dbd.model.AccountingEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job and step records of one accounting batch, applied in bulk inside the batch's
 * transaction: the rows the batch names are read with a query or two up front, the records are
 * folded over them in memory in sequence order (a job submitted and started within one batch is
 * one row write), and the rows are written at the end, one JDBC batch per statement. The outcome
 * is that of applying the records one by one: each record is compared with the row as the records
 * before it left it, and a column a record keeps ({@code priority}, {@code state_reason}) keeps
 * what an earlier record of the batch, or else the row, held.
 *
 * <p>Applying record by record cost a select and a write per job record and two selects and a
 * write per step, about a dozen round trips to the database per job; a batch of a few hundred
 * records now costs about eight.
 */
final class JobWrites {
    private static final Logger log = LoggerFactory.getLogger(JobWrites.class);
    /** Ids per {@code IN (...)}: well inside any database's limit on parameters. */
    private static final int IN_CHUNK = 500;

    private static final String INSERT_JOB = "INSERT INTO jobs (job_name, user_name, uid, gid, group_name, account,"
            + " partition_name, qos, eligible_time, start_time, end_time, state, exit_status, node_list, num_nodes,"
            + " alloc_cpus, tres_req, tres_alloc, time_limit, work_dir, last_sequence, display_id, array_job_id,"
            + " array_task_id, req_cpus, req_nodes, requid, priority, state_reason, constraints, resv_name, resv_id,"
            + " suspended, cluster_id, job_id, submit_time)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            + " ?, ?, ?, ?, ?, ?, ?)";
    // slurmdbd keeps the priority and the reason a job had when it started: its end does not
    // change them (a job that failed reads Reason None in sacct, not NonZeroExitCode). A record
    // without a priority (0: no pass ranked the job) keeps the one held too. NULL keeps.
    private static final String UPDATE_JOB = "UPDATE jobs SET job_name = ?, user_name = ?, uid = ?, gid = ?,"
            + " group_name = ?, account = ?, partition_name = ?, qos = ?, eligible_time = ?, start_time = ?,"
            + " end_time = ?, state = ?, exit_status = ?, node_list = ?, num_nodes = ?, alloc_cpus = ?,"
            + " tres_req = ?, tres_alloc = ?, time_limit = ?, work_dir = ?, last_sequence = ?, display_id = ?,"
            + " array_job_id = ?, array_task_id = ?, req_cpus = ?, req_nodes = ?, requid = ?,"
            + " priority = COALESCE(?, priority), state_reason = COALESCE(?, state_reason), constraints = ?,"
            + " resv_name = ?, resv_id = ?, suspended = ? WHERE id = ?";
    private static final String INSERT_STEP = "INSERT INTO steps (step_name, state, start_time, end_time,"
            + " exit_status, node_list, num_nodes, num_tasks, alloc_cpus, tres_alloc, last_sequence, job_ref,"
            + " step_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String UPDATE_STEP = "UPDATE steps SET step_name = ?, state = ?, start_time = ?,"
            + " end_time = ?, exit_status = ?, node_list = ?, num_nodes = ?, num_tasks = ?, alloc_cpus = ?,"
            + " tres_alloc = ?, last_sequence = ? WHERE job_ref = ? AND step_id = ?";

    /** A job row's key within its cluster, as in Slurm: job id (unsigned) and submit time. */
    private record Key(long jobId, long submitTime) {
        static Key of(AccountingEntry.Job j) {
            return new Key(Integer.toUnsignedLong(j.key().jobId()), j.key().submitTime());
        }

        static Key of(AccountingEntry.Step s) {
            return new Key(Integer.toUnsignedLong(s.jobId()), s.jobSubmitTime());
        }
    }

    private record StepKey(long jobRef, long stepId) {}

    /** A job row as the records so far leave it, and what is to be written to it. */
    private static final class JobRow {
        /** The row's id; null until the row is in the database. */
        Long id;
        /** Whether the row was in the database before this batch. */
        boolean stored;
        /** Whether the row exists: stored, or made by an earlier record of this batch. */
        boolean known;

        long start;
        long end;
        String allocTres = "";
        String account = "";
        String user = "";
        /** The last record to write, with its TRES in id form; null: nothing to write. */
        AccountingEntry.Job write;

        String reqTres;
        /** null: the row keeps what it holds. */
        Long priority;

        String reason;
        final Map<Long, StepWrite> steps = new LinkedHashMap<>();
    }

    private static final class StepWrite {
        final boolean stored;
        AccountingEntry.Step write;
        String allocTres;

        StepWrite(boolean stored) {
            this.stored = stored;
        }
    }

    private final Connection c;
    private final TresCatalog tres;
    private final long clusterId;
    private final Map<Key, JobRow> rows = new LinkedHashMap<>();
    private final Set<StepKey> storedSteps = new HashSet<>();

    private JobWrites(Connection c, TresCatalog tres, long clusterId) {
        this.c = c;
        this.tres = tres;
        this.clusterId = clusterId;
    }

    /** Reads the job rows, and their steps, that {@code entries} (the batch's new records) name. */
    static JobWrites read(Connection c, TresCatalog tres, long clusterId, List<AccountingEntry> entries)
            throws SQLException {
        JobWrites w = new JobWrites(c, tres, clusterId);
        Set<Key> stepJobs = new HashSet<>();
        for (AccountingEntry e : entries) {
            switch (e) {
                case AccountingEntry.Job j -> w.rows.putIfAbsent(Key.of(j), new JobRow());
                case AccountingEntry.Step s -> {
                    w.rows.putIfAbsent(Key.of(s), new JobRow());
                    stepJobs.add(Key.of(s));
                }
                default -> {}
            }
        }
        if (w.rows.isEmpty()) {
            return w;
        }
        w.readJobs();
        List<Long> withSteps = new ArrayList<>();
        for (Key k : stepJobs) {
            JobRow r = w.rows.get(k);
            if (r.stored) {
                withSteps.add(r.id);
            }
        }
        w.readSteps(withSteps);
        return w;
    }

    private void readJobs() throws SQLException {
        List<Long> ids = rows.keySet().stream().map(Key::jobId).distinct().toList();
        for (List<Long> chunk : chunks(ids)) {
            try (PreparedStatement ps = c.prepareStatement("SELECT id, job_id, submit_time, start_time, end_time,"
                    + " tres_alloc, account, user_name FROM jobs WHERE cluster_id = ? AND job_id IN ("
                    + marks(chunk.size()) + ")")) {
                ps.setLong(1, clusterId);
                for (int i = 0; i < chunk.size(); i++) {
                    ps.setLong(i + 2, chunk.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        // Other runs of the same id (a requeued job's earlier ones) are not named.
                        JobRow r = rows.get(new Key(rs.getLong(2), rs.getLong(3)));
                        if (r != null) {
                            r.id = rs.getLong(1);
                            r.stored = true;
                            r.known = true;
                            r.start = rs.getLong(4);
                            r.end = rs.getLong(5);
                            r.allocTres = rs.getString(6);
                            r.account = rs.getString(7);
                            r.user = rs.getString(8);
                        }
                    }
                }
            }
        }
    }

    private void readSteps(List<Long> jobRefs) throws SQLException {
        for (List<Long> chunk : chunks(jobRefs)) {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT job_ref, step_id FROM steps WHERE job_ref IN (" + marks(chunk.size()) + ")")) {
                for (int i = 0; i < chunk.size(); i++) {
                    ps.setLong(i + 1, chunk.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        storedSteps.add(new StepKey(rs.getLong(1), rs.getLong(2)));
                    }
                }
            }
        }
    }

    /**
     * Folds a job record over its row; answers the earliest time from which the job's usage
     * differs from what the row said before ({@code Long.MAX_VALUE} when the usage is the same).
     */
    long job(AccountingEntry.Job j) throws SQLException {
        JobRow r = rows.get(Key.of(j));
        AccountingEntry.JobOwner owner = j.owner();
        AccountingEntry.JobTimes times = j.times();
        String allocTres = idForm(c, tres, j.placement().allocTres());
        String account = clip(owner.account(), 64);
        String user = clip(owner.userName(), 64);
        long changed = r.known
                ? changedFrom(r, times.start(), times.end(), allocTres, account, user)
                : changedFrom(new JobRow(), times.start(), times.end(), allocTres, account, user);
        boolean sameRun = r.known && r.start > 0 && r.start == times.start();
        boolean keepPriority = r.known && j.priority() == 0;
        if (!keepPriority) {
            r.priority = j.priority();
        }
        if (!sameRun) {
            r.reason = clip(j.outcome().reason(), 64);
        }
        r.write = j;
        r.reqTres = idForm(c, tres, j.placement().reqTres());
        r.start = times.start();
        r.end = times.end();
        r.allocTres = allocTres;
        r.account = account;
        r.user = user;
        r.known = true;
        return changed;
    }

    /** The earliest time whose usage the new values change against the row's; MAX_VALUE when none. */
    private static long changedFrom(
            JobRow r, long newStart, long newEnd, String newTres, String newAccount, String newUser) {
        boolean sameAssoc = r.allocTres.equals(newTres) && r.account.equals(newAccount) && r.user.equals(newUser);
        if (r.start == newStart && r.end == newEnd && sameAssoc) {
            return Long.MAX_VALUE;
        }
        if (r.start != newStart || !sameAssoc) {
            return Math.min(r.start > 0 ? r.start : Long.MAX_VALUE, newStart > 0 ? newStart : Long.MAX_VALUE);
        }
        // Same start, other end: hours before the earlier end are unchanged.
        return Math.min(r.end == 0 ? Long.MAX_VALUE : r.end, newEnd == 0 ? Long.MAX_VALUE : newEnd);
    }

    /** Folds a step record over its row; a step of a job never stored is skipped. */
    void step(AccountingEntry.Step s) throws SQLException {
        JobRow r = rows.get(Key.of(s));
        if (r == null || !r.known) {
            // The controller sends a job's record before any of its steps; a step without one
            // means the job row was never stored, and no retry would change that.
            log.warn("step {}.{} (sequence {}) names an unknown job; skipped", s.jobId(), s.stepId(), s.sequence());
            return;
        }
        StepWrite w = r.steps.computeIfAbsent(
                s.stepId(), id -> new StepWrite(r.stored && storedSteps.contains(new StepKey(r.id, id))));
        w.write = s;
        w.allocTres = idForm(c, tres, s.placement().allocTres());
    }

    /** Writes what the records left: new job rows, changed ones, then their steps. */
    void write() throws SQLException {
        List<JobRow> inserted = new ArrayList<>();
        try (PreparedStatement insert = c.prepareStatement(INSERT_JOB);
                PreparedStatement update = c.prepareStatement(UPDATE_JOB)) {
            int inserts = 0;
            int updates = 0;
            for (Map.Entry<Key, JobRow> e : rows.entrySet()) {
                JobRow r = e.getValue();
                if (r.write == null) {
                    continue;
                }
                if (r.stored) {
                    int i = bindJob(update, r);
                    update.setLong(i, r.id);
                    update.addBatch();
                    updates++;
                } else {
                    int i = bindJob(insert, r);
                    insert.setLong(i++, clusterId);
                    insert.setLong(i++, e.getKey().jobId());
                    insert.setLong(i, e.getKey().submitTime());
                    insert.addBatch();
                    inserts++;
                    if (!r.steps.isEmpty()) {
                        inserted.add(r);
                    }
                }
            }
            if (inserts > 0) {
                insert.executeBatch();
            }
            if (updates > 0) {
                update.executeBatch();
            }
        }
        if (!inserted.isEmpty()) {
            readIds();
        }
        writeSteps();
    }

    /** The ids of the rows this batch inserted (only they have none). */
    private void readIds() throws SQLException {
        List<Long> ids = rows.entrySet().stream()
                .filter(e -> e.getValue().id == null && e.getValue().known)
                .map(e -> e.getKey().jobId())
                .distinct()
                .toList();
        for (List<Long> chunk : chunks(ids)) {
            try (PreparedStatement ps = c.prepareStatement("SELECT id, job_id, submit_time FROM jobs"
                    + " WHERE cluster_id = ? AND job_id IN (" + marks(chunk.size()) + ")")) {
                ps.setLong(1, clusterId);
                for (int i = 0; i < chunk.size(); i++) {
                    ps.setLong(i + 2, chunk.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        JobRow r = rows.get(new Key(rs.getLong(2), rs.getLong(3)));
                        if (r != null && r.id == null) {
                            r.id = rs.getLong(1);
                        }
                    }
                }
            }
        }
    }

    private void writeSteps() throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(INSERT_STEP);
                PreparedStatement update = c.prepareStatement(UPDATE_STEP)) {
            int inserts = 0;
            int updates = 0;
            for (JobRow r : rows.values()) {
                for (Map.Entry<Long, StepWrite> e : r.steps.entrySet()) {
                    StepWrite w = e.getValue();
                    PreparedStatement ps = w.stored ? update : insert;
                    bindStep(ps, w);
                    ps.setLong(12, r.id);
                    ps.setLong(13, e.getKey());
                    ps.addBatch();
                    if (w.stored) {
                        updates++;
                    } else {
                        inserts++;
                    }
                }
            }
            if (inserts > 0) {
                insert.executeBatch();
            }
            if (updates > 0) {
                update.executeBatch();
            }
        }
    }

    /** Binds the columns both job statements share; answers the next parameter's index. */
    private static int bindJob(PreparedStatement ps, JobRow r) throws SQLException {
        AccountingEntry.Job j = r.write;
        AccountingEntry.JobKey key = j.key();
        AccountingEntry.JobOwner owner = j.owner();
        AccountingEntry.JobTimes times = j.times();
        AccountingEntry.JobPlacement placement = j.placement();
        int i = 1;
        ps.setString(i++, clip(j.name(), 256));
        ps.setString(i++, r.user);
        ps.setLong(i++, owner.uid());
        ps.setLong(i++, owner.gid());
        ps.setString(i++, clip(owner.groupName(), 64));
        ps.setString(i++, r.account);
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
        ps.setString(i++, r.reqTres);
        ps.setString(i++, r.allocTres);
        ps.setLong(i++, times.limitMinutes());
        ps.setString(i++, clip(j.workDir(), 1024));
        ps.setLong(i++, j.sequence());
        ps.setString(i++, clip(key.displayId(), 64));
        ps.setLong(i++, Integer.toUnsignedLong(key.arrayJobId()));
        ps.setLong(i++, key.arrayTaskId());
        ps.setInt(i++, placement.reqCpus());
        ps.setInt(i++, placement.reqNodes());
        ps.setLong(i++, j.outcome().cancelledBy());
        if (r.priority == null) {
            ps.setNull(i++, Types.BIGINT);
        } else {
            ps.setLong(i++, r.priority);
        }
        if (r.reason == null) {
            ps.setNull(i++, Types.VARCHAR);
        } else {
            ps.setString(i++, r.reason);
        }
        ps.setString(i++, clip(j.constraints(), 1024));
        ps.setString(i++, clip(j.reservation(), 128));
        ps.setLong(i++, j.reservationId());
        ps.setLong(i++, times.suspended());
        return i;
    }

    private static void bindStep(PreparedStatement ps, StepWrite w) throws SQLException {
        AccountingEntry.Step s = w.write;
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
        ps.setString(i++, w.allocTres);
        ps.setLong(i, s.sequence());
    }

    private static List<List<Long>> chunks(List<Long> ids) {
        List<List<Long>> out = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += IN_CHUNK) {
            out.add(ids.subList(from, Math.min(ids.size(), from + IN_CHUNK)));
        }
        return out;
    }

    private static String marks(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }
}
