package dev.sluice.cli.command.sinfo;

import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.OptionTable;

/**
 * sinfo's option table: Slurm 22.05's long options in its table's order (read off the real
 * command: every prefix's ambiguity list), {@code --cluster} included; the formats its modes use.
 */
final class SinfoOptions {
    private SinfoOptions() {}

    static final OptionTable TABLE = OptionTable.builder()
            .inGivenOrder()
            .add('a', "all", ArgKind.NONE)
            .add('d', "dead", ArgKind.NONE)
            .add('e', "exact", ArgKind.NONE)
            .add((char) 0, "federation", ArgKind.NONE)
            .add((char) 0, "help", ArgKind.NONE)
            .add((char) 0, "hide", ArgKind.NONE)
            .add('i', "iterate", ArgKind.REQUIRED)
            .add((char) 0, "local", ArgKind.NONE)
            .add('l', "long", ArgKind.NONE)
            .add('M', "cluster", ArgKind.REQUIRED, "clusters")
            .add('M', "clusters", ArgKind.REQUIRED)
            .add('n', "nodes", ArgKind.REQUIRED)
            .add((char) 0, "noconvert", ArgKind.NONE)
            .add('h', "noheader", ArgKind.NONE)
            .add('N', "Node", ArgKind.NONE)
            .add('o', "format", ArgKind.REQUIRED)
            .add('O', "Format", ArgKind.REQUIRED)
            .add('p', "partition", ArgKind.REQUIRED)
            .add('r', "responding", ArgKind.NONE)
            .add('R', "list-reasons", ArgKind.NONE)
            .add('s', "summarize", ArgKind.NONE)
            .add('S', "sort", ArgKind.REQUIRED)
            .add('t', "states", ArgKind.REQUIRED)
            .add('T', "reservation", ArgKind.NONE)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .add((char) 0, "json", ArgKind.NONE)
            .add((char) 0, "yaml", ArgKind.NONE)
            .build();

    // sinfo(1)'s formats; "#" stands for the width of the longest partition name or node name,
    // filled in per run. In node-oriented formats the partition is right-justified (observed).
    static final String DEFAULT = "%#P %.5a %.10l %.6D %.6t %N";
    static final String SUMMARIZE = "%#P %.5a %.10l %.16F %N";
    static final String LONG = "%#P %.5a %.10l %.10s %.4r %.8h %.10g %.6D %.11T %N";
    static final String NODE = "%#N %.6D %.#P %6t";
    static final String NODE_LONG = "%#N %.6D %.#P %.11T %.4c %.8z %.6m %.8d %.6w %.8f %20E";
    static final String REASONS = "%20E %9u %19H %N";
    static final String REASONS_LONG = "%20E %12U %19H %6t %N";

    static final String USAGE = """
            Usage: sinfo [-abdelNRrsTv] [-i seconds] [-t states] [-p partition] [-n nodes]
                         [-S fields] [-o format] [-O Format] [--federation] [--local]
            """;

    static final String HELP = """
            Usage: sinfo [OPTIONS]
              -a, --all                  show all partitions (including hidden and those
            \t\t\t     not accessible)
              -d, --dead                 show only non-responding nodes
              -e, --exact                group nodes only on exact match of configuration
                  --federation           Report federated information if a member of one
              -h, --noheader             no headers on output
              --hide                     do not show hidden or non-accessible partitions
              -i, --iterate=seconds      specify an iteration period
                  --json                 Produce JSON output
                  --local                show only local cluster in a federation.
                                         Overrides --federation.
              -l, --long                 long output - displays more information
              -M, --clusters=names       clusters to issue commands to. Implies --local.
                                         NOTE: SlurmDBD must be up.
              -n, --nodes=NODES          report on specific node(s)
              --noconvert                don't convert units from their original type
            \t\t\t     (e.g. 2048M won't be converted to 2G).
              -N, --Node                 Node-centric format
              -o, --format=format        format specification
              -O, --Format=format        long format specification
              -p, --partition=PARTITION  report on specific partition
              -r, --responding           report only responding nodes
              -R, --list-reasons         list reason nodes are down or drained
              -s, --summarize            report state summary only
              -S, --sort=fields          comma separated list of fields to sort on
              -t, --states=node_state    specify the what states of nodes to view
              -T, --reservation          show only reservation information
              -v, --verbose              verbosity level
              -V, --version              output version information and exit
                  --yaml                 Produce YAML output

            Help options:
              --help                     show this help message
              --usage                    display brief usage message
            """;
}
