package dev.sluice.common.conf;

import dev.sluice.common.time.TimeLimit;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An immutable, checked {@code slurm.conf}. Typed accessors carry Slurm's documented defaults
 * (slurm.conf(5)); {@link #value} answers any other key as written. Keys are case-insensitive.
 * Values were type-checked when read, so accessors never fail. How the read lines become one
 * (checks, node, node set and partition resolution) is {@link SlurmConfAssembly}'s.
 */
public final class SlurmConf {

    private final String file;
    private final ConfValues values;
    private final Map<String, List<String>> repeated;
    private final List<ControlHost> controlHosts;
    private final List<NodeConf> nodes;
    private final List<PartitionConf> partitions;
    private final List<NodeSetConf> nodeSets;
    private final List<IgnoredKey> ignoredKeys;
    private final List<String> warnings;

    SlurmConf(
            SlurmConfReader.Collected c,
            List<ControlHost> controlHosts,
            List<NodeConf> nodes,
            List<PartitionConf> partitions,
            List<NodeSetConf> nodeSets) {
        this.file = c.mainFile;
        this.values = new ConfValues(c.simple);
        Map<String, List<String>> r = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        c.repeated.forEach(
                (k, list) -> r.put(k, list.stream().map(ConfEntry::value).toList()));
        this.repeated = Collections.unmodifiableMap(r);
        this.controlHosts = List.copyOf(controlHosts);
        this.nodes = nodes;
        this.partitions = partitions;
        this.nodeSets = List.copyOf(nodeSets);
        this.ignoredKeys = List.copyOf(c.ignored);
        this.warnings = List.copyOf(c.warnings);
    }

    // ---- generic access ----

    /** The main file's name as it was given to the reader (Include files aside). */
    public String file() {
        return file;
    }

    /** The value of any key as written (last occurrence), case-insensitive key. */
    public Optional<String> value(String key) {
        return values.entry(key).map(ConfEntry::value);
    }

    /** Where a key was set, for messages. */
    public Optional<ConfEntry> entry(String key) {
        return values.entry(key);
    }

    /** Every simple key that was set, canonical spelling, in key order. */
    public Map<String, String> values() {
        return values.asMap();
    }

    // ---- cluster and daemons ----

    /** {@code ClusterName}, lower-cased as Slurm stores it. */
    public String clusterName() {
        return values.string("ClusterName", "").toLowerCase(Locale.ROOT);
    }

    /** Controller host names, primary first. */
    public List<String> controlHosts() {
        return controlHosts.stream().map(ControlHost::name).toList();
    }

    /** Controller hosts with addresses ({@code SlurmctldHost=name(addr)}). */
    public List<ControlHost> controlHostEntries() {
        return controlHosts;
    }

    /** First {@code SlurmctldPort} (default 6817); Slurm allows a range, see {@link #slurmctldPortCount}. */
    public int slurmctldPort() {
        return ControlHosts.portRange(values.string("SlurmctldPort", "6817"))[0];
    }

    public int slurmctldPortCount() {
        int[] r = ControlHosts.portRange(values.string("SlurmctldPort", "6817"));
        return r[1] - r[0] + 1;
    }

    public int slurmdPort() {
        return values.intValue("SlurmdPort", 6818);
    }

    public String stateSaveLocation() {
        return values.string("StateSaveLocation", "/var/spool");
    }

    public String slurmdSpoolDir() {
        return values.string("SlurmdSpoolDir", "/var/spool/slurmd");
    }

    public String slurmUser() {
        return values.string("SlurmUser", "root");
    }

    public String slurmdUser() {
        return values.string("SlurmdUser", "root");
    }

    public String authType() {
        return values.string("AuthType", "auth/munge");
    }

    public List<String> authAltTypes() {
        return values.commaList("AuthAltTypes");
    }

    /** {@code AuthAltParameters}: comma-separated {@code key=value} items ({@code jwt_key=PATH}). */
    public List<String> authAltParameters() {
        return values.commaList("AuthAltParameters");
    }

    /** {@code PrivateData}: what non-operators may not see of others ({@code jobs}, ...). */
    public List<String> privateData() {
        return values.commaList("PrivateData");
    }

    public Optional<String> slurmctldLogFile() {
        return value("SlurmctldLogFile");
    }

    public Optional<String> slurmdLogFile() {
        return value("SlurmdLogFile");
    }

    public String slurmctldPidFile() {
        return values.string("SlurmctldPidFile", "/var/run/slurmctld.pid");
    }

    public String slurmdPidFile() {
        return values.string("SlurmdPidFile", "/var/run/slurmd.pid");
    }

    public String tmpFs() {
        return values.string("TmpFS", "/tmp");
    }

    /** {@code SlurmctldParameters} items as written ({@code enable_configless}, {@code idle_on_node_suspend}). */
    public List<String> slurmctldParameters() {
        return values.commaList("SlurmctldParameters");
    }

    public boolean enableConfigless() {
        return slurmctldParameters().stream().anyMatch(p -> p.equalsIgnoreCase("enable_configless"));
    }

    // ---- timeouts (seconds) ----

    public int slurmctldTimeoutSeconds() {
        return values.intValue("SlurmctldTimeout", 120);
    }

    public int slurmdTimeoutSeconds() {
        return values.intValue("SlurmdTimeout", 300);
    }

    public int messageTimeoutSeconds() {
        return values.intValue("MessageTimeout", 10);
    }

    public int killWaitSeconds() {
        return values.intValue("KillWait", 30);
    }

    public int minJobAgeSeconds() {
        return values.intValue("MinJobAge", 300);
    }

    public int inactiveLimitSeconds() {
        return values.intValue("InactiveLimit", 0);
    }

    /** {@code OverTimeLimit} in minutes; {@link TimeLimit#INFINITE} for UNLIMITED. */
    public long overTimeLimitMinutes() {
        long v = values.longValue("OverTimeLimit", 0);
        return v == Values.INFINITE ? TimeLimit.INFINITE : v;
    }

    public int completeWaitSeconds() {
        return values.intValue("CompleteWait", 0);
    }

    // ---- jobs ----

    /** {@code ReturnToService}: 0 (default), 1 or 2 as slurm.conf(5) defines them. */
    public int returnToService() {
        return values.intValue("ReturnToService", 0);
    }

    public long maxJobCount() {
        return values.longValue("MaxJobCount", 10000);
    }

    public long firstJobId() {
        return values.longValue("FirstJobId", 1);
    }

    public long maxJobId() {
        return values.longValue("MaxJobId", 0x03ff0000L);
    }

    public long maxArraySize() {
        return values.longValue("MaxArraySize", 1001);
    }

    public long maxStepCount() {
        return values.longValue("MaxStepCount", 40000);
    }

    public int maxTasksPerNode() {
        return values.intValue("MaxTasksPerNode", 512);
    }

    public boolean jobRequeue() {
        return values.longValue("JobRequeue", 1) != 0;
    }

    public String enforcePartLimits() {
        return values.string("EnforcePartLimits", "NO").toUpperCase(Locale.ROOT);
    }

    /** {@code Prolog} scripts (current Slurm allows several lines). */
    public List<String> prolog() {
        return repeated.getOrDefault("Prolog", List.of());
    }

    public List<String> epilog() {
        return repeated.getOrDefault("Epilog", List.of());
    }

    /** {@code PrologFlags}: when the Prolog runs and what waits for it. */
    public PrologFlags prologFlags() {
        return PrologFlags.parse(values.commaList("PrologFlags"));
    }

    // ---- resources and scheduling ----

    public List<String> gresTypes() {
        return values.commaList("GresTypes");
    }

    public String selectType() {
        return values.string("SelectType", "select/cons_tres");
    }

    public List<String> selectTypeParameters() {
        return values.commaList("SelectTypeParameters");
    }

    public String schedulerType() {
        return values.string("SchedulerType", "sched/backfill");
    }

    public List<String> schedulerParameters() {
        return values.commaList("SchedulerParameters");
    }

    /** MB; 0 when unset. */
    public long defMemPerCpuMb() {
        return values.longValue("DefMemPerCPU", 0);
    }

    public long defMemPerNodeMb() {
        return values.longValue("DefMemPerNode", 0);
    }

    public long maxMemPerCpuMb() {
        return values.longValue("MaxMemPerCPU", 0);
    }

    public long maxMemPerNodeMb() {
        return values.longValue("MaxMemPerNode", 0);
    }

    public String proctrackType() {
        return values.string("ProctrackType", "proctrack/cgroup");
    }

    public List<String> taskPlugin() {
        return values.commaList("TaskPlugin");
    }

    // ---- accounting and priority ----

    public Optional<String> accountingStorageType() {
        return value("AccountingStorageType");
    }

    public Optional<String> accountingStorageHost() {
        return value("AccountingStorageHost");
    }

    public int accountingStoragePort() {
        return values.intValue("AccountingStoragePort", 6819);
    }

    public List<String> accountingStorageEnforce() {
        return values.commaList("AccountingStorageEnforce");
    }

    /** {@code Licenses}: the cluster's local licenses, in name order (checked when read). */
    public dev.sluice.common.slurm.Licenses licenses() {
        return dev.sluice.common.slurm.Licenses.configured(values.string("Licenses", ""));
    }

    public List<String> accountingStorageTres() {
        return values.commaList("AccountingStorageTRES");
    }

    public String priorityType() {
        // Slurm 22.05's default (scontrol show config: PriorityType = priority/basic).
        return values.string("PriorityType", "priority/basic");
    }

    public long priorityWeightAge() {
        return values.longValue("PriorityWeightAge", 0);
    }

    public long priorityWeightAssoc() {
        return values.longValue("PriorityWeightAssoc", 0);
    }

    public long priorityWeightFairshare() {
        return values.longValue("PriorityWeightFairshare", 0);
    }

    public long priorityWeightJobSize() {
        return values.longValue("PriorityWeightJobSize", 0);
    }

    public long priorityWeightPartition() {
        return values.longValue("PriorityWeightPartition", 0);
    }

    public long priorityWeightQos() {
        return values.longValue("PriorityWeightQOS", 0);
    }

    /** {@code PriorityWeightTRES} as written ({@code CPU=1000,Mem=2000,GRES/gpu=3000}). */
    public String priorityWeightTres() {
        return values.string("PriorityWeightTRES", "");
    }

    // ---- topology of the cluster ----

    public List<NodeConf> nodes() {
        return nodes;
    }

    public Optional<NodeConf> node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    public List<PartitionConf> partitions() {
        return partitions;
    }

    public Optional<PartitionConf> partition(String name) {
        return partitions.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The default partition: the last one marked {@code Default=YES}, as Slurm resolves several. */
    public Optional<PartitionConf> defaultPartition() {
        return partitions.stream().filter(PartitionConf::isDefault).reduce((a, b) -> b);
    }

    public List<NodeSetConf> nodeSets() {
        return nodeSets;
    }

    /** Keys accepted but not acted upon, with their locations, for a one-time start-up log. */
    public List<IgnoredKey> ignoredKeys() {
        return ignoredKeys;
    }

    /** Non-fatal remarks made while reading (Slurm would log these as errors and carry on). */
    public List<String> warnings() {
        return warnings;
    }
}
