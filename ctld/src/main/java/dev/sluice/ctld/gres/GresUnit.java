package dev.sluice.ctld.gres;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One allocatable piece of a node's generic resources. A GPU is one unit of capacity 1; the
 * MPS share or the shards of one GPU are one unit whose capacity is that GPU's count and whose
 * {@code index} is the GPU's; a count-only resource (licenses, bandwidth) is a single unit
 * holding the whole count.
 *
 * @param type the configured type ({@code a100}), empty when untyped
 * @param index the device index among the node's units of this name (GPU number for gpu, mps, shard)
 * @param file the device file, empty for count-only units
 * @param cores cores close to this device ({@code Cores=}), empty when any
 * @param consumable false for {@code no_consume}/{@code CountOnly} resources that never run out
 */
public record GresUnit(
        String name, String type, int index, String file, List<Integer> cores, long capacity, boolean consumable) {
    public GresUnit {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(file, "file is null");
        cores = List.copyOf(cores);
        if (capacity < 0) {
            throw new IllegalArgumentException("negative capacity");
        }
    }

    /** Units of these names share a GPU: a GPU given out whole serves no MPS or shard, and back. */
    public static boolean sharesGpu(String name) {
        return name.equals("mps") || name.equals("shard");
    }

    public String key() {
        return name + "#" + index;
    }
}
