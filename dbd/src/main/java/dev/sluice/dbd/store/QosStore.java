package dev.sluice.dbd.store;

import static java.util.Objects.requireNonNull;

import dev.sluice.protocol.v1.AddQosRequest;
import dev.sluice.protocol.v1.AddResult;
import dev.sluice.protocol.v1.DeleteAssocResult;
import dev.sluice.protocol.v1.DeleteQosRequest;
import dev.sluice.protocol.v1.ListQosRequest;
import dev.sluice.protocol.v1.ListQosResult;
import dev.sluice.protocol.v1.ModifyQosRequest;
import dev.sluice.protocol.v1.ModifyResult;
import dev.sluice.protocol.v1.QosEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * QOS as sacctmgr manages them ({@code acct_qos}). Names are kept in lower case, as Slurm
 * does. Like {@link AssociationStore}, a request with {@code commit} false is a preview.
 */
public final class QosStore {
    /** sacctmgr key (lower case) → column; the keys {@code given}/{@code cleared} name. */
    private static final List<String[]> COLUMNS = List.of(
            new String[] {"description", "description"},
            new String[] {"priority", "priority"},
            new String[] {"gracetime", "grace_time_seconds"},
            new String[] {"preempt", "preempt"},
            new String[] {"preemptmode", "preempt_mode"},
            new String[] {"flags", "flags"},
            new String[] {"usagefactor", "usage_factor"},
            new String[] {"grptres", "grp_tres"},
            new String[] {"maxtresperjob", "max_tres_per_job"},
            new String[] {"maxwall", "max_wall_minutes"},
            new String[] {"maxjobsperuser", "max_jobs_per_user"},
            new String[] {"maxsubmitjobsperuser", "max_submit_jobs_per_user"},
            new String[] {"grpjobs", "grp_jobs"},
            new String[] {"grpsubmitjobs", "grp_submit_jobs"},
            new String[] {"maxtresperuser", "max_tres_per_user"},
            new String[] {"preemptexempttime", "preempt_exempt_seconds"},
            new String[] {"maxtresperaccount", "max_tres_per_account"},
            new String[] {"usagethreshold", "usage_threshold"},
            new String[] {"maxtrespernode", "max_tres_per_node"});

    /** The keys whose values are TRES lists, merged into what is stored ({@link TresLimitText}). */
    private static final java.util.Set<String> TRES_KEYS =
            java.util.Set.of("grptres", "maxtresperjob", "maxtresperuser", "maxtresperaccount", "maxtrespernode");

    private final DataSource ds;
    private final InstantSource clock;

    public QosStore(DataSource ds, InstantSource clock) {
        this.ds = requireNonNull(ds, "ds is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    public AddResult add(AddQosRequest r) throws SQLException {
        return Tx.run(ds, r.getCommit(), c -> {
            AddResult.Builder out = AddResult.newBuilder();
            for (String name : r.getNamesList()) {
                if (!read(c, List.of(name)).isEmpty()) {
                    continue;
                }
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO acct_qos (name, description, priority,"
                        + " grace_time_seconds, preempt, preempt_mode, flags, usage_factor, created_at)"
                        + " VALUES (?, ?, 0, 0, '', 'cluster', '', 1.0, ?)")) {
                    ps.setString(1, name);
                    ps.setString(2, name);
                    // Milliseconds: created_at orders QOS as Slurm's ids do, and two sacctmgr
                    // commands within a second must not fall back to name order.
                    ps.setLong(3, clock.instant().toEpochMilli());
                    ps.executeUpdate();
                }
                set(c, name, r.getSettings(), r.getGivenList(), List.of());
                out.addAdded(name);
            }
            return out.build();
        });
    }

    public ModifyResult modify(ModifyQosRequest r) throws SQLException {
        return Tx.run(ds, r.getCommit(), c -> {
            ModifyResult.Builder out = ModifyResult.newBuilder();
            List<String> names = r.getNamesList();
            for (QosEntry q : read(c, names)) {
                set(c, q.getName(), r.getSettings(), r.getGivenList(), r.getClearedList());
                out.addModified(q.getName());
            }
            return out.build();
        });
    }

    public DeleteAssocResult delete(DeleteQosRequest r) throws SQLException {
        return Tx.run(ds, r.getCommit(), c -> {
            DeleteAssocResult.Builder out = DeleteAssocResult.newBuilder();
            // Listed by name, whatever the order asked in (slurmdbd's, compat 128, 243).
            for (String name : new java.util.TreeSet<>(r.getNamesList())) {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM acct_qos WHERE name = ?")) {
                    ps.setString(1, name);
                    if (ps.executeUpdate() > 0) {
                        out.addDeleted(name);
                    }
                }
            }
            return out.build();
        });
    }

    public ListQosResult list(ListQosRequest r) throws SQLException {
        return Tx.run(
                ds,
                false,
                c -> ListQosResult.newBuilder()
                        .addAllQos(read(c, r.getNamesList()))
                        .build());
    }

    /** The QOS named (all when {@code names} is empty), by name. */
    static List<QosEntry> read(Connection c, List<String> names) throws SQLException {
        List<QosEntry> out = new ArrayList<>();
        try (PreparedStatement ps =
                        c.prepareStatement("SELECT name, description, priority, grace_time_seconds, preempt,"
                                + " preempt_mode, flags, usage_factor, grp_tres, max_tres_per_job, max_wall_minutes,"
                                + " max_jobs_per_user, max_submit_jobs_per_user, grp_jobs, grp_submit_jobs, max_tres_per_user,"
                                + " preempt_exempt_seconds, max_tres_per_account, usage_threshold, max_tres_per_node"
                                // Slurm lists QOS by id, which is the order they were added in.
                                + " FROM acct_qos ORDER BY created_at, name");
                ResultSet rs = ps.executeQuery()) {
            int id = 0;
            while (rs.next()) {
                // Counted over every row, whatever is chosen: the job query numbers them so.
                id++;
                if (!Names.wanted(names, rs.getString(1))) {
                    continue;
                }
                QosEntry.Builder q = QosEntry.newBuilder()
                        .setId(id)
                        .setName(rs.getString(1))
                        .setDescription(rs.getString(2))
                        .setPriority((int) rs.getLong(3))
                        .setGraceTimeSeconds((int) rs.getLong(4))
                        .addAllPreempt(split(rs.getString(5)))
                        .setPreemptMode(rs.getString(6))
                        .addAllFlags(split(rs.getString(7)))
                        .setUsageFactor(rs.getDouble(8));
                if (rs.getString(9) != null) {
                    q.setGrpTres(rs.getString(9));
                }
                if (rs.getString(10) != null) {
                    q.setMaxTresPerJob(rs.getString(10));
                }
                if (rs.getObject(11) != null) {
                    q.setMaxWallMinutes((int) rs.getLong(11));
                }
                if (rs.getObject(12) != null) {
                    q.setMaxJobsPerUser((int) rs.getLong(12));
                }
                if (rs.getObject(13) != null) {
                    q.setMaxSubmitJobsPerUser((int) rs.getLong(13));
                }
                if (rs.getObject(14) != null) {
                    q.setGrpJobs((int) rs.getLong(14));
                }
                if (rs.getObject(15) != null) {
                    q.setGrpSubmitJobs((int) rs.getLong(15));
                }
                if (rs.getString(16) != null) {
                    q.setMaxTresPerUser(rs.getString(16));
                }
                if (rs.getObject(17) != null) {
                    q.setPreemptExemptSeconds((int) rs.getLong(17));
                }
                if (rs.getString(18) != null) {
                    q.setMaxTresPerAccount(rs.getString(18));
                }
                if (rs.getObject(19) != null) {
                    q.setUsageThreshold(rs.getDouble(19));
                }
                if (rs.getString(20) != null) {
                    q.setMaxTresPerNode(rs.getString(20));
                }
                out.add(q.build());
            }
        }
        return out;
    }

    private static void set(Connection c, String name, QosEntry v, List<String> given, List<String> cleared)
            throws SQLException {
        for (String[] col : COLUMNS) {
            boolean clear = cleared.contains(col[0]);
            if (!clear && !given.contains(col[0])) {
                continue;
            }
            Object value = clear ? unset(col[0]) : value(col[0], v);
            if (!clear && TRES_KEYS.contains(col[0])) {
                value = TresLimitText.merge(stored(c, name, col[1]), (String) value);
            }
            try (PreparedStatement ps = c.prepareStatement("UPDATE acct_qos SET " + col[1] + " = ? WHERE name = ?")) {
                ps.setObject(1, value);
                ps.setString(2, name);
                ps.executeUpdate();
            }
        }
    }

    private static String stored(Connection c, String name, String column) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + column + " FROM acct_qos WHERE name = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** -1: limits become NULL (no limit), the rest go back to a new QOS's value. */
    private static Object unset(String key) {
        return switch (key) {
            case "priority", "gracetime" -> 0L;
            case "preempt", "flags" -> "";
            case "preemptmode" -> "cluster";
            case "usagefactor" -> 1.0;
            default -> null;
        };
    }

    private static Object value(String key, QosEntry v) {
        return switch (key) {
            case "description" -> v.getDescription();
            case "priority" -> Integer.toUnsignedLong(v.getPriority());
            case "gracetime" -> Integer.toUnsignedLong(v.getGraceTimeSeconds());
            case "preempt" -> String.join(",", v.getPreemptList());
            case "preemptmode" -> v.getPreemptMode();
            case "flags" -> String.join(",", v.getFlagsList());
            case "usagefactor" -> v.getUsageFactor();
            case "grptres" -> v.getGrpTres();
            case "maxtresperjob" -> v.getMaxTresPerJob();
            case "maxwall" -> Integer.toUnsignedLong(v.getMaxWallMinutes());
            case "maxjobsperuser" -> Integer.toUnsignedLong(v.getMaxJobsPerUser());
            case "grpjobs" -> Integer.toUnsignedLong(v.getGrpJobs());
            case "grpsubmitjobs" -> Integer.toUnsignedLong(v.getGrpSubmitJobs());
            case "maxtresperuser" -> v.getMaxTresPerUser();
            case "preemptexempttime" -> Integer.toUnsignedLong(v.getPreemptExemptSeconds());
            case "maxtresperaccount" -> v.getMaxTresPerAccount();
            case "usagethreshold" -> v.getUsageThreshold();
            case "maxtrespernode" -> v.getMaxTresPerNode();
            default -> Integer.toUnsignedLong(v.getMaxSubmitJobsPerUser());
        };
    }

    private static List<String> split(String list) {
        return list.isEmpty() ? List.of() : List.of(list.split(","));
    }
}
