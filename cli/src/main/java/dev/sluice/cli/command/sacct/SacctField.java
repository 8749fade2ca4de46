package dev.sluice.cli.command.sacct;

import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.view.JobStates;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import dev.sluice.protocol.v1.JobState;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The fields sacct can print, with the widths Slurm 22.05 gives them (negative: left-justified).
 * Widths and the values steps leave blank were read off real sacct output. Names match
 * case-insensitively, and a prefix picks the first field in alphabetical order ({@code alloc}
 * is AllocCPUS), as sacct does.
 */
enum SacctField {
    ACCOUNT("Account", 10),
    ALLOC_CPUS("AllocCPUS", 10),
    ALLOC_NODES("AllocNodes", 10),
    ALLOC_TRES("AllocTRES", 10),
    CLUSTER("Cluster", 10),
    ELAPSED("Elapsed", 10),
    ELAPSED_RAW("ElapsedRaw", 10),
    ELIGIBLE("Eligible", 19),
    END("End", 19),
    EXIT_CODE("ExitCode", 8),
    GID("GID", 6),
    GROUP("Group", 9),
    JOB_ID("JobID", -12),
    JOB_ID_RAW("JobIDRaw", -12),
    JOB_NAME("JobName", 10),
    NCPUS("NCPUS", 10),
    NNODES("NNodes", 8),
    NODE_LIST("NodeList", 15),
    PARTITION("Partition", 10),
    QOS("QOS", 10),
    REQ_TRES("ReqTRES", 10),
    START("Start", 19),
    STATE("State", 10),
    SUBMIT("Submit", 19),
    TIMELIMIT("Timelimit", 10),
    UID("UID", 6),
    USER("User", 9),
    WORK_DIR("WorkDir", 20);

    /** sacct's default columns. */
    static final List<SacctField> DEFAULTS =
            List.of(JOB_ID, JOB_NAME, PARTITION, ACCOUNT, ALLOC_CPUS, STATE, EXIT_CODE);

    final String title;
    final int width;

    SacctField(String title, int width) {
        this.title = title;
        this.width = width;
    }

    static Optional<SacctField> byName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.isEmpty()) {
            return Optional.empty();
        }
        return Arrays.stream(values())
                .sorted(Comparator.comparing(f -> f.title.toLowerCase(Locale.ROOT)))
                .filter(f -> f.title.toLowerCase(Locale.ROOT).startsWith(n))
                .findFirst();
    }

    /** What sacct's {@code -e} lists. */
    static List<String> titles() {
        return Arrays.stream(values()).map(f -> f.title).toList();
    }

    /** The value of this field on a row; {@code now} ends the elapsed time of running work. */
    String value(SacctRow row, ZoneId zone, long now, UserDirectory users) {
        AccountedJob j = row.job();
        AccountedStep s = row.step();
        boolean step = row.isStep();
        return switch (this) {
            case ACCOUNT -> j.getAccount();
            case ALLOC_CPUS, NCPUS -> Integer.toString(step ? s.getNumCpus() : j.getNumCpus());
            case ALLOC_NODES ->
                Integer.toString(step ? s.getNumNodes() : (j.getAllocTres().isEmpty() ? 0 : j.getNumNodes()));
            case ALLOC_TRES -> step ? s.getAllocTres() : j.getAllocTres();
            case CLUSTER -> j.getCluster();
            case ELAPSED -> SacctTimes.duration(elapsed(row, now));
            case ELAPSED_RAW -> Long.toString(elapsed(row, now));
            case ELIGIBLE -> time(j.getEligibleTime(), zone);
            case END -> time(step ? s.getEndTime() : j.getEndTime(), zone);
            case EXIT_CODE -> exitCode(step ? s.getExitStatus() : j.getExitStatus());
            case GID -> step ? "" : Integer.toUnsignedString(j.getGid());
            case GROUP -> step ? "" : group(j, users);
            case JOB_ID -> row.jobId();
            case JOB_ID_RAW -> row.rawJobId();
            case JOB_NAME -> step ? s.getName() : j.getName();
            case NNODES -> Integer.toString(step ? s.getNumNodes() : j.getNumNodes());
            case NODE_LIST -> nodeList(row);
            case PARTITION -> step ? "" : j.getPartition();
            case QOS -> step ? "" : j.getQos();
            case REQ_TRES -> step ? "" : j.getReqTres();
            case START -> time(step ? s.getStartTime() : j.getStartTime(), zone);
            case STATE -> JobStates.longName(step ? s.getState() : j.getState());
            case SUBMIT -> time(j.getSubmitTime(), zone);
            case TIMELIMIT -> step ? "" : SacctTimes.limit(j.getTimeLimitMinutes());
            case UID -> step ? "" : Integer.toUnsignedString(j.getUid());
            case USER -> step ? "" : j.getUserName();
            case WORK_DIR -> step ? "" : j.getWorkDir();
        };
    }

    private static long elapsed(SacctRow row, long now) {
        long start = row.isStep() ? row.step().getStartTime() : row.job().getStartTime();
        long end = row.isStep() ? row.step().getEndTime() : row.job().getEndTime();
        if (start <= 0) {
            return 0;
        }
        return Math.max(0, (end > 0 ? end : now) - start);
    }

    private static String nodeList(SacctRow row) {
        String nodes = row.isStep() ? row.step().getNodeList() : row.job().getNodeList();
        return nodes.isEmpty() ? "None assigned" : nodes;
    }

    static String group(AccountedJob j, UserDirectory users) {
        if (!j.getGroupName().isEmpty()) {
            return j.getGroupName();
        }
        long gid = Integer.toUnsignedLong(j.getGid());
        return users.groupName(gid).orElse(Long.toString(gid));
    }

    private static String time(long epochSeconds, ZoneId zone) {
        return SlurmTimestamp.format(epochSeconds <= 0 ? null : Instant.ofEpochSecond(epochSeconds), zone);
    }

    /** {@code exit:signal} from a wait(2) status. */
    static String exitCode(int status) {
        return ((status >> 8) & 0xff) + ":" + (status & 0x7f);
    }

    static boolean isFinal(JobState s) {
        return s != JobState.PENDING && s != JobState.RUNNING && s != JobState.SUSPENDED;
    }
}
