package dev.sluice.ctld.rpc;

import dev.sluice.common.hostlist.IndexRanges;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.gres.GresUnit;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.NodeView;
import dev.sluice.ctld.state.Partition;
import dev.sluice.protocol.v1.NodeInfo;
import java.util.ArrayList;
import java.util.List;

/** A node as {@code sinfo} and {@code scontrol show node} get it, from an image. */
final class NodeInfoMapper {
    private NodeInfoMapper() {}

    static NodeInfo node(ClusterImage image, NodeView v, long now) {
        var n = v.node();
        var hw = n.hardware();
        List<String> partitions = image.partitions().stream()
                .filter(p -> p.nodes().contains(n.name()))
                .map(Partition::name)
                .toList();
        NodeInfo.Builder b = NodeInfo.newBuilder()
                .setName(n.name())
                .setHostname(n.endpoint().hostname())
                .setAddr(n.endpoint().addr())
                .setPort(n.endpoint().port())
                .setCpus(hw.cpus())
                .setBoards(hw.boards())
                .setSockets(hw.sockets())
                .setCoresPerSocket(hw.coresPerSocket())
                .setThreadsPerCore(hw.threadsPerCore())
                .setRealMemoryMb(hw.realMemoryMb())
                .setTmpDiskMb(hw.tmpDiskMb())
                .setAllocCpus(v.shownAllocCpus())
                .setAllocMemoryMb(v.allocMemoryMb())
                .setState(v.baseState().name())
                .addAllFlags(v.flags().stream().map(Enum::name).toList())
                .addAllFlags(image.reservations().nodeFlags(n.name(), now).stream()
                        .map(Enum::name)
                        .toList())
                .setReason(n.admin().reason())
                .setReasonUser(n.admin().reasonUser())
                .setReasonTime(n.admin().reasonTime())
                .setGres(n.gres().describe())
                .setGresUsed(gresUsed(v))
                .addAllFeatures(n.features())
                .addAllPartitions(partitions)
                .setWeight(n.weight())
                .setBootTime(n.bootTime())
                .setSlurmdStartTime(n.facts().slurmdStartTime())
                .setLastBusyTime(v.lastBusyTime())
                .setArch(n.facts().arch())
                .setOs(n.facts().os())
                .setVersion(n.version())
                .setCfgTres(nodeGres(
                                Tres.empty()
                                        .with("cpu", hw.cpus())
                                        .with("mem", hw.realMemoryMb())
                                        .with("billing", hw.cpus()),
                                v,
                                GresUnit::capacity)
                        .format());
        if (v.shownAllocCpus() > 0) {
            Tres alloc = Tres.empty().with("cpu", v.shownAllocCpus());
            alloc = v.allocMemoryMb() > 0 ? alloc.with("mem", v.allocMemoryMb()) : alloc;
            b.setAllocTres(nodeGres(alloc, v, u -> v.gres().used(u)).format());
        }
        return b.build();
    }

    /** A node's TRES with its GRES by name ({@code gres/gpu=3}); names that count 0 are left out. */
    private static Tres nodeGres(Tres tres, NodeView v, java.util.function.ToLongFunction<GresUnit> count) {
        java.util.Map<String, Long> totals = new java.util.TreeMap<>();
        v.gres().inventory().units().forEach(u -> totals.merge(u.name(), count.applyAsLong(u), Long::sum));
        Tres out = tres;
        for (var e : totals.entrySet()) {
            if (e.getValue() > 0) {
                out = out.with("gres/" + e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /**
     * Slurm 22.05's GresUsed, per GRES name in the node's order, as the oracle prints it for
     * compat/conf's gres.conf ({@code gpu:2,mps:0,shard:(null):0(IDX:N/A)}): untyped devices and
     * MPS as a count; shards by the GPUs they are taken from ({@code shard:(null):1(IDX:0)} for any
     * number of shards of GPU 0, type {@code (null)} when untyped); typed devices per type
     * ({@code gpu:a100:2(IDX:0-1)}).
     */
    static String gresUsed(NodeView v) {
        List<String> parts = new ArrayList<>();
        java.util.Map<String, List<GresUnit>> byName = new java.util.LinkedHashMap<>();
        v.gres()
                .inventory()
                .units()
                .forEach(u ->
                        byName.computeIfAbsent(u.name(), k -> new ArrayList<>()).add(u));
        byName.forEach((name, units) -> {
            boolean typed = units.stream().anyMatch(u -> !u.type().isEmpty());
            if (name.equals("shard") || (typed && !name.equals("mps"))) {
                java.util.Map<String, List<GresUnit>> byType = new java.util.LinkedHashMap<>();
                units.forEach(u ->
                        byType.computeIfAbsent(u.type(), k -> new ArrayList<>()).add(u));
                byType.forEach((type, ofType) -> {
                    List<Integer> idx = ofType.stream()
                            .filter(u -> v.gres().used(u) > 0)
                            .map(GresUnit::index)
                            .toList();
                    // Shards count the GPUs they come from; devices count themselves.
                    long used = name.equals("shard")
                            ? idx.size()
                            : ofType.stream().mapToLong(u -> v.gres().used(u)).sum();
                    parts.add(name + ":" + (type.isEmpty() ? "(null)" : type) + ":" + used + "(IDX:"
                            + (idx.isEmpty() ? "N/A" : IndexRanges.format(idx)) + ")");
                });
            } else {
                parts.add(name + ":"
                        + units.stream().mapToLong(u -> v.gres().used(u)).sum());
            }
        });
        return String.join(",", parts);
    }
}
