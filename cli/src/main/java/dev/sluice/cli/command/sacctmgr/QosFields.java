package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.command.sacctmgr.AssocFields.Field;
import dev.sluice.protocol.v1.QosEntry;
import java.util.List;

/**
 * {@code sacctmgr show qos} columns: Slurm 22.05's default list (qos_functions.c,
 * sacctmgr_list_qos) with the titles and widths of sacctmgr's field table. Limits Sluice does
 * not keep print blank.
 */
final class QosFields {
    private QosFields() {}

    static final List<Field<QosEntry>> QOS = List.of(
            new Field<>("Name", "Name", 10, QosEntry::getName),
            new Field<>("Priority", "Priority", 10, q -> Integer.toUnsignedString(q.getPriority())),
            new Field<>("GraceTime", "GraceTime", 10, q -> seconds(q.getGraceTimeSeconds())),
            new Field<>("Preempt", "Preempt", 10, q -> String.join(",", q.getPreemptList())),
            new Field<>("PreemptExemptTime", "PreemptExemptTime", 19, q -> ""),
            new Field<>("PreemptMode", "PreemptMode", 11, QosEntry::getPreemptMode),
            new Field<>("Flags", "Flags", 40, q -> String.join(",", q.getFlagsList())),
            new Field<>("UsageThreshold", "UsageThres", 10, q -> ""),
            new Field<>("UsageFactor", "UsageFactor", 11, q -> String.format("%.6f", q.getUsageFactor())),
            new Field<>("GrpTRES", "GrpTRES", 13, QosEntry::getGrpTres),
            new Field<>("GrpTRESMins", "GrpTRESMins", 13, q -> ""),
            new Field<>("GrpTRESRunMins", "GrpTRESRunMin", 13, q -> ""),
            new Field<>("GrpJobs", "GrpJobs", 7, q -> q.hasGrpJobs() ? Integer.toUnsignedString(q.getGrpJobs()) : ""),
            new Field<>(
                    "GrpSubmitJobs",
                    "GrpSubmit",
                    9,
                    q -> q.hasGrpSubmitJobs() ? Integer.toUnsignedString(q.getGrpSubmitJobs()) : ""),
            new Field<>("GrpWall", "GrpWall", 11, q -> ""),
            new Field<>("MaxTRES", "MaxTRES", 13, QosEntry::getMaxTresPerJob),
            new Field<>("MaxTRESPerNode", "MaxTRESPerNode", 14, q -> ""),
            new Field<>("MaxTRESMins", "MaxTRESMins", 13, q -> ""),
            new Field<>(
                    "MaxWall",
                    "MaxWall",
                    11,
                    q -> q.hasMaxWallMinutes() ? AssocFields.wall(q.getMaxWallMinutes()) : ""),
            new Field<>("MaxTRESPerUser", "MaxTRESPU", 13, q -> ""),
            new Field<>(
                    "MaxJobsPerUser",
                    "MaxJobsPU",
                    9,
                    q -> q.hasMaxJobsPerUser() ? Integer.toUnsignedString(q.getMaxJobsPerUser()) : ""),
            new Field<>(
                    "MaxSubmitJobsPerUser",
                    "MaxSubmitPU",
                    11,
                    q -> q.hasMaxSubmitJobsPerUser() ? Integer.toUnsignedString(q.getMaxSubmitJobsPerUser()) : ""),
            new Field<>("MaxTRESPerAccount", "MaxTRESPA", 13, q -> ""),
            new Field<>("MaxTRESRunMinsPerAccount", "MaxTRESRunMinsPA", 22, q -> ""),
            new Field<>("MaxTRESRunMinsPerUser", "MaxTRESRunMinsPU", 22, q -> ""),
            new Field<>("MaxJobsPerAccount", "MaxJobsPA", 9, q -> ""),
            new Field<>("MaxSubmitJobsPerAccount", "MaxSubmitPA", 11, q -> ""),
            new Field<>("MinTRES", "MinTRES", 13, q -> ""),
            // Not in the default list; format= may name it.
            new Field<>("MaxTRESPerJob", "MaxTRES", 13, QosEntry::getMaxTresPerJob),
            new Field<>("Description", "Descr", 11, QosEntry::getDescription));

    /** The columns shown without format=: all but the two format-only ones at the end. */
    static final List<Field<QosEntry>> DEFAULT = QOS.subList(0, QOS.size() - 2);

    private static String seconds(int s) {
        long v = Integer.toUnsignedLong(s);
        String hms = String.format("%02d:%02d:%02d", (v / 3600) % 24, (v / 60) % 60, v % 60);
        return v >= 86400 ? v / 86400 + "-" + hms : hms;
    }
}
