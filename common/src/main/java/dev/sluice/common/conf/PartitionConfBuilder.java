package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.PartitionState;
import dev.sluice.common.time.TimeLimit;
import java.util.List;

/** Assembles a {@link PartitionConf}; anything not set has Slurm's default. */
public final class PartitionConfBuilder {
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
    private long maxTimeMinutes = TimeLimit.INFINITE;
    private long defaultTimeMinutes = TimeLimit.NOT_SET;
    private long maxNodes = PartitionConf.UNLIMITED;
    private long minNodes;
    private long maxCpusPerNode = PartitionConf.UNLIMITED;
    private PartitionConf.Memory memory = PartitionConf.Memory.NONE;
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

    PartitionConfBuilder(String name) {
        this.name = requireNonNull(name, "name is null");
    }

    public PartitionConfBuilder nodes(List<String> names, String expr) {
        this.nodeNames = names;
        this.nodesExpr = expr;
        return this;
    }

    public PartitionConfBuilder isDefault(boolean value) {
        this.isDefault = value;
        return this;
    }

    public PartitionConfBuilder state(PartitionState value) {
        this.state = value;
        return this;
    }

    public PartitionConfBuilder allowGroups(List<String> value) {
        this.allowGroups = value;
        return this;
    }

    public PartitionConfBuilder allowAccounts(List<String> value) {
        this.allowAccounts = value;
        return this;
    }

    public PartitionConfBuilder allowQos(List<String> value) {
        this.allowQos = value;
        return this;
    }

    public PartitionConfBuilder denyAccounts(List<String> value) {
        this.denyAccounts = value;
        return this;
    }

    public PartitionConfBuilder denyQos(List<String> value) {
        this.denyQos = value;
        return this;
    }

    public PartitionConfBuilder exclusiveUser(boolean value) {
        this.exclusiveUser = value;
        return this;
    }

    public PartitionConfBuilder rootOnly(boolean value) {
        this.rootOnly = value;
        return this;
    }

    public PartitionConfBuilder reqResv(boolean value) {
        this.reqResv = value;
        return this;
    }

    public PartitionConfBuilder hidden(boolean value) {
        this.hidden = value;
        return this;
    }

    public PartitionConfBuilder maxTimeMinutes(long value) {
        this.maxTimeMinutes = value;
        return this;
    }

    public PartitionConfBuilder defaultTimeMinutes(long value) {
        this.defaultTimeMinutes = value;
        return this;
    }

    public PartitionConfBuilder maxNodes(long value) {
        this.maxNodes = value;
        return this;
    }

    public PartitionConfBuilder minNodes(long value) {
        this.minNodes = value;
        return this;
    }

    public PartitionConfBuilder maxCpusPerNode(long value) {
        this.maxCpusPerNode = value;
        return this;
    }

    public PartitionConfBuilder memory(PartitionConf.Memory value) {
        this.memory = value;
        return this;
    }

    public PartitionConfBuilder priorityTier(int value) {
        this.priorityTier = value;
        return this;
    }

    public PartitionConfBuilder priorityJobFactor(int value) {
        this.priorityJobFactor = value;
        return this;
    }

    public PartitionConfBuilder overSubscribe(String value) {
        this.overSubscribe = value;
        return this;
    }

    public PartitionConfBuilder preemptMode(String value) {
        this.preemptMode = value;
        return this;
    }

    public PartitionConfBuilder graceTimeSeconds(long value) {
        this.graceTimeSeconds = value;
        return this;
    }

    public PartitionConfBuilder lln(boolean value) {
        this.lln = value;
        return this;
    }

    public PartitionConfBuilder selectTypeParameters(String value) {
        this.selectTypeParameters = value;
        return this;
    }

    public PartitionConfBuilder qos(String value) {
        this.qos = value;
        return this;
    }

    public PartitionConfBuilder tresBillingWeights(String value) {
        this.tresBillingWeights = value;
        return this;
    }

    public PartitionConfBuilder source(ConfSource value) {
        this.source = value;
        return this;
    }

    public PartitionConf build() {
        PartitionConf.Access access = new PartitionConf.Access(
                allowGroups, allowAccounts, allowQos, denyAccounts, denyQos, exclusiveUser, rootOnly, reqResv, hidden);
        PartitionConf.Limits limits =
                new PartitionConf.Limits(maxTimeMinutes, defaultTimeMinutes, maxNodes, minNodes, maxCpusPerNode);
        PartitionConf.Scheduling scheduling = new PartitionConf.Scheduling(
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
                new PartitionConf.Members(nodeNames, nodesExpr),
                isDefault,
                state,
                access,
                limits,
                memory,
                scheduling,
                source);
    }
}
