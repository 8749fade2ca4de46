package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.PartitionState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One partition of {@code slurm.conf} after {@code PartitionName=DEFAULT} values were applied and
 * {@code Nodes=} was resolved ({@code ALL}, hostlists, NodeSet names) to node names in
 * configuration order. Built with {@link #builder}, whose defaults are Slurm's for an option the
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

    public static Builder builder(String name) {
        return new Builder(name);
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

    /** Assembles a {@link PartitionConf}; anything not set has Slurm's default. */
    public static final class Builder {
        private final String name;
        private List<String> nodeNames = List.of();
        private String nodesExpr = "";
        private boolean isDefault;
        private PartitionState state = PartitionState.UP;
        private List<String> allowGroups = List.of();
        private List<String> allowAccounts = List.of();
        private List<String> allowQos = List.of();
        private List<String> denyAccounts = List.of();
        private List<String> denyQos = List.of();
        private boolean exclusiveUser;
        private boolean rootOnly;
        private boolean reqResv;
        private boolean hidden;
        private long maxTimeMinutes = dev.sluice.common.time.TimeLimit.INFINITE;
        private long defaultTimeMinutes = dev.sluice.common.time.TimeLimit.NOT_SET;
        private long maxNodes = UNLIMITED;
        private long minNodes;
        private long maxCpusPerNode = UNLIMITED;
        private Memory memory = Memory.NONE;
        private int priorityTier = 1;
        private int priorityJobFactor = 1;
        private String overSubscribe = "NO";
        private String preemptMode = "";
        private long graceTimeSeconds;
        private boolean lln;
        private String selectTypeParameters = "";
        private String qos = "";
        private String tresBillingWeights = "";
        private ConfSource source = new ConfSource("", 0);

        private Builder(String name) {
            this.name = requireNonNull(name, "name is null");
        }

        public Builder nodes(List<String> names, String expr) {
            this.nodeNames = names;
            this.nodesExpr = expr;
            return this;
        }

        public Builder isDefault(boolean value) {
            this.isDefault = value;
            return this;
        }

        public Builder state(PartitionState value) {
            this.state = value;
            return this;
        }

        public Builder allowGroups(List<String> value) {
            this.allowGroups = value;
            return this;
        }

        public Builder allowAccounts(List<String> value) {
            this.allowAccounts = value;
            return this;
        }

        public Builder allowQos(List<String> value) {
            this.allowQos = value;
            return this;
        }

        public Builder denyAccounts(List<String> value) {
            this.denyAccounts = value;
            return this;
        }

        public Builder denyQos(List<String> value) {
            this.denyQos = value;
            return this;
        }

        public Builder exclusiveUser(boolean value) {
            this.exclusiveUser = value;
            return this;
        }

        public Builder rootOnly(boolean value) {
            this.rootOnly = value;
            return this;
        }

        public Builder reqResv(boolean value) {
            this.reqResv = value;
            return this;
        }

        public Builder hidden(boolean value) {
            this.hidden = value;
            return this;
        }

        public Builder maxTimeMinutes(long value) {
            this.maxTimeMinutes = value;
            return this;
        }

        public Builder defaultTimeMinutes(long value) {
            this.defaultTimeMinutes = value;
            return this;
        }

        public Builder maxNodes(long value) {
            this.maxNodes = value;
            return this;
        }

        public Builder minNodes(long value) {
            this.minNodes = value;
            return this;
        }

        public Builder maxCpusPerNode(long value) {
            this.maxCpusPerNode = value;
            return this;
        }

        public Builder memory(Memory value) {
            this.memory = value;
            return this;
        }

        public Builder priorityTier(int value) {
            this.priorityTier = value;
            return this;
        }

        public Builder priorityJobFactor(int value) {
            this.priorityJobFactor = value;
            return this;
        }

        public Builder overSubscribe(String value) {
            this.overSubscribe = value;
            return this;
        }

        public Builder preemptMode(String value) {
            this.preemptMode = value;
            return this;
        }

        public Builder graceTimeSeconds(long value) {
            this.graceTimeSeconds = value;
            return this;
        }

        public Builder lln(boolean value) {
            this.lln = value;
            return this;
        }

        public Builder selectTypeParameters(String value) {
            this.selectTypeParameters = value;
            return this;
        }

        public Builder qos(String value) {
            this.qos = value;
            return this;
        }

        public Builder tresBillingWeights(String value) {
            this.tresBillingWeights = value;
            return this;
        }

        public Builder source(ConfSource value) {
            this.source = value;
            return this;
        }

        public PartitionConf build() {
            Access access = new Access(
                    allowGroups,
                    allowAccounts,
                    allowQos,
                    denyAccounts,
                    denyQos,
                    exclusiveUser,
                    rootOnly,
                    reqResv,
                    hidden);
            Limits limits = new Limits(maxTimeMinutes, defaultTimeMinutes, maxNodes, minNodes, maxCpusPerNode);
            Scheduling scheduling = new Scheduling(
                    priorityTier,
                    priorityJobFactor,
                    overSubscribe,
                    preemptMode,
                    graceTimeSeconds,
                    lln,
                    selectTypeParameters,
                    qos,
                    tresBillingWeights);
            return new PartitionConf(
                    name,
                    new Members(nodeNames, nodesExpr),
                    isDefault,
                    state,
                    access,
                    limits,
                    memory,
                    scheduling,
                    source);
        }
    }
}
