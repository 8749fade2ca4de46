package dev.sluice.cli.view;

import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.ReservationInfo;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Advance reservations as Slurm 22.05 prints them (layouts taken from the real cluster):
 * {@code scontrol show reservation}'s record and {@code sinfo -T}'s table.
 */
public final class ReservationText {
    /** What both print when there is none. */
    public static final String NONE = "No reservations in the system";

    private ReservationText() {}

    /** {@code scontrol show reservation}: five lines and a blank one (one line with {@code -o}). */
    public static String record(ReservationInfo r, long now, ZoneId zone, boolean oneLiner) {
        List<String> lines = new ArrayList<>();
        lines.add("ReservationName=" + r.getName() + " StartTime=" + time(r.getStartTime(), zone) + " EndTime="
                + time(r.getEndTime(), zone) + " Duration=" + duration(r.getEndTime() - r.getStartTime()));
        lines.add("Nodes=" + nodes(r) + " NodeCnt=" + r.getNodesCount() + " CoreCnt=" + r.getCoreCount()
                + " Features=(null) PartitionName=" + orNull(r.getPartition()) + " Flags="
                + String.join(",", r.getFlagsList()));
        // A partial-node reservation names its cores, node by node (Slurm 22.05, compat 162).
        for (dev.sluice.protocol.v1.ReservationCores c : r.getCoresList()) {
            lines.add("  NodeName=" + c.getNode() + " CoreIDs="
                    + dev.sluice.common.hostlist.IndexRanges.format(c.getIdsList()));
        }
        // Licenses are no TRES unless AccountingStorageTRES names them: one of licenses alone
        // (ANY_NODES) has none (Slurm 22.05, compat 283).
        lines.add("TRES="
                + (r.getCoreCount() == 0
                        ? "(null)"
                        : Tres.of(Map.of("cpu", (long) cpus(r))).format()));
        lines.add("Users=" + names(r.getUsersList(), r.getUsersExcluded()) + " Groups=(null) Accounts="
                + names(r.getAccountsList(), false) + " Licenses=" + orNull(r.getLicenses()) + " State=" + state(r, now)
                + " BurstBuffer=(null) Watts=n/a");
        lines.add("MaxStartDelay=(null)");
        if (oneLiner) {
            return String.join(" ", lines) + "\n";
        }
        return String.join("\n   ", lines) + "\n\n";
    }

    /** {@code TRES=cpu=}: the cores on its nodes (fewer than {@code CoreCnt=} after a pick passed some over). */
    static int cpus(ReservationInfo r) {
        return r.getCoresOnNodes() > 0 ? r.getCoresOnNodes() : r.getCoreCount();
    }

    /** {@code sinfo -T}: a header and a row per reservation, the name column as wide as the longest. */
    public static String table(List<ReservationInfo> all, long now, ZoneId zone) {
        return table(all, now, zone, true);
    }

    /** The same, with or without its header ({@code sinfo -T -h} leaves it out, compat 222). */
    public static String table(List<ReservationInfo> all, long now, ZoneId zone, boolean header) {
        int width = "RESV_NAME".length();
        for (ReservationInfo r : all) {
            width = Math.max(width, r.getName().length());
        }
        String row = "%-" + width + "s  %8s  %19s  %19s  %11s  %s%n";
        StringBuilder out = new StringBuilder();
        if (header) {
            out.append(String.format(row, "RESV_NAME", "STATE", "START_TIME", "END_TIME", "DURATION", "NODELIST"));
        }
        for (ReservationInfo r : all) {
            out.append(String.format(
                    row,
                    r.getName(),
                    state(r, now),
                    time(r.getStartTime(), zone),
                    time(r.getEndTime(), zone),
                    duration(r.getEndTime() - r.getStartTime()),
                    nodes(r)));
        }
        return out.toString();
    }

    /** ACTIVE once its window has begun, INACTIVE before. */
    public static String state(ReservationInfo r, long now) {
        return r.getStartTime() <= now && now < r.getEndTime() ? "ACTIVE" : "INACTIVE";
    }

    /** Slurm's secs2time_str: {@code HH:MM:SS}, {@code D-HH:MM:SS}. */
    static String duration(long seconds) {
        long days = seconds / 86_400;
        String hms = String.format("%02d:%02d:%02d", (seconds / 3600) % 24, (seconds / 60) % 60, seconds % 60);
        return days > 0 ? days + "-" + hms : hms;
    }

    private static String time(long epoch, ZoneId zone) {
        return SlurmTimestamp.format(Instant.ofEpochSecond(epoch), zone);
    }

    private static String nodes(ReservationInfo r) {
        return r.getNodesCount() == 0 ? "(null)" : HostList.compressSorted(r.getNodesList());
    }

    private static String names(List<String> names, boolean excluded) {
        if (names.isEmpty()) {
            return "(null)";
        }
        return String.join(",", excluded ? names.stream().map(n -> "-" + n).toList() : names);
    }

    private static String orNull(String s) {
        return s.isEmpty() ? "(null)" : s;
    }
}
