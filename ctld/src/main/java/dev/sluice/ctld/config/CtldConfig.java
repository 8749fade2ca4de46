package dev.sluice.ctld.config;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.ctld.control.NodePolicy;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.DynamicMembership;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Partition;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything the controller takes from {@code slurm.conf}, typed and defaulted. Built once at
 * start-up (and on reconfigure) by {@link CtldConfigs}; the rest of the controller never sees
 * the file.
 *
 * @param configFiles configuration files served to configless node daemons: name → content
 *     (empty unless {@code SlurmctldParameters=enable_configless})
 * @param settings slurm.conf's {@code Key=Value} settings as written (keys case-insensitive)
 * @param showConfig what {@code scontrol show config} reports for this configuration
 * @param nodePolicy ReturnToService and config_overrides
 * @param memberships which partitions take dynamic nodes
 * @param clusterKeys {@code slurm.key} (or {@code slurm.jwks}) beside slurm.conf: what daemons
 *     and trusted signers authenticate with
 * @param security the user commands' access rules and limits
 */
public record CtldConfig(
        String clusterName,
        String controlHost,
        int slurmctldPort,
        int grpcPort,
        String stateSaveLocation,
        int slurmdTimeoutSeconds,
        int killWaitSeconds,
        int minJobAgeSeconds,
        int firstJobId,
        boolean memoryConsumable,
        long defMemPerCpuMb,
        Set<String> gresNames,
        SchedulerConfig scheduler,
        int maxArraySize,
        List<Node> nodes,
        List<Partition> partitions,
        Map<String, byte[]> configFiles,
        Map<String, String> settings,
        ShowConfig showConfig,
        NodePolicy nodePolicy,
        List<DynamicMembership> memberships,
        ClusterKeys clusterKeys,
        CommandSecurity security) {

    public CtldConfig {
        requireNonNull(clusterName, "clusterName is null");
        requireNonNull(controlHost, "controlHost is null");
        requireNonNull(stateSaveLocation, "stateSaveLocation is null");
        gresNames = Set.copyOf(gresNames);
        requireNonNull(scheduler, "scheduler is null");
        nodes = List.copyOf(nodes);
        partitions = List.copyOf(partitions);
        configFiles = Map.copyOf(configFiles);
        Map<String, String> s = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        s.putAll(settings);
        settings = java.util.Collections.unmodifiableMap(s);
        requireNonNull(showConfig, "showConfig is null");
        requireNonNull(nodePolicy, "nodePolicy is null");
        memberships = List.copyOf(memberships);
        requireNonNull(clusterKeys, "clusterKeys is null");
        requireNonNull(security, "security is null");
    }

    /**
     * Without node policy or dynamic memberships (ReturnToService=0, no dynamic nodes join), and
     * with a cluster key made up for this process alone: nothing outside it can authenticate, so
     * only the Unix command socket (peer credentials) reaches such a controller.
     */
    public CtldConfig(
            String clusterName,
            String controlHost,
            int slurmctldPort,
            int grpcPort,
            String stateSaveLocation,
            int slurmdTimeoutSeconds,
            int killWaitSeconds,
            int minJobAgeSeconds,
            int firstJobId,
            boolean memoryConsumable,
            long defMemPerCpuMb,
            Set<String> gresNames,
            SchedulerConfig scheduler,
            int maxArraySize,
            List<Node> nodes,
            List<Partition> partitions,
            Map<String, byte[]> configFiles,
            Map<String, String> settings,
            ShowConfig showConfig) {
        this(
                clusterName,
                controlHost,
                slurmctldPort,
                grpcPort,
                stateSaveLocation,
                slurmdTimeoutSeconds,
                killWaitSeconds,
                minJobAgeSeconds,
                firstJobId,
                memoryConsumable,
                defMemPerCpuMb,
                gresNames,
                scheduler,
                maxArraySize,
                nodes,
                partitions,
                configFiles,
                settings,
                showConfig,
                NodePolicy.DEFAULT,
                List.of(),
                ephemeralKeys(),
                CommandSecurity.defaults(stateSaveLocation));
    }

    /**
     * slurm.conf {@code JobRequeue}: whether a batch job that gave neither {@code --requeue} nor
     * {@code --no-requeue} may be requeued (Slurm's default, 1, says it may).
     */
    public boolean jobRequeue() {
        String v = settings.get("JobRequeue");
        return v == null || !v.strip().equals("0");
    }

    /**
     * slurm.conf {@code AuthInfo=cred_expire=N}: how long a job credential lives. Slurm 22.05
     * also holds a requeued batch job back that long (and one second more), so that the new
     * run's credential is younger than the revocation of the old one. 120 by default; under 5
     * is refused (and the default used), as by Slurm.
     */
    public long credExpireSeconds() {
        return credExpireSeconds(settings.get("AuthInfo"));
    }

    /** {@link #credExpireSeconds()} of an {@code AuthInfo} value (null: none set). */
    static long credExpireSeconds(String v) {
        if (v != null) {
            for (String part : v.split(",")) {
                String p = part.strip();
                if (p.regionMatches(true, 0, "cred_expire=", 0, 12)) {
                    try {
                        long seconds = Long.parseLong(p.substring(12).strip());
                        return seconds < 5 ? DEFAULT_CRED_EXPIRE : seconds;
                    } catch (NumberFormatException e) {
                        return DEFAULT_CRED_EXPIRE;
                    }
                }
            }
        }
        return DEFAULT_CRED_EXPIRE;
    }

    /** Slurm 22.05's credential lifetime (slurm_cred.c DEFAULT_EXPIRATION_WINDOW). */
    public static final long DEFAULT_CRED_EXPIRE = 120;

    /** A random key known to this process only. */
    public static ClusterKeys ephemeralKeys() {
        byte[] secret = new byte[ClusterKeys.MIN_KEY_BYTES * 2];
        new java.security.SecureRandom().nextBytes(secret);
        return ClusterKeys.of(new ClusterKeys.Key("ephemeral", secret));
    }

    /** This configuration with the cluster keys loaded from disk. */
    public CtldConfig withClusterKeys(ClusterKeys keys) {
        return new CtldConfig(
                clusterName,
                controlHost,
                slurmctldPort,
                grpcPort,
                stateSaveLocation,
                slurmdTimeoutSeconds,
                killWaitSeconds,
                minJobAgeSeconds,
                firstJobId,
                memoryConsumable,
                defMemPerCpuMb,
                gresNames,
                scheduler,
                maxArraySize,
                nodes,
                partitions,
                configFiles,
                settings,
                showConfig,
                nodePolicy,
                memberships,
                keys,
                security);
    }

    /**
     * This configuration listening elsewhere than its files say: {@code sluice-ctld --port}
     * (0: ports the kernel picks, which the controller reports once bound).
     */
    public CtldConfig withPorts(int commandPort, int daemonsPort) {
        return new CtldConfig(
                clusterName,
                controlHost,
                commandPort,
                daemonsPort,
                stateSaveLocation,
                slurmdTimeoutSeconds,
                killWaitSeconds,
                minJobAgeSeconds,
                firstJobId,
                memoryConsumable,
                defMemPerCpuMb,
                gresNames,
                scheduler,
                maxArraySize,
                nodes,
                partitions,
                configFiles,
                settings,
                showConfig,
                nodePolicy,
                memberships,
                clusterKeys,
                security);
    }
}
