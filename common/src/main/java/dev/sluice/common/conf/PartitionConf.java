package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.PartitionState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One partition of {@code slurm.conf} after {@code PartitionName=DEFAULT} values were applied and
 * {@code Nodes=} was resolved ({@code ALL}, hostlists, NodeSet names) to node names in
 * configuration order. Built with {@link #builder} ({@link PartitionConfBuilder}), whose defaults are Slurm's for an option the
 * line leaves out.
 *
 * @param members the nodes, resolved and as written
 * @param isDefault {@code Default=YES}
 * @param access who may use it
 * @param limits what one job may ask of it
 * @param memory its memory defaults and limits
 * @param scheduling how its jobs are ordered, packed and preempted
 * @param source the {@code PartitionName} line
 */
public record PartitionConf(
        String name,
        Members members,
        boolean isDefault,
        PartitionState state,
        Access access,
        Limits limits,
        Memory memory,
        Scheduling scheduling,
        ConfSource source) {

    /** Marks unset node and CPU count limits. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    public PartitionConf {
        requireNonNull(name, "name is null");
        requireNonNull(members, "members is null");
        requireNonNull(state, "state is null");
        requireNonNull(access, "access is null");
        requireNonNull(limits, "limits is null");
        requireNonNull(memory, "memory is null");
        requireNonNull(scheduling, "scheduling is null");
        requireNonNull(source, "source is null");
    }

    /** A partition named {@code name} with Slurm's defaults for whatever is not set. */
    public static PartitionConfBuilder builder(String name) {
        return new PartitionConfBuilder(name);
    }

    /** The resolved member names in configuration order. */
    public List<String> nodeNames() {
        return members.names();
    }

    /**
     * The partition's nodes.
     *
     * @param names members in node-definition order (Slurm keeps them as a bitmap)
     * @param expr the {@code Nodes=} value as written, empty when absent
     */
    public record Members(List<String> names, String expr) {

        public Members {
            names = List.copyOf(names);
            requireNonNull(expr, "expr is null");
        }

        /**
         * The top-level items of {@code Nodes=} ({@code a[1-3],ALL,set} gives three: commas inside
         * brackets belong to a hostlist), which say whether nodes joining later belong to it.
         */
        public List<String> exprItems() {
            return PartitionLines.topLevelItems(expr);
        }
    }

    /**
     * Who may use the partition. The lists are empty when unrestricted ({@code ALL}).
     *
     * @param hidden {@code Hidden=YES}: left out of listings unless asked for
     */
    public record Access(
            List<String> allowGroups,
            List<String> allowAccounts,
            List<String> allowQos,
            List<String> denyAccounts,
            List<String> denyQos,
            boolean exclusiveUser,
            boolean rootOnly,
            boolean reqResv,
            boolean hidden) {

        /** Anyone may use it, and it is listed. */
        public static final Access OPEN =
                new Access(List.of(), List.of(), List.of(), List.of(), List.of(), false, false, false, false);

        public Access {
            allowGroups = List.copyOf(allowGroups);
            allowAccounts = List.copyOf(allowAccounts);
            allowQos = List.copyOf(allowQos);
            denyAccounts = List.copyOf(denyAccounts);
            denyQos = List.copyOf(denyQos);
        }

        /** The same rules, listed or not ({@code scontrol update Hidden=}). */
        public Access withHidden(boolean newHidden) {
            return new Access(
                    allowGroups,
                    allowAccounts,
                    allowQos,
                    denyAccounts,
                    denyQos,
                    exclusiveUser,
                    rootOnly,
                    reqResv,
                    newHidden);
        }
    }

    /**
     * What one job may ask of the partition. Times are minutes ({@link
     * dev.sluice.common.time.TimeLimit#INFINITE} = UNLIMITED, {@link
     * dev.sluice.common.time.TimeLimit#NOT_SET} = no DefaultTime); {@link #UNLIMITED} marks unset
     * node and CPU counts.
     */
    public record Limits(
            long maxTimeMinutes, long defaultTimeMinutes, long maxNodes, long minNodes, long maxCpusPerNode) {}

    /** Memory defaults and limits in MB, 0 meaning unset. */
    public record Memory(long defMemPerCpuMb, long defMemPerNodeMb, long maxMemPerCpuMb, long maxMemPerNodeMb) {

        /** No defaults, no limits. */
        public static final Memory NONE = new Memory(0, 0, 0, 0);
    }

    /**
     * How the partition's jobs are ordered, packed and preempted.
     *
     * @param overSubscribe in the form {@code scontrol show partition} prints ({@code NO}, {@code
     *     EXCLUSIVE}, {@code YES:4}, {@code FORCE:2})
     * @param preemptMode its own {@code PreemptMode} as written, empty when the cluster's applies
     * @param selectTypeParameters one of {@code CR_Core}, {@code CR_Core_Memory}, {@code
     *     CR_Socket}, {@code CR_Socket_Memory}, or empty
     */
    public record Scheduling(
            int priorityTier,
            int priorityJobFactor,
            String overSubscribe,
            String preemptMode,
            long graceTimeSeconds,
            boolean lln,
            String selectTypeParameters,
            String qos,
            String tresBillingWeights) {

        public Scheduling {
            requireNonNull(overSubscribe, "overSubscribe is null");
            requireNonNull(preemptMode, "preemptMode is null");
            requireNonNull(selectTypeParameters, "selectTypeParameters is null");
            requireNonNull(qos, "qos is null");
            requireNonNull(tresBillingWeights, "tresBillingWeights is null");
        }

        /**
         * The PreemptMode as Slurm shows it: its own, else the cluster's, in Slurm's words ({@code
         * OFF}, {@code CANCEL}, {@code REQUEUE}, {@code GANG,SUSPEND}).
         *
         * @param clusterMode the cluster's {@code PreemptMode}, {@code OFF} when unset
         */
        public String shownPreemptMode(String clusterMode) {
            String own = preemptMode.isBlank() ? clusterMode : preemptMode;
            List<String> words = new ArrayList<>();
            for (String w : own.split(",")) {
                String u = w.strip().toUpperCase(Locale.ROOT);
                if (!u.isEmpty() && !u.equals("OFF")) {
                    words.add(u);
                }
            }
            if (words.isEmpty()) {
                return "OFF";
            }
            // Slurm prints GANG first (preempt_mode_string).
            words.sort(java.util.Comparator.comparing((String w) -> !w.equals("GANG")));
            return String.join(",", words);
        }
    }
}
