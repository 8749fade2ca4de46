package dev.sluice.dbd.store;

import dev.sluice.dbd.model.AccountingEntry;
import dev.sluice.dbd.model.TresCounts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster's size over time ({@code cluster_tres_periods}): a {@link AccountingEntry.ClusterSize}
 * closes the current period at its time and opens one with the new totals and down part. The same totals again
 * (a controller restart re-reports them) change nothing.
 */
final class ClusterTres {
    private ClusterTres() {}

    /** Applies one report; answers the time from which usage changes, MAX_VALUE when none. */
    static long apply(Connection c, TresCatalog tres, long clusterId, AccountingEntry.ClusterSize r)
            throws SQLException {
        // The size and its down part, kept together: "1=8,2=16000|1=4,2=8000".
        String totals = AccountingStore.idForm(c, tres, r.tres());
        String down = AccountingStore.idForm(c, tres, r.downTres());
        long time = r.time();
        Long openStart = null;
        String openTres = null;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT time_start, tres, down_tres FROM cluster_tres_periods WHERE cluster_id = ? AND time_end = 0")) {
            ps.setLong(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    openStart = rs.getLong(1);
                    openTres = rs.getString(2) + '|' + rs.getString(3);
                }
            }
        }
        if (openStart != null) {
            if (openTres.equals(totals + '|' + down)) {
                return Long.MAX_VALUE;
            }
            if (time <= openStart) {
                // A second report within the period's first second (or out of order): it replaces it.
                try (PreparedStatement ps = c.prepareStatement(
                        "UPDATE cluster_tres_periods SET tres = ?, down_tres = ? WHERE cluster_id = ? AND time_start = ?")) {
                    ps.setString(1, totals);
                    ps.setString(2, down);
                    ps.setLong(3, clusterId);
                    ps.setLong(4, openStart);
                    ps.executeUpdate();
                }
                return openStart;
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE cluster_tres_periods SET time_end = ? WHERE cluster_id = ? AND time_start = ?")) {
                ps.setLong(1, time);
                ps.setLong(2, clusterId);
                ps.setLong(3, openStart);
                ps.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO cluster_tres_periods (cluster_id, time_start, time_end, tres, down_tres)"
                        + " VALUES (?, ?, 0, ?, ?)")) {
            ps.setLong(1, clusterId);
            ps.setLong(2, time);
            ps.setString(3, totals);
            ps.setString(4, down);
            ps.executeUpdate();
        }
        return time;
    }

    /**
     * The cluster's TRES as {@code sacctmgr show cluster format=TRES} prints them: its current
     * size, sorted by name, memory with its unit. Slurm's controller registers every TRES it
     * tracks, so the ones below {@link TresCatalog#FIRST_DYNAMIC_ID} (cpu, mem, energy, node,
     * billing, fs/disk, vmem, pages) appear even at 0 ({@code energy=0}). Empty for a cluster
     * whose controller never reported (one added by {@code sacctmgr add cluster}).
     */
    static String current(Connection c, String cluster) throws SQLException {
        String stored = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT p.tres FROM cluster_tres_periods p"
                + " JOIN clusters k ON k.id = p.cluster_id WHERE k.name = ? AND p.time_end = 0")) {
            ps.setString(1, cluster);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    stored = rs.getString(1);
                }
            }
        }
        if (stored == null) {
            return "";
        }
        TresCatalog tres = TresCatalog.load(c);
        Map<String, Long> counts = new TreeMap<>();
        for (int id = 1; id < TresCatalog.FIRST_DYNAMIC_ID; id++) {
            String name = tres.nameOf(id);
            if (name != null) {
                counts.put(name, 0L);
            }
        }
        counts.putAll(TresCounts.parseIdForm(stored, tres::nameOf).counts());
        return new TresCounts(counts).toNamedForm();
    }
}
