package dev.sluice.cli.command.submit;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The forms Slurm 22.05 accepts for the task-placement options ({@code --cpu-bind},
 * {@code --mem-bind}, {@code --gpu-bind}, {@code --accel-bind}, {@code --hint},
 * {@code -m/--distribution}, {@code --cpu-freq}), so that a value real srun refuses is refused
 * here with its words and one it takes is taken. Sluice places tasks itself; these values are
 * kept, not acted on. Pure.
 */
final class BindingOptions {
    private BindingOptions() {}

    private static final Set<String> CPU_BIND_WORDS = Set.of(
            "q",
            "quiet",
            "v",
            "verbose",
            "no",
            "none",
            "rank",
            "rank_ldom",
            "sockets",
            "cores",
            "threads",
            "ldoms",
            "boards",
            "help");
    private static final Set<String> CPU_BIND_LISTS = Set.of("map_cpu", "mask_cpu", "map_ldom", "mask_ldom");
    private static final Set<String> MEM_BIND_WORDS =
            Set.of("q", "quiet", "v", "verbose", "no", "none", "rank", "local", "sort", "nosort", "prefer", "help");
    private static final Set<String> MEM_BIND_LISTS = Set.of("map_mem", "mask_mem");
    private static final Set<String> HINTS =
            Set.of("compute_bound", "memory_bound", "multithread", "nomultithread", "help");
    private static final Pattern DIST_FIRST = Pattern.compile("\\*|block|cyclic|arbitrary|plane=[0-9]+");
    private static final Pattern DIST_LATER = Pattern.compile("\\*|block|cyclic|fcyclic");
    private static final Pattern CPU_FREQ_VALUE = Pattern.compile("[0-9]+|low|medium|high|highm1");
    private static final Set<String> GOVERNORS =
            Set.of("conservative", "ondemand", "performance", "powersave", "userspace", "schedutil");

    static final String MEM_BIND_HELP = """
            Memory bind options:
                --mem-bind=         Bind memory to locality domains (ldom)
                    nosort          avoid sorting pages at startup
                    sort            sort pages at startup
                    q[uiet]         quietly bind before task runs (default)
                    v[erbose]       verbosely report binding before task runs
                    no[ne]          don't bind tasks to memory (default)
                    rank            bind by task rank
                    local           bind to memory local to processor
                    map_mem:<list>  specify a memory binding for each task
                                    where <list> is <cpuid1>,<cpuid2>,...<cpuidN>
                    mask_mem:<list> specify a memory binding mask for each tasks
                                    where <list> is <mask1>,<mask2>,...<maskN>
                    help            show this help message
            """;

    static final String HINT_HELP = """
            Application hint options:
                --hint=             Bind tasks according to application hints
                    compute_bound   use all cores in each socket
                    memory_bound    use only one core in each socket
                    [no]multithread [don't] use extra threads with in-core multi-threading
                    help            show this help message
            """;

    /** The first word of {@code --cpu-bind} Slurm does not know, or null when all are known. */
    static String badCpuBind(String value) {
        return badBind(value, CPU_BIND_WORDS, CPU_BIND_LISTS);
    }

    static String badMemBind(String value) {
        return badBind(value, MEM_BIND_WORDS, MEM_BIND_LISTS);
    }

    /**
     * Words separated by commas; a {@code map_*:}/{@code mask_*:} word takes the rest of the
     * value as its list (its own commas included), as Slurm reads it.
     */
    private static String badBind(String value, Set<String> words, Set<String> lists) {
        String[] parts = value.split(",", -1);
        for (String part : parts) {
            String w = part.toLowerCase(Locale.ROOT);
            int colon = w.indexOf(':');
            if (colon > 0 && lists.contains(w.substring(0, colon))) {
                return colon + 1 < w.length() ? null : part;
            }
            if (!words.contains(w)) {
                return part;
            }
        }
        return null;
    }

    static boolean cpuBindIsHelp(String value) {
        return value.equalsIgnoreCase("help");
    }

    /** The hint Slurm does not know ({@code --hint} takes one or more, comma-separated), or null. */
    static String badHint(String value) {
        for (String h : value.split(",", -1)) {
            if (!HINTS.contains(h.toLowerCase(Locale.ROOT))) {
                return h;
            }
        }
        return null;
    }

    /** {@code -m dist[:dist[:dist]][,Pack|,NoPack]} or {@code plane=N}. */
    static boolean validDistribution(String value) {
        String v = value;
        int comma = v.indexOf(',');
        if (comma >= 0) {
            String flag = v.substring(comma + 1);
            if (!flag.equalsIgnoreCase("pack") && !flag.equalsIgnoreCase("nopack")) {
                return false;
            }
            v = v.substring(0, comma);
        }
        String[] levels = v.split(":", -1);
        if (levels.length > 3 || !DIST_FIRST.matcher(levels[0]).matches()) {
            return false;
        }
        for (int i = 1; i < levels.length; i++) {
            if (!DIST_LATER.matcher(levels[i]).matches()) {
                return false;
            }
        }
        return true;
    }

    /** {@code g}, {@code m}, {@code n}, {@code v} in any combination. */
    static boolean validAccelBind(String value) {
        return !value.isEmpty() && value.chars().allMatch(c -> "gmnv".indexOf(c) >= 0);
    }

    /**
     * {@code --cpu-freq=p1[-p2[:p3]]}: values are kHz or low/medium/high/highm1, a governor
     * alone is allowed, and a governor after one value needs a maximum. Null when valid, else
     * Slurm's first line (its second is always {@code Invalid --cpu-freq argument}).
     */
    static String badCpuFreq(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        if (GOVERNORS.contains(v)) {
            return null;
        }
        int colon = v.indexOf(':');
        String range = colon < 0 ? v : v.substring(0, colon);
        String gov = colon < 0 ? null : v.substring(colon + 1);
        String[] bounds = range.split("-", -1);
        if (gov != null && bounds.length < 2) {
            return "error: gov on cpu-frec (" + value.substring(colon + 1) + ") illegal without max";
        }
        for (String b : bounds) {
            if (!CPU_FREQ_VALUE.matcher(b).matches() || bounds.length > 2) {
                return "error: unrecognized --cpu-freq argument \"" + value + "\"";
            }
        }
        if (gov != null && !GOVERNORS.contains(gov)) {
            return "error: unrecognized --cpu-freq argument \"" + value + "\"";
        }
        return null;
    }

    /** {@code --gpu-bind}: closest, none, map_gpu:L, mask_gpu:L, single:N, per_task:N, verbose. */
    static boolean validGpuBind(String value) {
        for (String part : value.split(",", -1)) {
            String p = part.toLowerCase(Locale.ROOT);
            if (p.equals("closest") || p.equals("none") || p.equals("verbose")) {
                continue;
            }
            int colon = p.indexOf(':');
            String head = colon < 0 ? p : p.substring(0, colon);
            if (colon > 0
                    && colon + 1 < p.length()
                    && Set.of("map_gpu", "mask_gpu", "single", "per_task").contains(head)) {
                // the list takes the rest of the value, commas included
                return true;
            }
            return false;
        }
        return true;
    }
}
