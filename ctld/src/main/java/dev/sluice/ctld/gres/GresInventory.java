package dev.sluice.ctld.gres;

import dev.sluice.common.conf.GresConfLine;
import dev.sluice.common.gres.GresSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node's generic resources as units, built from its {@code Gres=} list and the {@code gres.conf}
 * lines for it, as Slurm lays them out: GPUs numbered in {@code gres.conf} order (one unit per
 * {@code File}), MPS and shard counts spread over those GPUs (evenly unless {@code gres.conf}
 * binds counts to files), anything else one unit per file or one count-only unit.
 */
public record GresInventory(List<GresUnit> units) {
    public static final GresInventory NONE = new GresInventory(List.of());

    public GresInventory {
        units = List.copyOf(units);
    }

    public static GresInventory of(List<GresSpec> nodeGres, List<GresConfLine> lines) {
        List<GresUnit> units = new ArrayList<>();
        Map<String, List<GresSpec>> byName = new LinkedHashMap<>();
        nodeGres.forEach(
                s -> byName.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(s));
        List<GresUnit> gpus = devices("gpu", byName.getOrDefault("gpu", List.of()), linesFor(lines, "gpu"));
        units.addAll(gpus);
        for (Map.Entry<String, List<GresSpec>> e : byName.entrySet()) {
            String name = e.getKey();
            if (name.equals("gpu")) {
                continue;
            }
            if (GresUnit.sharesGpu(name)) {
                long total = e.getValue().stream().mapToLong(GresSpec::count).sum();
                units.addAll(shares(name, total, gpus, linesFor(lines, name)));
            } else {
                units.addAll(devices(name, e.getValue(), linesFor(lines, name)));
            }
        }
        return new GresInventory(units);
    }

    private static List<GresConfLine> linesFor(List<GresConfLine> lines, String name) {
        return lines.stream().filter(l -> l.name().equals(name)).toList();
    }

    private static List<GresUnit> devices(String name, List<GresSpec> specs, List<GresConfLine> lines) {
        List<GresUnit> out = new ArrayList<>();
        if (specs.isEmpty()) {
            return out;
        }
        boolean consumable = specs.stream().noneMatch(GresSpec::noConsume);
        boolean fileBacked = lines.stream().anyMatch(l -> !l.files().isEmpty());
        if (fileBacked) {
            for (GresConfLine line : lines) {
                String type = line.type().orElse("");
                boolean lineConsumable = consumable && !line.options().hasFlag("CountOnly");
                for (String file : line.files()) {
                    out.add(new GresUnit(
                            name, type, out.size(), file, line.affinity().cores(), 1, lineConsumable));
                }
            }
            return out;
        }
        if (name.equals("gpu")) {
            // Count-only GPUs: still individual devices, so indices can be handed out.
            for (GresSpec spec : specs) {
                for (long i = 0; i < spec.count(); i++) {
                    out.add(new GresUnit(name, spec.type().orElse(""), out.size(), "", List.of(), 1, consumable));
                }
            }
            return out;
        }
        for (GresSpec spec : specs) {
            out.add(new GresUnit(name, spec.type().orElse(""), out.size(), "", List.of(), spec.count(), consumable));
        }
        return out;
    }

    /** MPS or shards: each GPU's share as one unit with that GPU's index. */
    private static List<GresUnit> shares(String name, long total, List<GresUnit> gpus, List<GresConfLine> lines) {
        List<GresUnit> out = new ArrayList<>();
        List<GresConfLine> bound =
                lines.stream().filter(l -> !l.files().isEmpty()).toList();
        if (!bound.isEmpty()) {
            for (GresConfLine line : bound) {
                long each = line.countPerFile();
                for (String file : line.files()) {
                    int index = gpus.stream()
                            .filter(g -> g.file().equals(file))
                            .mapToInt(GresUnit::index)
                            .findFirst()
                            .orElse(out.size());
                    out.add(new GresUnit(name, "", index, file, line.affinity().cores(), each, true));
                }
            }
            return out;
        }
        if (gpus.isEmpty()) {
            out.add(new GresUnit(name, "", 0, "", List.of(), total, true));
            return out;
        }
        long each = total / gpus.size();
        long rest = total % gpus.size();
        for (GresUnit gpu : gpus) {
            long share = each + (gpu.index() < rest ? 1 : 0);
            out.add(new GresUnit(name, "", gpu.index(), gpu.file(), gpu.cores(), share, true));
        }
        return out;
    }

    public List<GresUnit> named(String name) {
        return units.stream().filter(u -> u.name().equals(name)).toList();
    }

    /** Does gres.conf bind any of these units to cores ({@code Cores=})? */
    public boolean hasCoreAffinity() {
        return units.stream().anyMatch(u -> !u.cores().isEmpty());
    }

    public long total(String name) {
        return named(name).stream().mapToLong(GresUnit::capacity).sum();
    }

    /** Slurm's {@code Gres=} column: {@code gpu:3,mps:300} (typed GPUs as {@code gpu:a100:2}). */
    public String describe() {
        Map<String, Long> totals = new LinkedHashMap<>();
        for (GresUnit u : units) {
            String key = u.type().isEmpty() ? u.name() : u.name() + ":" + u.type();
            totals.merge(key, u.capacity(), Long::sum);
        }
        List<String> parts = new ArrayList<>();
        totals.forEach((k, v) -> parts.add(k + ":" + v));
        return String.join(",", parts);
    }
}
