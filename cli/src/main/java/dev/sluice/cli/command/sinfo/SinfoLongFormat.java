package dev.sluice.cli.command.sinfo;

import dev.sluice.cli.format.FormatNames;
import dev.sluice.cli.format.FormatToken;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * sinfo's {@code -O/--Format}: comma-separated field names, each {@code name[:[.][width][suffix]]},
 * 20 columns wide and left-justified unless told otherwise, cut to the width, no separator
 * between fields (checked against Slurm 22.05: {@code -O "NodeList:5,Partition:.12,CPUs:3|"}
 * prints {@code NODEL   PARTITIONCPU|}). Names are case-insensitive; each maps to the {@code -o}
 * letter that prints the same thing, or to a column only {@code -O} has. An unknown name is
 * reported and skipped, and sinfo still succeeds, as 22.05 does.
 */
final class SinfoLongFormat {
    private static final int DEFAULT_WIDTH = 20;

    private static final Map<String, Character> NAMES = Map.ofEntries(
            Map.entry("allocmem", SinfoColumn.ALLOC_MEM),
            Map.entry("available", 'a'),
            Map.entry("cores", 'Y'),
            Map.entry("cpus", 'c'),
            Map.entry("cpusload", 'O'),
            Map.entry("cpusstate", 'C'),
            Map.entry("defaulttime", 'L'),
            Map.entry("disk", 'd'),
            Map.entry("features", 'f'),
            Map.entry("features_act", 'b'),
            Map.entry("freemem", 'e'),
            Map.entry("gres", 'G'),
            Map.entry("gresused", SinfoColumn.GRES_USED),
            Map.entry("groups", 'g'),
            Map.entry("memory", 'm'),
            Map.entry("nodeaddr", 'o'),
            Map.entry("nodeai", 'A'),
            Map.entry("nodeaiot", 'F'),
            Map.entry("nodehost", 'n'),
            Map.entry("nodelist", 'N'),
            Map.entry("nodes", 'D'),
            Map.entry("oversubscribe", 'h'),
            Map.entry("partition", 'P'),
            Map.entry("partitionname", 'R'),
            Map.entry("port", SinfoColumn.PORT),
            Map.entry("preemptmode", SinfoColumn.PREEMPT_MODE),
            Map.entry("prioritytier", SinfoColumn.PRIORITY_TIER),
            Map.entry("priorityjobfactor", SinfoColumn.PRIORITY_JOB_FACTOR),
            Map.entry("reason", 'E'),
            Map.entry("root", 'r'),
            Map.entry("size", 's'),
            Map.entry("socketcorethread", 'z'),
            Map.entry("sockets", 'X'),
            Map.entry("statecompact", 't'),
            Map.entry("statelong", 'T'),
            Map.entry("threads", 'Z'),
            Map.entry("time", 'l'),
            Map.entry("timestamp", 'H'),
            Map.entry("user", 'u'),
            Map.entry("userlong", 'U'),
            Map.entry("version", SinfoColumn.VERSION),
            Map.entry("weight", 'w'));

    private SinfoLongFormat() {}

    /** The fields of {@code spec}; names this command does not know go to {@code invalid}. */
    static List<FormatToken> parse(String spec, Consumer<String> invalid) {
        return FormatNames.parse(spec, NAMES, DEFAULT_WIDTH, invalid);
    }
}
