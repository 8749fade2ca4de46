package dev.sluice.cli.command.sinfo;

import dev.sluice.cli.view.NodeNameOrder;
import dev.sluice.cli.view.NodeStates;
import java.util.Comparator;

/**
 * sinfo's {@code -S}: field letters as in {@code -o}, each optionally preceded by {@code +}
 * (ascending, the default) or {@code -}; {@code #P} is the partitions' configured order. Letters
 * sinfo cannot sort by are ignored, as Slurm 22.05 ignores them ({@code sinfo -S Q} succeeds).
 * Lines that tie keep the order they were grouped in.
 */
final class SinfoOrder {
    /** sinfo(1): partitions as configured, then decreasing state. */
    static final String DEFAULT = "#P,-t";
    /** sinfo(1): node-oriented output sorts by node name. */
    static final String NODES = "N";

    private SinfoOrder() {}

    static Comparator<SinfoLine> parse(String spec) {
        Comparator<SinfoLine> order = (a, b) -> 0;
        int i = 0;
        while (i < spec.length()) {
            char c = spec.charAt(i);
            if (c == ',' || c == ' ') {
                i++;
                continue;
            }
            boolean descending = false;
            if (c == '+' || c == '-') {
                descending = c == '-';
                if (++i >= spec.length()) {
                    break;
                }
                c = spec.charAt(i);
            }
            boolean configured = false;
            if (c == '#') {
                configured = true;
                if (++i >= spec.length()) {
                    break;
                }
                c = spec.charAt(i);
            }
            Comparator<SinfoLine> key = key(c, configured);
            if (key != null) {
                order = order.thenComparing(descending ? key.reversed() : key);
            }
            i++;
        }
        return order;
    }

    private static Comparator<SinfoLine> key(char letter, boolean configured) {
        return switch (letter) {
            case 'P', 'R' ->
                configured
                        ? Comparator.comparingInt(l -> l.first().partitionIndex())
                        : Comparator.comparing(l -> l.first().partition() == null
                                ? ""
                                : l.first().partition().getName());
            case 't', 'T' ->
                Comparator.comparingInt(l ->
                        l.first().empty() ? -1 : NodeStates.numeric(l.first().node()));
            case 'N' ->
                Comparator.comparing(
                        l -> l.first().empty() ? "" : l.nodes().get(0).getName(), NodeNameOrder.NATURAL);
            case 'D' -> Comparator.comparingInt(SinfoLine::nodeCount);
            case 'c' ->
                Comparator.comparingLong(l -> l.first().empty()
                        ? 0
                        : Integer.toUnsignedLong(l.first().node().getCpus()));
            case 'm' ->
                Comparator.comparingLong(
                        l -> l.first().empty() ? 0 : l.first().node().getRealMemoryMb());
            case 'd' ->
                Comparator.comparingLong(
                        l -> l.first().empty() ? 0 : l.first().node().getTmpDiskMb());
            case 'w' ->
                Comparator.comparingLong(l -> l.first().empty()
                        ? 0
                        : Integer.toUnsignedLong(l.first().node().getWeight()));
            case 'E' ->
                Comparator.comparing(
                        l -> l.first().empty() ? "" : l.first().node().getReason());
            case 'a', 'l', 's', 'h', 'g', 'r' -> Comparator.comparing(l -> SinfoColumn.value(letter, l));
            default -> null;
        };
    }
}
