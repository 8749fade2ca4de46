package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A checked {@code gres.conf}: resource lines in file order, the global {@code AutoDetect} and
 * per-node {@code AutoDetect} overrides, and non-fatal remarks (Slurm logs these and carries on).
 */
public record GresConf(
        List<GresConfLine> lines,
        Optional<String> autoDetect,
        Map<String, String> nodeAutoDetect,
        List<String> warnings) {

    public GresConf {
        lines = List.copyOf(lines);
        requireNonNull(autoDetect, "autoDetect is null");
        nodeAutoDetect = Map.copyOf(nodeAutoDetect);
        warnings = List.copyOf(warnings);
    }

    /** The lines that apply to one node, in file order. */
    public List<GresConfLine> forNode(String nodeName) {
        return lines.stream().filter(l -> l.appliesTo(nodeName)).toList();
    }

    /** The AutoDetect mode for a node: its own in-line setting, else the global one, else {@code off}. */
    public String autoDetectFor(String nodeName) {
        return nodeAutoDetect.getOrDefault(nodeName, autoDetect.orElse("off"));
    }

    /** Total count of one GRES name on one node according to this file. */
    public long countFor(String nodeName, String gresName) {
        return forNode(nodeName).stream()
                .filter(l -> l.name().equalsIgnoreCase(gresName))
                .mapToLong(GresConfLine::count)
                .sum();
    }
}
