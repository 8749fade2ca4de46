package dev.sluice.noded.job;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * GRES a job (or a step) holds on this node: {@code gpu}, {@code mps}, {@code shard} or another
 * name, its type, the node's device indices (GPU numbers) and the count (an MPS or shard share).
 *
 * @param type empty when the grant names none
 */
public record GresGrant(String name, String type, List<Integer> indices, long count) {
    public GresGrant {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        indices = List.copyOf(indices);
    }

    /** Whether it holds (a share of) GPUs: {@code gpu}, {@code mps} or {@code shard}. */
    public boolean onGpus() {
        return name.equals("gpu") || name.equals("mps") || name.equals("shard");
    }

    /** The same grant with only {@code mine} of its indices, counted as many. */
    public GresGrant withIndices(List<Integer> mine) {
        return new GresGrant(name, type, mine, mine.size());
    }
}
