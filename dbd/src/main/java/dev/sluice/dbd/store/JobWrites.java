package dev.sluice.dbd.store;

import static dev.sluice.dbd.store.AccountingStore.clip;

import dev.sluice.dbd.model.AccountingEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
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

    private final Connection c;
    private final TresCatalog tres;
    private final long clusterId;
    private final Map<Key, JobRow> rows = new LinkedHashMap<>();
    private final Set<StepKey> storedSteps = new HashSet<>();
    /**
     * TRES in id form by their named form: a batch's jobs mostly ask alike, and parsing was a
     * quarter of the daemon's work once the rows were read in bulk. Per batch, since a TRES new
     * to the catalog gets its id inside the batch's transaction.
     */
    private final Map<String, String> idForms = new HashMap<>();

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
        // Other runs of the same id (a requeued job's earlier ones) are not named.
        forRows("id, start_time, end_time, tres_alloc, account, user_name", ids, (r, rs) -> {
            r.id = rs.getLong(4);
            r.stored = true;
            r.known = true;
            r.start = rs.getLong(5);
            r.end = rs.getLong(6);
            r.allocTres = rs.getString(7);
            r.account = rs.getString(8);
            r.user = rs.getString(9);
        });
    }

    @FunctionalInterface
    private interface RowReader {
        /** Reads {@code rs}'s columns from the 4th on into {@code r}. */
        void read(JobRow r, ResultSet rs) throws SQLException;
    }

    /**
     * Reads {@code columns} of the job rows with these ids that this batch names, through the
     * job-id index and with the cluster checked here: H2 reads an IN list through an index's
     * first column only, so a cluster condition would make it scan the cluster's every job on the
     * unique key (slower with each job stored), and on MariaDB the index gives the same rows, those
     * of other clusters with the same ids left aside below.
     */
    private void forRows(String columns, List<Long> ids, RowReader reader) throws SQLException {
        for (List<Long> chunk : chunks(ids)) {
            try (PreparedStatement ps = c.prepareStatement("SELECT cluster_id, job_id, submit_time, " + columns
                    + " FROM jobs WHERE job_id IN (" + marks(chunk.size()) + ")")) {
                int i = 1;
                for (long id : chunk) {
                    ps.setLong(i++, id);
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        JobRow r = rs.getLong(1) == clusterId ? rows.get(new Key(rs.getLong(2), rs.getLong(3))) : null;
                        if (r != null) {
                            reader.read(r, rs);
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
        String allocTres = idForm(j.placement().allocTres());
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
        r.reqTres = idForm(j.placement().reqTres());
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

    private String idForm(String named) throws SQLException {
        String known = idForms.get(named);
        if (known == null) {
            known = AccountingStore.idForm(c, tres, named);
            idForms.put(named, known);
        }
        return known;
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
        JobRow.Step w = r.steps.computeIfAbsent(
                s.stepId(), id -> new JobRow.Step(r.stored && storedSteps.contains(new StepKey(r.id, id))));
        w.write = s;
        w.allocTres = idForm(s.placement().allocTres());
    }

    /** Writes what the records left: new job rows, changed ones, then their steps. */
    void write() throws SQLException {
        List<JobRow> inserted = new ArrayList<>();
        try (PreparedStatement insert = c.prepareStatement(JobRow.INSERT);
                PreparedStatement update = c.prepareStatement(JobRow.UPDATE)) {
            int inserts = 0;
            int updates = 0;
            for (Map.Entry<Key, JobRow> e : rows.entrySet()) {
                JobRow r = e.getValue();
                if (r.write == null) {
                    continue;
                }
                if (r.stored) {
                    int i = r.bind(update);
                    update.setLong(i, r.id);
                    update.addBatch();
                    updates++;
                } else {
                    int i = r.bind(insert);
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
        forRows("id", ids, (r, rs) -> {
            if (r.id == null) {
                r.id = rs.getLong(4);
            }
        });
    }

    private void writeSteps() throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(JobRow.Step.INSERT);
                PreparedStatement update = c.prepareStatement(JobRow.Step.UPDATE)) {
            int inserts = 0;
            int updates = 0;
            for (JobRow r : rows.values()) {
                for (Map.Entry<Long, JobRow.Step> e : r.steps.entrySet()) {
                    JobRow.Step w = e.getValue();
                    PreparedStatement ps = w.stored ? update : insert;
                    w.bind(ps);
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
