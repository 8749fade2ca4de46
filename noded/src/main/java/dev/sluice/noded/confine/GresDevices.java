package dev.sluice.noded.confine;

import dev.sluice.noded.job.GresGrant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The device files of this node's GRES, by name in gres.conf order, so that the index the
 * controller grants ({@code gpu} 1 = the second {@code File=} of the gpu lines, as
 * {@code GresInventory} numbers them) names a file. MPS and shards live on GPUs: their index is
 * the GPU's. What a job may not open is every file here it was not granted (Slurm 22.05's
 * ConstrainDevices: only GRES devices are denied, everything else stays open).
 */
public record GresDevices(Map<String, List<String>> filesByName) {
    public static final GresDevices NONE = new GresDevices(Map.of());

    public GresDevices {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        filesByName.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        filesByName = java.util.Collections.unmodifiableMap(copy);
    }

    private static String owner(String name) {
        return name.equals("mps") || name.equals("shard") ? "gpu" : name;
    }

    /** The files a job holding {@code grants} must not open, in gres.conf order, each once. */
    public List<String> denied(List<GresGrant> grants) {
        Set<String> allowed = new LinkedHashSet<>();
        for (GresGrant g : grants) {
            List<String> files = filesByName.getOrDefault(owner(g.name()), List.of());
            for (int index : g.indices()) {
                if (index >= 0 && index < files.size()) {
                    allowed.add(files.get(index));
                }
            }
        }
        Set<String> out = new LinkedHashSet<>();
        filesByName.forEach((name, files) -> {
            if (!name.equals("mps") && !name.equals("shard")) {
                files.stream().filter(f -> !allowed.contains(f)).forEach(out::add);
            }
        });
        return new ArrayList<>(out);
    }
}
