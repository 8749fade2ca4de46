package dev.sluice.cli.command.sacct;

import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import dev.sluice.protocol.v1.JobState;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Every field of Slurm 22.05's sacct, in its {@code --helpformat} order, with the width it
 * prints at (negative: left-justified) and its value on a job's line and on a step's. Widths,
 * justification and the values of records without data (no CPU or I/O usage is gathered, no
 * WCKeys or MCS labels) were read off real sacct; fields Slurm leaves blank on
 * step lines are blank here too. A name matches case-insensitively, and a prefix picks the
 * first field in this order ({@code alloc} is AllocCPUS), as sacct does.
 */
enum SacctField {
    ACCOUNT("Account", 10, both((j, c) -> j.getAccount())),
    ADMIN_COMMENT("AdminComment", 15, job((j, c) -> j.getAdminComment())),
    ALLOC_CPUS("AllocCPUS", 10, (r, c) -> Integer.toString(SacctValues.cpus(r))),
    ALLOC_NODES(
            "AllocNodes", 10, (r, c) -> Integer.toString(r.isStep() ? r.step().getNumNodes() : allocNodes(r.job()))),
    ALLOC_TRES(
            "AllocTRES",
            10,
            (r, c) -> SacctValues.tres(
                    r.isStep() ? r.step().getAllocTres() : r.job().getAllocTres(), c)),
    ASSOC_ID("AssocID", 7, both((j, c) -> Long.toUnsignedString(j.getAssocId()))),
    AVE_CPU("AveCPU", 10, blank()),
    AVE_CPU_FREQ("AveCPUFreq", 10, steps(s -> "0")),
    AVE_DISK_READ("AveDiskRead", 14, blank()),
    AVE_DISK_WRITE("AveDiskWrite", 14, blank()),
    AVE_PAGES("AvePages", 10, blank()),
    AVE_RSS("AveRSS", 10, blank()),
    AVE_VM_SIZE("AveVMSize", 10, blank()),
    BLOCK_ID("BlockID", 16, blank()),
    CLUSTER("Cluster", 10, both((j, c) -> j.getCluster())),
    COMMENT("Comment", 14, job((j, c) -> j.getComment())),
    CONSTRAINTS("Constraints", 19, job((j, c) -> j.getConstraints())),
    CONSUMED_ENERGY("ConsumedEnergy", 14, fixed("0")),
    CONSUMED_ENERGY_RAW("ConsumedEnergyRaw", 17, fixed("0")),
    CONTAINER("Container", 19, blank()),
    CPU_TIME("CPUTime", 10, (r, c) -> SacctTimes.duration(SacctValues.cpuSeconds(r, c.now()))),
    CPU_TIME_RAW("CPUTimeRAW", 10, (r, c) -> Long.toString(SacctValues.cpuSeconds(r, c.now()))),
    DB_INDEX("DBIndex", -10, both((j, c) -> Long.toUnsignedString(j.getDbIndex()))),
    DERIVED_EXIT_CODE("DerivedExitCode", 15, job((j, c) -> SacctValues.exitCode(j.getDerivedExitStatus()))),
    ELAPSED("Elapsed", 10, (r, c) -> SacctTimes.duration(SacctValues.elapsed(r, c.now()))),
    ELAPSED_RAW("ElapsedRaw", 10, (r, c) -> Long.toString(SacctValues.elapsed(r, c.now()))),
    // A step becomes eligible, and is submitted, when it starts.
    ELIGIBLE(
            "Eligible",
            19,
            (r, c) -> SacctValues.time(
                    r.isStep() ? r.step().getStartTime() : r.job().getEligibleTime(), c.zone())),
    END(
            "End",
            19,
            (r, c) -> SacctValues.time(
                    r.isStep() ? r.step().getEndTime() : r.job().getEndTime(), c.zone())),
    EXIT_CODE(
            "ExitCode",
            8,
            (r, c) -> SacctValues.exitCode(
                    r.isStep() ? r.step().getExitStatus() : r.job().getExitStatus())),
    FLAGS("Flags", 19, job((j, c) -> SacctValues.flags(j))),
    GID("GID", 6, job((j, c) -> Integer.toUnsignedString(j.getGid()))),
    GROUP("Group", 9, job((j, c) -> SacctValues.group(j, c.users()))),
    JOB_ID("JobID", -12, (r, c) -> r.jobId()),
    JOB_ID_RAW("JobIDRaw", -12, (r, c) -> r.rawJobId()),
    JOB_NAME("JobName", 10, (r, c) -> r.isStep() ? r.step().getName() : r.job().getName()),
    LAYOUT("Layout", 9, steps(SacctValues::layout)),
    MAX_DISK_READ("MaxDiskRead", 12, blank()),
    MAX_DISK_READ_NODE("MaxDiskReadNode", 15, blank()),
    MAX_DISK_READ_TASK("MaxDiskReadTask", 15, blank()),
    MAX_DISK_WRITE("MaxDiskWrite", 12, blank()),
    MAX_DISK_WRITE_NODE("MaxDiskWriteNode", 16, blank()),
    MAX_DISK_WRITE_TASK("MaxDiskWriteTask", 16, blank()),
    MAX_PAGES("MaxPages", 8, blank()),
    MAX_PAGES_NODE("MaxPagesNode", 12, blank()),
    MAX_PAGES_TASK("MaxPagesTask", 14, blank()),
    MAX_RSS("MaxRSS", 10, blank()),
    MAX_RSS_NODE("MaxRSSNode", 10, blank()),
    MAX_RSS_TASK("MaxRSSTask", 10, blank()),
    MAX_VM_SIZE("MaxVMSize", 10, blank()),
    MAX_VM_SIZE_NODE("MaxVMSizeNode", 14, blank()),
    MAX_VM_SIZE_TASK("MaxVMSizeTask", 14, blank()),
    MCS_LABEL("McsLabel", 12, blank()),
    MIN_CPU("MinCPU", 10, blank()),
    MIN_CPU_NODE("MinCPUNode", 10, blank()),
    MIN_CPU_TASK("MinCPUTask", 10, blank()),
    NCPUS("NCPUS", 10, (r, c) -> Integer.toString(SacctValues.cpus(r))),
    NNODES(
            "NNodes",
            8,
            (r, c) -> Integer.toString(
                    r.isStep() ? r.step().getNumNodes() : r.job().getNumNodes())),
    NODE_LIST("NodeList", 15, (r, c) -> SacctValues.nodeList(r)),
    NTASKS("NTasks", 8, steps(s -> Integer.toString(s.getNumTasks()))),
    PARTITION("Partition", 10, job((j, c) -> j.getPartition())),
    PRIORITY("Priority", 10, job((j, c) -> Integer.toUnsignedString(j.getPriority()))),
    // A job whose --qos named none that exists ran with none: sacct names it Unknown.
    QOS("QOS", 10, job((j, c) -> j.getQos().isEmpty() ? "Unknown" : j.getQos())),
    QOS_RAW("QOSRAW", 6, job((j, c) -> j.getQosId() == 0 ? "" : Integer.toUnsignedString(j.getQosId()))),
    REASON("Reason", 22, job((j, c) -> j.getReason().isEmpty() ? "None" : j.getReason())),
    REQ_CPU_FREQ("ReqCPUFreq", 10, (r, c) -> SacctValues.cpuFrequency(r)),
    REQ_CPU_FREQ_GOV("ReqCPUFreqGov", 13, (r, c) -> SacctValues.cpuFrequency(r)),
    REQ_CPU_FREQ_MAX("ReqCPUFreqMax", 13, (r, c) -> SacctValues.cpuFrequency(r)),
    REQ_CPU_FREQ_MIN("ReqCPUFreqMin", 13, (r, c) -> SacctValues.cpuFrequency(r)),
    // A step asks for what it got.
    REQ_CPUS(
            "ReqCPUS",
            8,
            (r, c) -> Integer.toString(
                    r.isStep() ? r.step().getNumCpus() : r.job().getReqCpus())),
    REQ_MEM("ReqMem", 10, job(SacctValues::reqMem)),
    REQ_NODES(
            "ReqNodes",
            8,
            (r, c) -> Integer.toString(
                    r.isStep() ? r.step().getNumNodes() : r.job().getReqNodes())),
    REQ_TRES("ReqTRES", 10, job((j, c) -> SacctValues.tres(j.getReqTres(), c))),
    RESERVATION("Reservation", 20, job((j, c) -> j.getReservation())),
    RESERVATION_ID(
            "ReservationId",
            8,
            job((j, c) -> j.getReservationId() == 0 ? "" : Integer.toUnsignedString(j.getReservationId()))),
    RESERVED("Reserved", 10, job((j, c) -> SacctValues.reserved(j))),
    RESV_CPU("ResvCPU", 10, job((j, c) -> SacctValues.reservedCpu(j))),
    RESV_CPU_RAW("ResvCPURAW", 10, job((j, c) -> SacctValues.reservedCpuRaw(j))),
    START("Start", 19, (r, c) -> start(r, c)),
    STATE("State", 10, (r, c) -> SacctValues.state(r)),
    SUBMIT(
            "Submit",
            19,
            (r, c) -> SacctValues.time(
                    r.isStep() ? r.step().getStartTime() : r.job().getSubmitTime(), c.zone())),
    SUBMIT_LINE("SubmitLine", 20, blank()),
    SUSPENDED(
            "Suspended",
            10,
            (r, c) -> r.isStep() ? "00:00:00" : SacctTimes.duration(r.job().getSuspendedSeconds())),
    SYSTEM_COMMENT("SystemComment", 15, job((j, c) -> j.getSystemComment())),
    SYSTEM_CPU("SystemCPU", 10, fixed("00:00:00")),
    TIMELIMIT("Timelimit", 10, job((j, c) -> SacctTimes.limit(j.getTimeLimitMinutes()))),
    TIMELIMIT_RAW("TimelimitRaw", 10, job((j, c) -> SacctValues.limitMinutes(j.getTimeLimitMinutes()))),
    TOTAL_CPU("TotalCPU", 10, fixed("00:00:00")),
    TRES_USAGE_IN_AVE("TRESUsageInAve", 14, steps(s -> "energy=0")),
    TRES_USAGE_IN_MAX("TRESUsageInMax", 14, blank()),
    TRES_USAGE_IN_MAX_NODE("TRESUsageInMaxNode", 18, blank()),
    TRES_USAGE_IN_MAX_TASK("TRESUsageInMaxTask", 18, blank()),
    TRES_USAGE_IN_MIN("TRESUsageInMin", 14, blank()),
    TRES_USAGE_IN_MIN_NODE("TRESUsageInMinNode", 18, blank()),
    TRES_USAGE_IN_MIN_TASK("TRESUsageInMinTask", 18, blank()),
    TRES_USAGE_IN_TOT("TRESUsageInTot", 14, steps(s -> "energy=0")),
    TRES_USAGE_OUT_AVE("TRESUsageOutAve", 15, steps(s -> "energy=0")),
    TRES_USAGE_OUT_MAX("TRESUsageOutMax", 15, blank()),
    TRES_USAGE_OUT_MAX_NODE("TRESUsageOutMaxNode", 19, blank()),
    TRES_USAGE_OUT_MAX_TASK("TRESUsageOutMaxTask", 19, blank()),
    TRES_USAGE_OUT_MIN("TRESUsageOutMin", 15, blank()),
    TRES_USAGE_OUT_MIN_NODE("TRESUsageOutMinNode", 19, blank()),
    TRES_USAGE_OUT_MIN_TASK("TRESUsageOutMinTask", 19, blank()),
    TRES_USAGE_OUT_TOT("TRESUsageOutTot", 15, steps(s -> "energy=0")),
    UID("UID", 6, job((j, c) -> Integer.toUnsignedString(j.getUid()))),
    USER("User", 9, job((j, c) -> j.getUserName())),
    USER_CPU("UserCPU", 10, fixed("00:00:00")),
    WCKEY("WCKey", 10, job((j, c) -> j.getWckey())),
    WCKEY_ID("WCKeyID", 10, job((j, c) -> "0")),
    WORK_DIR("WorkDir", 20, job((j, c) -> j.getWorkDir()));

    /** How a field reads a line. */
    @FunctionalInterface
    interface Value {
        String of(SacctRow row, SacctContext context);
    }

    /** sacct's default columns. */
    static final List<SacctField> DEFAULTS =
            List.of(JOB_ID, JOB_NAME, PARTITION, ACCOUNT, ALLOC_CPUS, STATE, EXIT_CODE);

    /** {@code -l}, {@code --long}: Slurm 22.05's long list. */
    static final List<SacctField> LONG = List.of(
            JOB_ID,
            JOB_ID_RAW,
            JOB_NAME,
            PARTITION,
            MAX_VM_SIZE,
            MAX_VM_SIZE_NODE,
            MAX_VM_SIZE_TASK,
            AVE_VM_SIZE,
            MAX_RSS,
            MAX_RSS_NODE,
            MAX_RSS_TASK,
            AVE_RSS,
            MAX_PAGES,
            MAX_PAGES_NODE,
            MAX_PAGES_TASK,
            AVE_PAGES,
            MIN_CPU,
            MIN_CPU_NODE,
            MIN_CPU_TASK,
            AVE_CPU,
            NTASKS,
            ALLOC_CPUS,
            ELAPSED,
            STATE,
            EXIT_CODE,
            AVE_CPU_FREQ,
            REQ_CPU_FREQ_MIN,
            REQ_CPU_FREQ_MAX,
            REQ_CPU_FREQ_GOV,
            REQ_MEM,
            CONSUMED_ENERGY,
            MAX_DISK_READ,
            MAX_DISK_READ_NODE,
            MAX_DISK_READ_TASK,
            AVE_DISK_READ,
            MAX_DISK_WRITE,
            MAX_DISK_WRITE_NODE,
            MAX_DISK_WRITE_TASK,
            AVE_DISK_WRITE,
            REQ_TRES,
            ALLOC_TRES,
            TRES_USAGE_IN_AVE,
            TRES_USAGE_IN_MAX,
            TRES_USAGE_IN_MAX_NODE,
            TRES_USAGE_IN_MAX_TASK,
            TRES_USAGE_IN_MIN,
            TRES_USAGE_IN_MIN_NODE,
            TRES_USAGE_IN_MIN_TASK,
            TRES_USAGE_IN_TOT,
            TRES_USAGE_OUT_MAX,
            TRES_USAGE_OUT_MAX_NODE,
            TRES_USAGE_OUT_MAX_TASK,
            TRES_USAGE_OUT_AVE,
            TRES_USAGE_OUT_TOT);

    /** {@code -b}, {@code --brief}. */
    static final List<SacctField> BRIEF = List.of(JOB_ID, STATE, EXIT_CODE);

    final String title;
    final int width;
    private final Value value;

    SacctField(String title, int width, Value value) {
        this.title = title;
        this.width = width;
        this.value = value;
    }

    static Optional<SacctField> byName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.isEmpty()) {
            return Optional.empty();
        }
        return Arrays.stream(values())
                .filter(f -> f.title.toLowerCase(Locale.ROOT).startsWith(n))
                .findFirst();
    }

    /** What sacct's {@code -e} lists. */
    static List<String> titles() {
        return Arrays.stream(values()).map(f -> f.title).toList();
    }

    String value(SacctRow row, SacctContext context) {
        return value.of(row, context);
    }

    static boolean isFinal(JobState s) {
        return s != JobState.PENDING && s != JobState.RUNNING && s != JobState.SUSPENDED;
    }

    /** A job that never held nodes allocated none, whatever it asked for. */
    private static int allocNodes(AccountedJob j) {
        return j.getAllocTres().isEmpty() ? 0 : j.getNumNodes();
    }

    /** A finished job that never started did so at no time (None); one still waiting, Unknown. */
    private static String start(SacctRow r, SacctContext c) {
        long start = r.isStep() ? r.step().getStartTime() : r.job().getStartTime();
        if (start <= 0 && !r.isStep() && isFinal(r.job().getState())) {
            return "None";
        }
        return SacctValues.time(start, c.zone());
    }

    private static Value blank() {
        return (r, c) -> "";
    }

    private static Value fixed(String text) {
        return (r, c) -> text;
    }

    /** A job's value, on its steps' lines too. */
    private static Value both(BiFunction<AccountedJob, SacctContext, String> f) {
        return (r, c) -> f.apply(r.job(), c);
    }

    /** A job's value, blank on step lines. */
    private static Value job(BiFunction<AccountedJob, SacctContext, String> f) {
        return (r, c) -> r.isStep() ? "" : f.apply(r.job(), c);
    }

    /** A step's value, blank on the job's line. */
    private static Value steps(Function<AccountedStep, String> f) {
        return (r, c) -> r.isStep() ? f.apply(r.step()) : "";
    }
}
