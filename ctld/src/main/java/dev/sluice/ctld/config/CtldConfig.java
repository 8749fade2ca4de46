package dev.sluice.ctld.config;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.ctld.control.NodePolicy;
import dev.sluice.ctld.sched.SchedulerConfig;
import dev.sluice.ctld.state.DynamicMembership;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.Partition;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything the controller takes from {@code slurm.conf}, typed and defaulted. Built once at
 * start-up (and on reconfigure) by {@link CtldConfigs}; the rest of the controller never sees
 * the file.
 *
 * @param configFiles configuration files served to configless node daemons: name → content
 *     (empty unless {@code SlurmctldParameters=enable_configless})
 * @param nodePolicy ReturnToService and config_overrides
 * @param memberships which partitions take dynamic nodes
 * @param clusterKeys the cluster key set (slurm.key or slurm.jwks beside slurm.conf); null until
 *     loaded, and the controller refuses to start without it
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
        List<Map.Entry<String, String>> showConfig,
        NodePolicy nodePolicy,
        List<DynamicMembership> memberships,
        ClusterKeys clusterKeys) {

    public CtldConfig {
        requireNonNull(clusterName, "clusterName is null");
        requireNonNull(controlHost, "controlHost is null");
        requireNonNull(stateSaveLocation, "stateSaveLocation is null");
        gresNames = Set.copyOf(gresNames);
        requireNonNull(scheduler, "scheduler is null");
        nodes = List.copyOf(nodes);
        partitions = List.copyOf(partitions);
        configFiles = Map.copyOf(configFiles);
        showConfig = List.copyOf(showConfig);
        requireNonNull(nodePolicy, "nodePolicy is null");
        memberships = List.copyOf(memberships);
    }

    /** Without node policy or dynamic memberships: ReturnToService=0, no dynamic nodes join. */
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
            List<Map.Entry<String, String>> showConfig) {
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
                showConfig,
                NodePolicy.DEFAULT,
                List.of(),
                null);
    }

    /** This configuration with the cluster keys loaded. */
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
                showConfig,
                nodePolicy,
                memberships,
                keys);
    }
}
