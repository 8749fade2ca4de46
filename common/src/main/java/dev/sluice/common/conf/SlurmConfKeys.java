package dev.sluice.common.conf;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every key {@code slurm.conf} may hold, with its value type and what Sluice does with it.
 *
 * <p>The table ({@code slurm-conf-keys.txt} next to this class) is the union of the keys Slurm
 * 22.05 accepts and the keys current Slurm documents in slurm.conf(5) (names and value types taken
 * from those versions' documentation and parser tables).
 * Flags: {@code used} — Sluice acts on the key; otherwise the key is accepted and reported once as
 * ignored. {@code defunct} — current Slurm no longer acts on it either. Keys Slurm has removed are
 * errors, with Slurm's own explanation where it has one ({@link #removal}).
 *
 * <p>Line-type keys ({@code NodeName}, {@code PartitionName}, ...) take the rest of their line as
 * sub-options; their sub-keys are in {@link #subKeys}.
 */
final class SlurmConfKeys {

    /** How Slurm's parser checks a value before anything else looks at it. */
    enum Type {
        STRING,
        UINT16,
        UINT32,
        UINT64,
        BOOLEAN,
        /** A line-type key, or a key that may repeat ({@code Prolog} in current Slurm). */
        ARRAY
    }

    record Key(String name, Type type, boolean used, boolean defunct) {}

    private static final String TABLE_RESOURCE = "slurm-conf-keys.txt";

    private static final Map<String, Key> KEYS = parse(loadTable());

    /** Removed keys and the explanation Slurm gives (or, where Slurm just says "unrecognized key", ours). */
    private static final Map<String, String> REMOVED = removed();

    private static final Map<String, Set<String>> SUB_KEYS = subKeys();

    private SlurmConfKeys() {}

    private static String loadTable() {
        try (java.io.InputStream in = SlurmConfKeys.class.getResourceAsStream(TABLE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(TABLE_RESOURCE + " is missing from the class path");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Map<String, Key> parse(String table) {
        Map<String, Key> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String line : table.strip().split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.strip().split(" +");
            Set<String> flags = Set.of(java.util.Arrays.copyOfRange(f, 2, f.length));
            out.put(f[0], new Key(f[0], Type.valueOf(f[1]), flags.contains("used"), flags.contains("defunct")));
        }
        return Collections.unmodifiableMap(out);
    }

    private static Map<String, String> removed() {
        Map<String, String> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        // Slurm 22.05's own fatal messages.
        m.put(
                "AccountingStoreJobComment",
                "The AccountingStoreJobComment option has been removed, please use"
                        + " AccountingStoreFlags=job_comment option instead.");
        m.put(
                "AccountingStorageLoc",
                "The AccountingStorageLoc option has been removed. It is safe to remove from your configuration.");
        m.put(
                "SallocDefaultCommand",
                "SallocDefaultCommand has been removed. Please consider setting"
                        + " LaunchParameters=use_interactive_step instead.");
        // Keys older Slurm releases documented; Slurm 22.05 rejects them as unrecognized.
        for (String k : new String[] {
            "CacheGroups",
            "CheckpointType",
            "ChosLoc",
            "DefaultStorageHost",
            "DefaultStorageLoc",
            "DefaultStoragePass",
            "DefaultStoragePort",
            "DefaultStorageType",
            "DefaultStorageUser",
            "DynAllocPort",
            "JobCheckpointDir",
            "Layouts",
            "MemLimitEnforce",
            "MsgAggregationParams",
            "SchedulerPort",
            "SchedulerRootFilter",
            "SlurmdPlugstack"
        }) {
            m.put(
                    k,
                    "The " + k + " option has been removed from Slurm; delete it (Slurm 22.05:"
                            + " \"Parsing error at unrecognized key: " + k + "\").");
        }
        return Collections.unmodifiableMap(m);
    }

    private static Map<String, Set<String>> subKeys() {
        Map<String, Set<String>> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        m.put(
                "NodeName",
                ci("BcastAddr Boards CoreSpecCount CoresPerSocket CPUs CPUSpecList CpuBind Feature Features"
                        + " Gres GresConf MemSpecLimit NodeAddr NodeHostname Parameters Port Procs RealMemory Reason"
                        + " RestrictedCoresPerGPU Sockets SocketsPerBoard State SuspendTime ThreadsPerCore TmpDisk Topology"
                        + " TRESWeights Weight"));
        m.put(
                "PartitionName",
                ci("AllocNodes AllowAccounts AllowGroups AllowQos Alternate CpuBind DefCPUPerGPU"
                        + " DefMemPerCPU DefMemPerGPU DefMemPerNode Default DefaultTime DenyAccounts DenyQos DisableRootJobs"
                        + " ExclusiveUser ExclusiveTopo GraceTime Hidden LLN MaxCPUsPerNode MaxCPUsPerSocket MaxMemPerCPU"
                        + " MaxMemPerNode MaxTime MaxNodes MinNodes Nodes OverSubscribe OverTimeLimit PowerDownOnIdle"
                        + " PreemptMode Priority PriorityJobFactor PriorityTier QOS RootOnly ReqResv ResumeTimeout"
                        + " SelectTypeParameters Shared State SuspendTime SuspendTimeout Topology TRESBillingWeights"));
        m.put("NodeSet", ci("Feature Nodes"));
        m.put("DownNodes", ci("Reason State"));
        m.put("FrontendName", ci("AllowGroups AllowUsers DenyGroups DenyUsers FrontendAddr Port Reason State"));
        m.put("PowerAction", ci("Location Program"));
        m.put("SlurmctldHost", ci(""));
        return Collections.unmodifiableMap(m);
    }

    private static Set<String> ci(String names) {
        Set<String> s = new java.util.TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        for (String n : names.split(" ")) {
            if (!n.isEmpty()) {
                s.add(n);
            }
        }
        return Collections.unmodifiableSet(s);
    }

    static Optional<Key> lookup(String key) {
        return Optional.ofNullable(KEYS.get(key));
    }

    static Optional<String> removal(String key) {
        return Optional.ofNullable(REMOVED.get(key));
    }

    /** Sub-keys of a line-type key, or empty when {@code key} is not line-type. */
    static Optional<Set<String>> subKeys(String key) {
        return Optional.ofNullable(SUB_KEYS.get(key));
    }

    /** Canonical spelling of a sub-key, for messages and maps. */
    static String canonicalSubKey(String lineKey, String subKey) {
        for (String s : SUB_KEYS.get(lineKey)) {
            if (s.equalsIgnoreCase(subKey)) {
                return s;
            }
        }
        return subKey;
    }

    static Set<String> allKeys() {
        return KEYS.keySet();
    }

    /** The known key nearest to a misspelt one, for "did you mean" hints; empty if none is close. */
    static Optional<String> suggest(String key, Iterable<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        String k = key.toLowerCase(Locale.ROOT);
        for (String c : candidates) {
            int d = Levenshtein.distance(k, c.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = c;
            }
        }
        int allowed = Math.max(1, Math.min(3, key.length() / 4));
        return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    static Map<String, Key> table() {
        return new LinkedHashMap<>(KEYS);
    }
}
