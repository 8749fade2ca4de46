package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.protocol.v1.ModifiedJob;
import dev.sluice.protocol.v1.ModifyJobsRequest;
import dev.sluice.protocol.v1.ModifyResult;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import javax.sql.DataSource;

/**
 * sacctmgr modify job: the few fields of a job's record that change after the fact (its derived
 * exit code, comment, admin and system comments, wckey), on the latest record of each job id.
 * Slurm 22.05 lets a job's owner change its own job's derived exit code and comment, and only
 * operators another user's job or anyone's admin or system comment (compat 293). A new wckey
 * given for jobs picked by id changed nothing there, whatever else was given (compat 294:
 * sacctmgr's NewWCKey renames the wckey of the jobs a WCKeys= condition picks, a condition
 * sluice-dbd does not take yet).
 */
public final class JobEdits {
    /** slurmdbd's words when no job of the request is in the database (compat 293). */
    public static final String NO_SUCH_JOB =
            "Request didn't affect anything or your user doesn't have privilege to perform this action";
    /** slurmdbd's words when a job was found but nothing was changed (a new wckey; compat 294). */
    public static final String UNCHANGED = "No error";

    /** What the caller may do: its uid, and whether it is an operator. */
    public record Caller(long uid, boolean operator) {}

    /** A refusal of the whole request: a job the caller may not change, or a field it may not set. */
    public static final class Denied extends Exception {
        public Denied(String message) {
            super(message);
        }
    }

    private final DataSource ds;

    public JobEdits(DataSource ds) {
        this.ds = requireNonNull(ds, "ds is null");
    }

    /**
     * Changes the jobs the request names and lists them by id and submission, in id order. A job
     * the database does not have is left out; when none is changed the result's note says why.
     */
    public ModifyResult modify(ModifyJobsRequest r, Caller who) throws SQLException, Denied {
        if (!who.operator() && (r.hasAdminComment() || r.hasSystemComment())) {
            throw new Denied("admin and system comments are changed by operators only");
        }
        if (!r.hasDerivedExitStatus()
                && !r.hasComment()
                && !r.hasAdminComment()
                && !r.hasSystemComment()
                && !r.hasWckey()) {
            throw new IllegalArgumentException("No change specified for job modification");
        }
        try (Connection c = ds.getConnection()) {
            try {
                List<Row> rows = latest(c, r.getCluster(), new LinkedHashSet<>(r.getJobIdsList()));
                for (Row row : rows) {
                    if (!who.operator() && row.uid != who.uid()) {
                        throw new Denied("job " + row.jobId + " belongs to another user");
                    }
                }
                ModifyResult.Builder out = ModifyResult.newBuilder();
                if (rows.isEmpty()) {
                    out.setNote(NO_SUCH_JOB);
                } else if (r.hasWckey()) {
                    out.setNote(UNCHANGED);
                    rows = List.of();
                }
                for (Row row : rows) {
                    update(c, row.id, r);
                    out.addJobs(ModifiedJob.newBuilder()
                            .setJobId(row.jobId)
                            .setSubmitTime(row.submitTime)
                            .build());
                }
                if (r.getCommit()) {
                    c.commit();
                } else {
                    c.rollback();
                }
                return out.build();
            } catch (SQLException | RuntimeException | Denied e) {
                c.rollback();
                throw e;
            }
        }
    }

    private record Row(long id, int jobId, long submitTime, long uid) {}

    /** Each id's latest record on the cluster (its last submission, the last written of those). */
    private static List<Row> latest(Connection c, String cluster, LinkedHashSet<Integer> ids) throws SQLException {
        List<Row> out = new ArrayList<>();
        if (ids.isEmpty()) {
            return out;
        }
        String marks = String.join(", ", java.util.Collections.nCopies(ids.size(), "?"));
        try (PreparedStatement ps = c.prepareStatement("SELECT j.id, j.job_id, j.submit_time, j.uid"
                + " FROM jobs j JOIN clusters k ON k.id = j.cluster_id WHERE k.name = ? AND j.job_id IN (" + marks
                + ") ORDER BY j.job_id, j.submit_time DESC, j.id DESC")) {
            ps.setString(1, cluster);
            int i = 2;
            for (int id : ids) {
                ps.setLong(i++, Integer.toUnsignedLong(id));
            }
            try (ResultSet rs = ps.executeQuery()) {
                long last = -1;
                while (rs.next()) {
                    long jobId = rs.getLong(2);
                    if (jobId != last) {
                        out.add(new Row(rs.getLong(1), (int) jobId, rs.getLong(3), rs.getLong(4)));
                        last = jobId;
                    }
                }
            }
        }
        return out;
    }

    private static void update(Connection c, long rowId, ModifyJobsRequest r) throws SQLException {
        List<String> sets = new ArrayList<>();
        List<Object> args = new ArrayList<>();
        if (r.hasDerivedExitStatus()) {
            sets.add("derived_ec_set = ?");
            args.add(Integer.toUnsignedLong(r.getDerivedExitStatus()));
        }
        if (r.hasComment()) {
            sets.add("comment = ?");
            args.add(r.getComment());
        }
        if (r.hasAdminComment()) {
            sets.add("admin_comment = ?");
            args.add(r.getAdminComment());
        }
        if (r.hasSystemComment()) {
            sets.add("system_comment = ?");
            args.add(r.getSystemComment());
        }
        try (PreparedStatement ps =
                c.prepareStatement("UPDATE jobs SET " + String.join(", ", sets) + " WHERE id = ?")) {
            int i = 1;
            for (Object a : args) {
                ps.setObject(i++, a);
            }
            ps.setLong(i, rowId);
            ps.executeUpdate();
        }
    }
}
