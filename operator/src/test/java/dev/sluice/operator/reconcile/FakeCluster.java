package dev.sluice.operator.reconcile;

import dev.sluice.common.scalein.ScaleInRanking;
import dev.sluice.operator.cluster.SluiceCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A controller in memory for reconciler tests: nodes register when a test says so, jobs are
 * (node, time limit end) pairs, and the ranking is common's {@link ScaleInRanking}, as the real
 * controller client computes it.
 */
final class FakeCluster implements SluiceCluster {
    final Map<String, String> states = new ConcurrentHashMap<>();
    final Map<String, String> reasons = new ConcurrentHashMap<>();
    final Map<String, Long> jobEnds = new ConcurrentHashMap<>();
    final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
    volatile long now = 1_000_000;

    void register(String node) {
        states.putIfAbsent(node, "IDLE");
    }

    void runJob(String node, long limitEnd) {
        jobEnds.put(node, limitEnd);
        states.computeIfPresent(node, (k, s) -> s.contains("DRAIN") ? "MIXED+DRAIN" : "MIXED");
    }

    void endJob(String node) {
        jobEnds.remove(node);
        states.computeIfPresent(node, (k, s) -> s.contains("DRAIN") ? "IDLE+DRAIN" : "IDLE");
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
                .map(n -> new ScaleInRanking.NodeSlot(n, states.get(n).contains("DRAIN")))
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
                List.of("all", n.replaceAll("-\\d+$", "")), s.equals("IDLE"))));
        return dev.sluice.operator.cluster.PartitionLoad.compute(List.of("all"), List.copyOf(pending), nodes);
    }

    @Override
    public void drain(String node, String reason) {
        log.add("drain " + node);
        reasons.put(node, reason);
        states.computeIfPresent(node, (k, s) -> s.contains("DRAIN") ? s : s + "+DRAIN");
    }

    @Override
    public void resume(String node) {
        log.add("resume " + node);
        reasons.remove(node);
        states.computeIfPresent(node, (k, s) -> s.replace("+DRAIN", ""));
    }

    @Override
    public void delete(String node) {
        if (!jobEnds.containsKey(node) && states.remove(node) != null) {
            reasons.remove(node);
            log.add("delete " + node);
        }
    }
}
