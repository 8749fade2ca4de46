package dev.sluice.operator.reconcile;

import dev.sluice.common.scalein.ScaleInRanking;
import dev.sluice.common.slurm.NodeFlag;
import dev.sluice.common.slurm.NodeState;
import dev.sluice.common.slurm.NodeStatus;
import dev.sluice.operator.cluster.SluiceCluster;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A controller in memory for reconciler tests: nodes register when a test says so, jobs are
 * (node, time limit end) pairs, and the ranking is common's {@link ScaleInRanking}, as the real
 * controller client computes it.
 */
final class FakeCluster implements SluiceCluster {
    final Map<String, NodeStatus> states = new ConcurrentHashMap<>();
    final Map<String, String> reasons = new ConcurrentHashMap<>();
    final Map<String, Long> jobEnds = new ConcurrentHashMap<>();
    final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
    volatile long now = 1_000_000;

    void register(String node) {
        states.putIfAbsent(node, new NodeStatus(NodeState.IDLE, Set.of()));
    }

    void runJob(String node, long limitEnd) {
        jobEnds.put(node, limitEnd);
        states.computeIfPresent(node, (k, s) -> new NodeStatus(NodeState.MIXED, s.flags()));
    }

    void endJob(String node) {
        jobEnds.remove(node);
        states.computeIfPresent(node, (k, s) -> new NodeStatus(NodeState.IDLE, s.flags()));
    }

    @Override
    public List<Node> nodes() {
        List<Node> out = new ArrayList<>();
        states.forEach((n, s) -> out.add(new Node(n, s, reasons.getOrDefault(n, ""))));
        return out;
    }

    @Override
    public List<ScaleInRanking.Candidate> scaleInRanking(List<String> nodes) {
        List<ScaleInRanking.NodeSlot> slots = nodes.stream()
                .filter(states::containsKey)
                .map(n -> new ScaleInRanking.NodeSlot(n, states.get(n).has(NodeFlag.DRAIN)))
                .toList();
        List<ScaleInRanking.RunningJob> jobs = new ArrayList<>();
        jobEnds.forEach((n, end) -> jobs.add(new ScaleInRanking.RunningJob(List.of(n), end)));
        return ScaleInRanking.rank(slots, jobs, now);
    }

    final List<dev.sluice.operator.cluster.PartitionLoad.Pending> pending =
            java.util.Collections.synchronizedList(new ArrayList<>());

    @Override
    public List<dev.sluice.operator.cluster.PartitionLoad> partitionLoads() {
        List<dev.sluice.operator.cluster.PartitionLoad.NodeSlot> nodes = new ArrayList<>();
        states.forEach((n, s) -> nodes.add(new dev.sluice.operator.cluster.PartitionLoad.NodeSlot(
                List.of("all", n.replaceAll("-\\d+$", "")),
                s.base() == NodeState.IDLE && s.flags().isEmpty())));
        return dev.sluice.operator.cluster.PartitionLoad.compute(List.of("all"), List.copyOf(pending), nodes);
    }

    @Override
    public void drain(String node, String reason) {
        log.add("drain " + node);
        reasons.put(node, reason);
        states.computeIfPresent(node, (k, s) -> new NodeStatus(s.base(), with(s.flags(), NodeFlag.DRAIN)));
    }

    @Override
    public void resume(String node) {
        log.add("resume " + node);
        reasons.remove(node);
        states.computeIfPresent(node, (k, s) -> new NodeStatus(s.base(), without(s.flags(), NodeFlag.DRAIN)));
    }

    @Override
    public void delete(String node) {
        if (!jobEnds.containsKey(node) && states.remove(node) != null) {
            reasons.remove(node);
            log.add("delete " + node);
        }
    }

    private static Set<NodeFlag> with(Set<NodeFlag> flags, NodeFlag flag) {
        EnumSet<NodeFlag> out = EnumSet.of(flag);
        out.addAll(flags);
        return out;
    }

    private static Set<NodeFlag> without(Set<NodeFlag> flags, NodeFlag flag) {
        EnumSet<NodeFlag> out = EnumSet.noneOf(NodeFlag.class);
        out.addAll(flags);
        out.remove(flag);
        return out;
    }
}
