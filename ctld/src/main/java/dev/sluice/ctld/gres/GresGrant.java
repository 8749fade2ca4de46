package dev.sluice.ctld.gres;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * GRES given to a job on one node: which units of a name and how much. For {@code gpu} the
 * indices are the GPUs (count = their number); for {@code mps}/{@code shard} the one GPU whose
 * share is used and the amount; for count-only resources index 0 and the amount.
 */
public record GresGrant(String name, String type, List<Integer> indices, long count) {
    public GresGrant {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        indices = List.copyOf(indices);
    }
}
