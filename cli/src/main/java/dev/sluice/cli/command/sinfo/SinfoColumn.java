package dev.sluice.cli.command.sinfo;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.view.Limits;
import dev.sluice.cli.view.NodeStates;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One sinfo {@code -o} letter. A per-record column is printed from the first record of a line
 * and takes part in grouping (records that print differently get different lines); an aggregate
 * column ({@code %N}, {@code %D}, {@code %F}, ...) sums up all records of a line.
 */
record SinfoColumn(String header, boolean aggregate, Function<SinfoLine, String> value) {
    SinfoColumn {
        requireNonNull(header, "header is null");
        requireNonNull(value, "value is null");
    }

    static SinfoColumn part(String header, Function<PartitionInfo, String> f) {
        return new SinfoColumn(
                header,
                false,
                l -> l.first().partition() == null ? "n/a" : f.apply(l.first().partition()));
    }

    static SinfoColumn node(String header, Function<NodeInfo, String> f) {
        return new SinfoColumn(
                header,
                false,
                l -> l.first().empty() ? "n/a" : f.apply(l.first().node()));
    }

    static SinfoColumn total(String header, Function<SinfoLine, String> f) {
        return new SinfoColumn(header, true, f);
    }

    static final Map<Character, SinfoColumn> LETTERS = Map.ofEntries(
            Map.entry('P', part("PARTITION", p -> p.getName() + (p.getIsDefault() ? "*" : ""))),
            Map.entry('R', part("PARTITION", PartitionInfo::getName)),
            Map.entry('a', part("AVAIL", SinfoColumn::avail)),
            Map.entry('l', part("TIMELIMIT", p -> TimeLimit.formatSinfo(Limits.fromWire(p.getMaxTimeMinutes())))),
            Map.entry('L', part("DEFAULTTIME", SinfoColumn::defaultTime)),
            Map.entry('s', part("JOB_SIZE", SinfoColumn::jobSize)),
            Map.entry('r', part("ROOT", p -> p.getRootOnly() ? "yes" : "no")),
            Map.entry('h', part("OVERSUBSCRIBE", p -> orDefault(p.getOverSubscribe(), "NO"))),
            Map.entry('g', part("GROUPS", p -> orDefault(p.getAllowGroups(), "all"))),
            Map.entry(
                    't',
                    new SinfoColumn(
                            "STATE",
                            false,
                            l -> l.first().empty()
                                    ? "n/a"
                                    : NodeStates.compactName(l.first().node()))),
            Map.entry(
                    'T',
                    new SinfoColumn(
                            "STATE",
                            false,
                            l -> l.first().empty()
                                    ? "n/a"
                                    : NodeStates.longName(l.first().node()))),
            Map.entry('c', node("CPUS", n -> Integer.toUnsignedString(n.getCpus()))),
            Map.entry('m', node("MEMORY", n -> Long.toUnsignedString(n.getRealMemoryMb()))),
            Map.entry('d', node("TMP_DISK", n -> Long.toUnsignedString(n.getTmpDiskMb()))),
            Map.entry('w', node("WEIGHT", n -> Integer.toUnsignedString(n.getWeight()))),
            Map.entry('f', node("AVAIL_FEATURES", n -> orNull(String.join(",", n.getFeaturesList())))),
            Map.entry('b', node("ACTIVE_FEATURES", n -> orNull(String.join(",", n.getFeaturesList())))),
            Map.entry('G', node("GRES", n -> orNull(n.getGres()))),
            Map.entry('E', node("REASON", n -> orDefault(n.getReason(), "none"))),
            Map.entry('H', new SinfoColumn("TIMESTAMP", false, SinfoLine::reasonTime)),
            Map.entry('u', node("USER", n -> orDefault(n.getReasonUser(), "Unknown"))),
            Map.entry('U', new SinfoColumn("USER", false, SinfoLine::reasonUserWithId)),
            Map.entry(
                    'z',
                    node("S:C:T", n -> n.getSockets() + ":" + n.getCoresPerSocket() + ":" + n.getThreadsPerCore())),
            Map.entry('O', node("CPU_LOAD", n -> String.format(Locale.ROOT, "%.2f", n.getCpuLoad()))),
            Map.entry('e', node("FREE_MEM", n -> Long.toUnsignedString(n.getFreeMemoryMb()))),
            Map.entry('X', node("SOCKETS", n -> Integer.toUnsignedString(n.getSockets()))),
            Map.entry('Y', node("CORES", n -> Integer.toUnsignedString(n.getCoresPerSocket()))),
            Map.entry('Z', node("THREADS", n -> Integer.toUnsignedString(n.getThreadsPerCore()))),
            Map.entry('N', total("NODELIST", SinfoLine::nodeList)),
            Map.entry('n', total("HOSTNAMES", SinfoLine::hostNames)),
            Map.entry('o', total("NODE_ADDR", SinfoLine::addresses)),
            Map.entry('D', total("NODES", l -> Integer.toString(l.nodeCount()))),
            Map.entry('F', total("NODES(A/I/O/T)", SinfoLine::nodesAiot)),
            Map.entry('A', total("NODES(A/I)", SinfoLine::nodesAi)),
            Map.entry('C', total("CPUS(A/I/O/T)", SinfoLine::cpusAiot)));

    private static String avail(PartitionInfo p) {
        return switch (p.getState().toUpperCase(Locale.ROOT)) {
            case "", "UP" -> "up";
            case "DOWN" -> "down";
            case "DRAIN" -> "drain";
            case "INACTIVE" -> "inact";
            default -> p.getState().toLowerCase(Locale.ROOT);
        };
    }

    private static String defaultTime(PartitionInfo p) {
        // 0 on the wire is proto3's "unset": no DefaultTime configured, which sinfo shows as n/a.
        int wire = p.getDefaultTimeMinutes();
        return wire == 0 ? "n/a" : TimeLimit.formatSinfo(Limits.fromWire(wire));
    }

    private static String jobSize(PartitionInfo p) {
        long min = Math.max(1, Integer.toUnsignedLong(p.getMinNodes()));
        int max = p.getMaxNodes();
        String maxText = max == 0 || max == Limits.WIRE_INFINITE ? "infinite" : Integer.toUnsignedString(max);
        return min + "-" + maxText;
    }

    static String orNull(String s) {
        return s.isEmpty() ? "(null)" : s;
    }

    static String orDefault(String s, String dflt) {
        return s.isEmpty() ? dflt : s;
    }
}
