package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a node has: its hardware, and a dynamic node's own {@code Feature=} and {@code Gres=}
 * (empty for a node of slurm.conf, whose come from the configuration).
 *
 * @param gres the {@code Gres=} list as written ({@code gpu:a100:2})
 */
public record NodeEquipment(NodeHardware hardware, List<String> features, String gres) {
    public NodeEquipment {
        requireNonNull(hardware, "hardware is null");
        features = List.copyOf(features);
        requireNonNull(gres, "gres is null");
    }
}
