package dev.sluice.ctld.limits;

import dev.sluice.ctld.Builders;
import dev.sluice.ctld.state.Job;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * What the limit property tests draw and build: caps on cpu, mem, node and gres/gpu (each
 * sometimes absent), a policy whose one QOS is normal, and jobs placed on numbered nodes.
 */
final class LimitProperties {
    /** The TRES the caps name. */
    static final String[] TRES = {"cpu", "mem", "node", "gres/gpu"};

    private LimitProperties() {}

    /** Caps as sacctmgr gives them, -1 for none: up to 12 CPUs, 8000 MB, 3 nodes and 4 GPUs. */
    static Arbitrary<TresLimits> caps() {
        return Combinators.combine(
                        Arbitraries.longs().between(-1, 12),
                        Arbitraries.longs().between(-1, 8).map(n -> n < 0 ? -1 : n * 1000),
                        Arbitraries.longs().between(-1, 3),
                        Arbitraries.longs().between(-1, 4))
                .as((cpu, mem, node, gpu) ->
                        TresLimits.parse("cpu=" + cpu + ",mem=" + mem + ",node=" + node + ",gres/gpu=" + gpu));
    }

    /** {@code assocs} with the one QOS {@code normal}, no default accounts. */
    static AccountingPolicy policy(List<Association> assocs, Qos normal) {
        return new AccountingPolicy(1, assocs, Map.of(), Map.of("normal", normal), UserWckeys.NONE);
    }

    /** A pending job of {@code uid} in {@code account} under QOS normal, with {@code gpus} GPUs per node. */
    static Job job(int id, int uid, String account, int tasks, int nodes, long memPerNode, int gpus) {
        Builders.JobBuilder b = Builders.aJob()
                .uid(uid)
                .account(account)
                .qos("normal")
                .timeLimit(10)
                .tasks(tasks)
                .nodes(nodes)
                .memPerNode(memPerNode);
        if (gpus > 0) {
            b.gres("gpu:" + gpus);
        }
        return LimitedCluster.pending(id, b.build());
    }

    /** n{first}, n{first + 1} ...: {@code count} nodes. */
    static List<String> placed(int first, int count) {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            nodes.add("n" + (first + i));
        }
        return nodes;
    }
}
