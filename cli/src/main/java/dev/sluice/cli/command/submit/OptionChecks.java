package dev.sluice.cli.command.submit;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.caller.CallerFileException;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.command.scancel.Signals;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.time.BeginTime;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.common.units.MemorySize;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Slurm 22.05's checks of sbatch, srun and salloc option values that Sluice has no JobSpec field for,
 * with its messages and exit statuses (read off real srun on the same values), and the warnings
 * it prints where this cluster's configuration makes an option moot. An option that passes is
 * kept in the {@link SubmitOptions} (listed by {@code -v}) and otherwise changes nothing.
 */
public final class OptionChecks {
    private OptionChecks() {}

    /** What of the configuration the checks depend on. */
    public record Cluster(String name, boolean cpuBinding, boolean specResources, int killWaitSeconds) {
        /** Slurm's defaults (TaskPlugin=task/none) when the configuration cannot be read: connecting reports that. */
        public static Cluster of(Invocation inv) {
            try {
                SlurmConf conf = inv.setup()
                        .access(ControllerLocator.confPath(inv.env(), inv.cwd()))
                        .conf();
                // task/affinity and task/cgroup bind tasks to CPUs; task/none (the default) does not.
                boolean binding =
                        conf.taskPlugin().stream().anyMatch(p -> p.contains("affinity") || p.contains("cgroup"));
                String spec = conf.value("AllowSpecResourcesUsage").orElse("no");
                return new Cluster(
                        conf.clusterName(),
                        binding,
                        spec.equalsIgnoreCase("yes") || spec.equals("1"),
                        conf.killWaitSeconds());
            } catch (ConfigException | IllegalArgumentException e) {
                return new Cluster("", false, false, 30);
            }
        }
    }

    /** Counts Slurm reads with its parse_int: {@code true} when zero is allowed. */
    private static final Map<String, Boolean> COUNTS = Map.ofEntries(
            Map.entry("mincpus", false),
            Map.entry("sockets-per-node", false),
            Map.entry("cores-per-socket", false),
            Map.entry("threads-per-core", false),
            Map.entry("ntasks-per-core", false),
            Map.entry("ntasks-per-socket", false),
            Map.entry("ntasks-per-gpu", false),
            Map.entry("ntasks-per-tres", false),
            Map.entry("threads", false),
            Map.entry("wait", true),
            Map.entry("relative", true),
            Map.entry("kill-on-bad-exit", true),
            Map.entry("wait-all-nodes", true));

    private static final List<String> COUNT_ORDER =
            COUNTS.keySet().stream().sorted().toList();

    private static final Set<String> RLIMITS =
            Set.of("ALL", "NONE", "AS", "CORE", "CPU", "DATA", "FSIZE", "MEMLOCK", "NOFILE", "NPROC", "RSS", "STACK");
    private static final Set<String> PROFILES = Set.of("all", "none", "energy", "lustre", "network", "task");
    private static final Pattern ACCTG_FREQ = Pattern.compile("[0-9]+|(task|energy|network|filesystem)=[0-9]+");
    private static final Pattern HET_GROUP = Pattern.compile("[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*");

    /**
     * Refuses what Slurm refuses before it asks the controller; prints ({@code warn}, lines
     * without the command's prefix) what it prints and goes on after.
     */
    public static void check(SubmitOptions o, Cluster cluster, Invocation inv, Consumer<String> warn)
            throws SubmitException {
        check(o, cluster, inv, warn, false);
    }

    /**
     * sbatch's checks: the same, less srun's and salloc's cpu binding warning for {@code
     * --threads-per-core} (real sbatch only hands the binding on to the job, silently); its
     * {@code -W} is a flag, not srun's count of seconds.
     */
    public static void checkBatch(SubmitOptions o, Cluster cluster, Invocation inv, Consumer<String> warn)
            throws SubmitException {
        check(o, cluster, inv, warn, true);
    }

    private static void check(SubmitOptions o, Cluster cluster, Invocation inv, Consumer<String> warn, boolean batch)
            throws SubmitException {
        ValueChecks.check(o, inv);
        for (String name : COUNT_ORDER) {
            if (!o.has(name)) {
                continue;
            }
            // -K alone and sbatch's -W are flags.
            boolean flag = (name.equals("kill-on-bad-exit") && o.get(name).isEmpty()) || (batch && name.equals("wait"));
            if (!flag) {
                count(o.get(name), "--" + name, COUNTS.get(name));
            }
        }
        if (o.has("extra-node-info")) {
            extraNodeInfo(o.get("extra-node-info"));
        }
        if (o.has("switches")) {
            String v = o.get("switches");
            count(v.contains("@") ? v.substring(0, v.indexOf('@')) : v, "--switches", true);
        }
        specification(
                o, "wait-all-nodes", v -> v.strip().equals("0") || v.strip().equals("1"));
        specification(o, "kill-command", v -> v.isEmpty() || Signals.parse(v).isPresent());
        specification(o, "accel-bind", BindingOptions::validAccelBind);
        specification(o, "send-libs", v -> Set.of("", "y", "yes", "n", "no").contains(v.toLowerCase(Locale.ROOT)));
        specification(o, "delay-boot", OptionChecks::parsesAsTime);
        specification(o, "time-min", OptionChecks::parsesAsTime);
        specification(o, "tmp", OptionChecks::parsesAsMemory);
        specification(o, "distribution", BindingOptions::validDistribution);
        if (o.has("acctg-freq") && !allMatch(o.get("acctg-freq"), ACCTG_FREQ)) {
            throw new SubmitException(255, "error: Invalid --acctg-freq specification: " + o.get("acctg-freq"));
        }
        if (o.has("deadline")) {
            ZonedDateTime now =
                    ZonedDateTime.ofInstant(inv.clock().instant(), inv.clock().getZone());
            java.time.Instant deadline;
            try {
                deadline = BeginTime.parse(o.get("deadline"), now);
            } catch (IllegalArgumentException e) {
                throw new SubmitException(255, "error: Invalid --deadline specification");
            }
            // Real sbatch 22.05 refuses a deadline before the job may begin itself, exit 1
            // (compat 303); a --begin that does not parse is reported later, as before.
            java.time.Instant begin = null;
            if (o.has("begin")) {
                try {
                    begin = BeginTime.parse(o.get("begin"), now);
                } catch (IllegalArgumentException e) {
                    begin = null;
                }
            }
            if (begin != null && begin.isAfter(deadline)) {
                throw new SubmitException(1, "error: Incompatible begin and deadline time specification");
            }
        }
        if (o.has("cpu-freq")) {
            String bad = BindingOptions.badCpuFreq(o.get("cpu-freq"));
            if (bad != null) {
                throw new SubmitException(255, bad, "error: Invalid --cpu-freq argument");
            }
        }
        if (o.has("gpu-bind") && !BindingOptions.validGpuBind(o.get("gpu-bind"))) {
            throw new SubmitException(255, "error: Invalid --gpu-bind argument: gpu:" + o.get("gpu-bind"));
        }
        if (o.has("profile") && !allIn(o.get("profile"), PROFILES)) {
            throw new SubmitException(255, "error: invalid --profile=" + o.get("profile") + " option");
        }
        if (o.has("mem-bind")) {
            String v = o.get("mem-bind");
            if (v.equalsIgnoreCase("help")) {
                throw SubmitException.printing(255, BindingOptions.MEM_BIND_HELP);
            }
            String bad = BindingOptions.badMemBind(v);
            if (bad != null) {
                throw new SubmitException(255, "error: unrecognized --mem-bind argument \"" + bad + "\"");
            }
        }
        if (o.has("hint")) {
            String v = o.get("hint");
            if (v.equalsIgnoreCase("help")) {
                throw SubmitException.printing(1, BindingOptions.HINT_HELP);
            }
            String bad = BindingOptions.badHint(v);
            if (bad != null) {
                throw new SubmitException(1, "error: unrecognized --hint argument \"" + bad + "\", see --hint=help");
            }
        }
        if (o.has("propagate")) {
            propagate(o.get("propagate"));
        }
        if (o.has("het-group") && !HET_GROUP.matcher(o.get("het-group")).matches()) {
            throw new SubmitException(
                    1,
                    "error: _parse_single_range: Invalid range: `" + o.get("het-group") + "'",
                    "error: Invalid --het-group value: " + o.get("het-group"));
        }
        if (o.has("power")) {
            powerWarning(o.get("power")).ifPresent(warn);
        }
        if (o.has("compress")
                && !Set.of("", "lz4", "zlib", "none").contains(o.get("compress").toLowerCase(Locale.ROOT))) {
            warn.accept("error: Compression type '" + o.get("compress") + "' unknown, disabling compression support.");
        }
        if (o.has("core-spec") && !cluster.specResources()) {
            warn.accept("error: Ignoring -S since it's not allowed by configuration (AllowSpecResourcesUsage = No)");
        }
        if (o.has("thread-spec") && !cluster.specResources()) {
            warn.accept(
                    "error: Ignoring --thread-spec since it's not allowed by configuration (AllowSpecResourcesUsage = No)");
        }
        if (o.has("threads-per-core") && o.has("verbose")) {
            // Slurm's -v line (real sbatch and srun 22.05, after the -S line, before srun's warning).
            warn.accept("Setting --cpu-bind=threads as a default of --threads-per-core use");
        }
        if (!batch) {
            cpuBinding(o, cluster, warn);
        }
        crossChecks(o, inv, batch);
        if (o.has("clusters")) {
            clusters(o.get("clusters"), cluster);
        }
    }

    /** Slurm's line for a {@code --power} value it does not know, which it then ignores. */
    public static Optional<String> powerWarning(String value) {
        return value.equalsIgnoreCase("level")
                ? Optional.empty()
                : Optional.of("error: Ignoring unrecognized power option (" + value + ")");
    }

    private static void cpuBinding(SubmitOptions o, Cluster cluster, Consumer<String> warn) throws SubmitException {
        // --threads-per-core asks for --cpu-bind=threads, so it draws the same warning.
        if ((o.has("cpu-bind") || o.has("threads-per-core")) && !cluster.cpuBinding()) {
            if (o.has("cpu-bind") && BindingOptions.cpuBindIsHelp(o.get("cpu-bind"))) {
                throw SubmitException.printing(1, "CPU bind options not supported with current configuration\n");
            }
            warn.accept("cluster configuration lacks support for cpu binding");
        }
        if (o.has("cpu-bind")) {
            String bad = BindingOptions.badCpuBind(o.get("cpu-bind"));
            if (bad != null) {
                throw new SubmitException(
                        1,
                        "error: unrecognized --cpu-bind argument \"" + bad + "\"",
                        "fatal: Failed to parse --cpu-bind= values.");
            }
        }
    }

    private static void crossChecks(SubmitOptions o, Invocation inv, boolean batch) throws SubmitException {
        if (o.has("verbose") && o.has("quiet")) {
            throw new SubmitException(1, "error: don't specify both --verbose (-v) and --quiet (-Q)");
        }
        if (o.has("exact") && o.has("whole")) {
            throw new SubmitException(1, "error: --exact and --whole are mutually exclusive.");
        }
        if (o.has("relative") && (o.has("nodelist") || o.has("exclude"))) {
            throw new SubmitException(1, "error: -r,--relative not allowed with -w,--nodelist or -x,--exclude.");
        }
        if (o.has("exclusive") && o.has("overlap")) {
            throw new SubmitException(1, "error: --exclusive and --overlap are mutually exclusive");
        }
        if (o.has("pty") && (o.has("output") || o.has("error") || o.has("input"))) {
            throw new SubmitException(1, "error: --error/--input/--output are incompatible with --pty");
        }
        if (o.has("no-allocate") && !o.has("nodelist")) {
            throw new SubmitException(1, "error: must specify a node list with -Z, --no-allocate.");
        }
        if (o.has("gpus-per-task") && o.has("ntasks-per-gpu")) {
            throw new SubmitException(
                    1, "fatal: --gpus-per-task is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU");
        }
        if (o.has("gpus-per-socket") && !o.has("sockets-per-node")) {
            throw new SubmitException(
                    1,
                    "error: --gpus-per-socket option requires --sockets-per-node specification",
                    "error: Invalid generic resource (gres) specification");
        }
        if (batch
                && (o.has("ntasks-per-gpu") || o.has("ntasks-per-tres"))
                && !o.has("nodes")
                && !o.has("ntasks")
                && !asksForGpus(o)) {
            throw new SubmitException(
                    1,
                    "error: gres_job_state_validate: --ntasks-per-tres needs either a GRES GPU specification or a"
                            + " node/ntask specification",
                    "error: Invalid generic resource (gres) specification");
        }
        if (o.has("cpus-per-gpu") && o.has("cpus-per-task")) {
            throw new SubmitException(
                    1,
                    "error: --cpus-per-gpu is mutually exclusive with --cpus-per-task",
                    "error: Invalid generic resource (gres) specification");
        }
        if (o.has("x11") && !inv.env().containsKey("DISPLAY")) {
            throw new SubmitException(255, "error: No DISPLAY variable set, cannot setup x11 forwarding.");
        }
        if (o.has("bb") && o.has("bbf")) {
            throw new SubmitException(1, "error: Cannot specify both --burst-buffer and --bbf");
        }
        if (o.has("bbf")) {
            try {
                inv.callerSide().checkReadable(o.get("bbf"));
            } catch (CallerFileException e) {
                throw new SubmitException(1, "error: Invalid --bbf specification");
            }
        }
    }

    private static boolean asksForGpus(SubmitOptions o) {
        return o.has("gpus")
                || o.has("gpus-per-node")
                || o.has("gpus-per-task")
                || o.has("gpus-per-socket")
                || (o.has("gres") && o.get("gres").contains("gpu"));
    }

    /** {@code -M}: this cluster is the only one there is (no federation, no other clusters in the database). */
    public static void clusters(String value, Cluster cluster) throws SubmitException {
        for (String name : value.split(",", -1)) {
            if (!name.equals(cluster.name()) && !name.equalsIgnoreCase("all")) {
                throw new SubmitException(
                        1,
                        "error: No cluster '" + name + "' known by database.",
                        "error: '" + name + "' can't be reached now, or it is an invalid entry for --cluster.  "
                                + "Use 'sacctmgr list clusters' to see available clusters.");
            }
        }
    }

    private static void count(String value, String option, boolean zeroOk) throws SubmitException {
        String t = value.strip();
        boolean ok = !t.isEmpty() && t.length() <= 9 && t.chars().allMatch(Character::isDigit);
        if (!ok || (!zeroOk && Integer.parseInt(t) == 0)) {
            throw new SubmitException(1, "error: Invalid numeric value \"" + value + "\" for " + option + ".");
        }
    }

    /** {@code -B sockets[:cores[:threads]]}, each a count, a min-max range or {@code *}. */
    private static void extraNodeInfo(String value) throws SubmitException {
        String[] parts = value.split(":", -1);
        String[] nth = {"first", "second", "third"};
        for (int i = 0; i < parts.length && i < 3; i++) {
            if (!parts[i].matches("\\*|[0-9]{1,9}(-[0-9]{1,9})?")) {
                throw new SubmitException(
                        1, "error: Invalid numeric value \"" + parts[i] + "\" for " + nth[i] + " arg of -B.");
            }
        }
    }

    private static void propagate(String value) throws SubmitException {
        if (value.isEmpty()) {
            return;
        }
        for (String name : value.split(",", -1)) {
            String n = name.startsWith("RLIMIT_") ? name.substring("RLIMIT_".length()) : name;
            if (!RLIMITS.contains(n)) {
                throw new SubmitException(
                        1, "error: Bad rlimit name: " + name, "error: --propagate=" + value + " is not valid.");
            }
        }
    }

    private interface Valid {
        boolean test(String value);
    }

    private static void specification(SubmitOptions o, String name, Valid valid) throws SubmitException {
        if (o.has(name) && !valid.test(o.get(name))) {
            throw new SubmitException(255, "error: Invalid --" + name + " specification");
        }
    }

    private static boolean parsesAsTime(String v) {
        try {
            TimeLimit.parseMinutes(v);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean parsesAsMemory(String v) {
        try {
            MemorySize.parseMegabytes(v);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean allMatch(String list, Pattern p) {
        for (String item : list.split(",", -1)) {
            if (!p.matcher(item).matches()) {
                return false;
            }
        }
        return true;
    }

    private static boolean allIn(String list, Set<String> words) {
        for (String item : list.split(",", -1)) {
            if (!words.contains(item.toLowerCase(Locale.ROOT))) {
                return false;
            }
        }
        return true;
    }
}
