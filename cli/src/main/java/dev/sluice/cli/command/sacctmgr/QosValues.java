package dev.sluice.cli.command.sacctmgr;

import dev.sluice.protocol.v1.QosEntry;

/**
 * What a QOS prints in each column of {@code sacctmgr show qos} (qos_functions.c,
 * sacctmgr_list_qos). Limits Sluice does not keep print blank.
 */
final class QosValues {
    private QosValues() {}

    /** Slurm 22.05's default columns. */
    static final String DEFAULT = "Name,Prio,GraceT,Preempt,PreemptE,PreemptM,Flags%40,UsageThres,UsageFactor,"
            + "GrpTRES,GrpTRESMins,GrpTRESRunMins,GrpJ,GrpS,GrpW,MaxTRES,MaxTRESPerN,MaxTRESMins,MaxW,"
            + "MaxTRESPerUser,MaxJobsPerUser,MaxSubmitJobsPerUser,MaxTRESPerAcct,MaxJobsPerAcct,"
            + "MaxSubmitJobsPerAcct,MinTRES";

    static String of(QosEntry q, PrintField f) {
        return switch (f.kind()) {
            case NAME -> q.getName();
            case DESC -> q.getDescription();
            case PRIO -> Integer.toUnsignedString(q.getPriority());
            case GRACE -> seconds(q.getGraceTimeSeconds());
            case PREE -> String.join(",", q.getPreemptList());
            case PREEM -> q.getPreemptMode();
            case PRXMPT -> q.hasPreemptExemptSeconds() ? seconds(q.getPreemptExemptSeconds()) : null;
            case FLAGS -> String.join(",", q.getFlagsList());
            case UF -> String.format("%.6f", q.getUsageFactor());
            case GRPT -> q.getGrpTres();
            case GRPJ -> q.hasGrpJobs() ? Integer.toUnsignedString(q.getGrpJobs()) : null;
            case GRPS -> q.hasGrpSubmitJobs() ? Integer.toUnsignedString(q.getGrpSubmitJobs()) : null;
            case MAXT -> q.getMaxTresPerJob();
            case MAXTU -> q.getMaxTresPerUser();
            case MAXTA -> q.getMaxTresPerAccount();
            case MAXTN -> q.getMaxTresPerNode();
            case UT -> q.hasUsageThreshold() ? String.format("%.6f", q.getUsageThreshold()) : null;
            case MAXW -> q.hasMaxWallMinutes() ? AssocValues.wall(q.getMaxWallMinutes()) : null;
            // MaxJobs and MaxSubmit of a QOS are its per-user limits, as in Slurm.
            case MAXJ -> q.hasMaxJobsPerUser() ? Integer.toUnsignedString(q.getMaxJobsPerUser()) : null;
            case MAXS -> q.hasMaxSubmitJobsPerUser() ? Integer.toUnsignedString(q.getMaxSubmitJobsPerUser()) : null;
            default -> null;
        };
    }

    /** print_fields_time_from_secs: {@code [D-]HH:MM:SS}. */
    static String seconds(int s) {
        long v = Integer.toUnsignedLong(s);
        String hms = String.format("%02d:%02d:%02d", (v / 3600) % 24, (v / 60) % 60, v % 60);
        return v >= 86400 ? v / 86400 + "-" + hms : hms;
    }
}
