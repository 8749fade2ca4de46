package dev.sluice.dbd.store;

import static dev.sluice.dbd.store.AccountingStore.clip;

import dev.sluice.dbd.model.AccountingEntry;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A job row as the records of a batch so far leave it ({@link JobWrites}), what is to be written
 * to it, and the statements that write it; {@link Step} the same for one of its steps.
 */
final class JobRow {
    static final String INSERT = "INSERT INTO jobs (job_name, user_name, uid, gid, group_name, account,"
            + " partition_name, qos, eligible_time, start_time, end_time, state, exit_status, node_list, num_nodes,"
            + " alloc_cpus, tres_req, tres_alloc, time_limit, work_dir, last_sequence, display_id, array_job_id,"
            + " array_task_id, req_cpus, req_nodes, requid, priority, state_reason, constraints, resv_name, resv_id,"
            + " suspended, wckey, cluster_id, job_id, submit_time)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            + " ?, ?, ?, ?, ?, ?, ?, ?)";
    // slurmdbd keeps the priority and the reason a job had when it started: its end does not
    // change them (a job that failed reads Reason None in sacct, not NonZeroExitCode). A record
    // without a priority (0: no pass ranked the job) keeps the one held too. NULL keeps.
    static final String UPDATE = "UPDATE jobs SET job_name = ?, user_name = ?, uid = ?, gid = ?,"
            + " group_name = ?, account = ?, partition_name = ?, qos = ?, eligible_time = ?, start_time = ?,"
            + " end_time = ?, state = ?, exit_status = ?, node_list = ?, num_nodes = ?, alloc_cpus = ?,"
            + " tres_req = ?, tres_alloc = ?, time_limit = ?, work_dir = ?, last_sequence = ?, display_id = ?,"
            + " array_job_id = ?, array_task_id = ?, req_cpus = ?, req_nodes = ?, requid = ?,"
            + " priority = COALESCE(?, priority), state_reason = COALESCE(?, state_reason), constraints = ?,"
            + " resv_name = ?, resv_id = ?, suspended = ?, wckey = ? WHERE id = ?";
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
    final Map<Long, Step> steps = new LinkedHashMap<>();

    /** Binds the columns both statements share; answers the next parameter's index. */
    int bind(PreparedStatement ps) throws SQLException {
        AccountingEntry.Job j = write;
        AccountingEntry.JobKey key = j.key();
        AccountingEntry.JobOwner owner = j.owner();
        AccountingEntry.JobTimes times = j.times();
        AccountingEntry.JobPlacement placement = j.placement();
        int i = 1;
        ps.setString(i++, clip(j.name(), 256));
        ps.setString(i++, user);
        ps.setLong(i++, owner.uid());
        ps.setLong(i++, owner.gid());
        ps.setString(i++, clip(owner.groupName(), 64));
        ps.setString(i++, account);
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
        ps.setString(i++, reqTres);
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
        if (priority == null) {
            ps.setNull(i++, Types.BIGINT);
        } else {
            ps.setLong(i++, priority);
        }
        if (reason == null) {
            ps.setNull(i++, Types.VARCHAR);
        } else {
            ps.setString(i++, reason);
        }
        ps.setString(i++, clip(j.constraints(), 1024));
        ps.setString(i++, clip(j.reservation(), 128));
        ps.setLong(i++, j.reservationId());
        ps.setLong(i++, times.suspended());
        ps.setString(i++, clip(j.owner().wckey(), 128));
        return i;
    }

    /** A step of the job: the last record to write, and whether its row was stored before. */
    static final class Step {
        static final String INSERT = "INSERT INTO steps (step_name, state, start_time, end_time,"
                + " exit_status, node_list, num_nodes, num_tasks, alloc_cpus, tres_alloc, last_sequence, job_ref,"
                + " step_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        static final String UPDATE = "UPDATE steps SET step_name = ?, state = ?, start_time = ?,"
                + " end_time = ?, exit_status = ?, node_list = ?, num_nodes = ?, num_tasks = ?, alloc_cpus = ?,"
                + " tres_alloc = ?, last_sequence = ? WHERE job_ref = ? AND step_id = ?";

        final boolean stored;
        AccountingEntry.Step write;
        String allocTres;

        Step(boolean stored) {
            this.stored = stored;
        }

        /** Binds the columns both statements share, up to the key. */
        void bind(PreparedStatement ps) throws SQLException {
            AccountingEntry.Step s = write;
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
            ps.setString(i++, allocTres);
            ps.setLong(i, s.sequence());
        }
    }
}
