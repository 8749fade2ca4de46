package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.PartitionState;
import java.util.List;

/**
 * One partition of {@code slurm.conf} after {@code PartitionName=DEFAULT} values were applied and
 * {@code Nodes=} was resolved ({@code ALL}, hostlists, NodeSet names) to node names in
 * configuration order. Lists such as {@code allowGroups} are empty when unrestricted ({@code ALL}).
 * Times are minutes ({@link dev.sluice.common.time.TimeLimit#INFINITE} = UNLIMITED, {@link
 * dev.sluice.common.time.TimeLimit#NOT_SET} = no DefaultTime); memory is MB, 0 meaning unset;
 * {@link #UNLIMITED} marks unset node-count limits. {@code overSubscribe} is in the form {@code
 * scontrol show partition} prints ({@code NO}, {@code EXCLUSIVE}, {@code YES:4}, {@code FORCE:2});
 * {@code selectTypeParameters} is one of {@code CR_Core}, {@code CR_Core_Memory}, {@code CR_Socket},
 * {@code CR_Socket_Memory}, or empty.
 */
public record PartitionConf(
        String name,
        List<String> nodeNames,
        String nodesExpr,
        boolean isDefault,
        long maxTimeMinutes,
        long defaultTimeMinutes,
        long maxNodes,
        long minNodes,
        PartitionState state,
        List<String> allowGroups,
        List<String> allowAccounts,
        List<String> allowQos,
        List<String> denyAccounts,
        List<String> denyQos,
        String overSubscribe,
        int priorityTier,
        int priorityJobFactor,
        long defMemPerCpuMb,
        long defMemPerNodeMb,
        long maxMemPerCpuMb,
        long maxMemPerNodeMb,
        long maxCpusPerNode,
        String tresBillingWeights,
        boolean exclusiveUser,
        String qos,
        boolean hidden,
        boolean rootOnly,
        boolean reqResv,
        boolean lln,
        long graceTimeSeconds,
        String preemptMode,
        String selectTypeParameters,
        String file,
        int line) {

    public static final long UNLIMITED = Long.MAX_VALUE;

    public PartitionConf {
        requireNonNull(name, "name is null");
        nodeNames = List.copyOf(nodeNames);
        requireNonNull(nodesExpr, "nodesExpr is null");
        requireNonNull(state, "state is null");
        allowGroups = List.copyOf(allowGroups);
        allowAccounts = List.copyOf(allowAccounts);
        allowQos = List.copyOf(allowQos);
        denyAccounts = List.copyOf(denyAccounts);
        denyQos = List.copyOf(denyQos);
        requireNonNull(overSubscribe, "overSubscribe is null");
        requireNonNull(tresBillingWeights, "tresBillingWeights is null");
        requireNonNull(qos, "qos is null");
        requireNonNull(preemptMode, "preemptMode is null");
        requireNonNull(selectTypeParameters, "selectTypeParameters is null");
        requireNonNull(file, "file is null");
    }
}
