package dev.sluice.cli.view;

import dev.sluice.common.hostlist.IndexRanges;
import dev.sluice.protocol.v1.GresGrant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The GRES a job holds on one node as slurmctld words them: {@code scontrol show job -d}'s
 * {@code GRES=} and the REST API's {@code gres_detail}.
 */
public final class GresText {
    private GresText() {}

    /** One node's: devices by index ({@code gpu:1(IDX:0)}), MPS by amount ({@code mps(CNT:50)}). */
    public static String ofNode(List<GresGrant> grants) {
        Map<String, List<GresGrant>> byName = new LinkedHashMap<>();
        for (GresGrant g : grants) {
            byName.computeIfAbsent(name(g), k -> new ArrayList<>()).add(g);
        }
        List<String> parts = new ArrayList<>();
        byName.forEach((name, gs) -> {
            long count = gs.stream().mapToLong(GresGrant::getCount).sum();
            if (name.equals("mps")) {
                parts.add(name + "(CNT:" + count + ")");
                return;
            }
            List<Integer> idx = gs.stream()
                    .flatMap(g -> g.getIndicesList().stream())
                    .distinct()
                    .sorted()
                    .toList();
            parts.add(name + ":" + count + "(IDX:" + (idx.isEmpty() ? "N/A" : IndexRanges.format(idx)) + ")");
        });
        return String.join(",", parts);
    }

    private static String name(GresGrant g) {
        return g.getType().isEmpty() ? g.getName() : g.getName() + ":" + g.getType();
    }
}
