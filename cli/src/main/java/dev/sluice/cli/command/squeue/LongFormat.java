package dev.sluice.cli.command.squeue;

import dev.sluice.cli.format.FormatNames;
import dev.sluice.cli.format.FormatToken;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * squeue's {@code -O/--Format}: comma-separated field names, each {@code name[:[.][width][suffix]]},
 * 20 columns wide and left-justified unless told otherwise, no separator between fields (checked
 * against Slurm 22.05: {@code -O "jobid:5,name:.10,state:.3"} prints {@code JOBID      NAMESTA}).
 * Each name maps to the {@code -o} letter that prints the same thing; unknown names are
 * reported and skipped, as Slurm does.
 */
final class LongFormat {
    private static final int DEFAULT_WIDTH = 20;

    private static final Map<String, Character> NAMES = Map.ofEntries(
            Map.entry("account", 'a'),
            Map.entry("arrayjobid", 'F'),
            Map.entry("arraytaskid", 'K'),
            Map.entry("batchhost", 'B'),
            Map.entry("command", 'o'),
            Map.entry("comment", 'k'),
            Map.entry("cpuspertask", JobColumn.CPUS_PER_TASK),
            Map.entry("dependency", 'E'),
            Map.entry("endtime", 'e'),
            Map.entry("feature", 'f'),
            Map.entry("groupid", 'G'),
            Map.entry("groupname", 'g'),
            Map.entry("jobid", 'i'),
            Map.entry("licenses", 'W'),
            Map.entry("mincpus", 'c'),
            Map.entry("minmemory", 'm'),
            Map.entry("name", 'j'),
            Map.entry("nice", 'y'),
            Map.entry("nodelist", 'N'),
            Map.entry("numcpus", 'C'),
            Map.entry("numnodes", 'D'),
            Map.entry("numtasks", JobColumn.NUM_TASKS),
            Map.entry("oversubscribe", 'h'),
            Map.entry("partition", 'P'),
            Map.entry("priority", 'p'),
            Map.entry("prioritylong", 'Q'),
            Map.entry("qos", 'q'),
            Map.entry("reason", 'r'),
            Map.entry("reasonlist", 'R'),
            Map.entry("reqnodes", 'n'),
            Map.entry("starttime", 'S'),
            Map.entry("state", 'T'),
            Map.entry("statecompact", 't'),
            Map.entry("submittime", 'V'),
            Map.entry("timeleft", 'L'),
            Map.entry("timelimit", 'l'),
            Map.entry("timeused", 'M'),
            Map.entry("tres-per-node", 'b'),
            Map.entry("userid", 'U'),
            Map.entry("username", 'u'),
            Map.entry("wckey", 'w'),
            Map.entry("workdir", 'Z'));

    private LongFormat() {}

    /** The fields of {@code spec}; names this command does not know go to {@code invalid}. */
    static List<FormatToken> parse(String spec, Consumer<String> invalid) {
        return FormatNames.parse(spec, NAMES, DEFAULT_WIDTH, invalid);
    }
}
