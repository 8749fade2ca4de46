package dev.sluice.cli.command.squeue;

import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.OptionTable;

/** squeue's option table: Slurm 22.05's long and short names, unimplemented ones marked. */
final class SqueueOptions {
    private SqueueOptions() {}

    static final OptionTable TABLE = OptionTable.builder()
            .add('A', "account", ArgKind.REQUIRED)
            .add('a', "all", ArgKind.NONE)
            .add('r', "array", ArgKind.NONE)
            .unsupported((char) 0, "array-unique", ArgKind.NONE)
            .unsupported('M', "clusters", ArgKind.REQUIRED)
            .add((char) 0, "federation", ArgKind.NONE)
            .add('o', "format", ArgKind.REQUIRED)
            .add('O', "Format", ArgKind.REQUIRED)
            .add((char) 0, "help", ArgKind.NONE)
            .add((char) 0, "hide", ArgKind.NONE)
            .add('i', "iterate", ArgKind.REQUIRED)
            .add('j', "jobs", ArgKind.REQUIRED)
            .add((char) 0, "json", ArgKind.NONE)
            .unsupported('L', "licenses", ArgKind.REQUIRED)
            .add((char) 0, "local", ArgKind.NONE)
            .add('l', "long", ArgKind.NONE)
            .add((char) 0, "me", ArgKind.NONE)
            .add('n', "name", ArgKind.REQUIRED)
            .unsupported((char) 0, "noconvert", ArgKind.NONE)
            .add('w', "nodelist", ArgKind.REQUIRED)
            .add('h', "noheader", ArgKind.NONE)
            .add('p', "partition", ArgKind.REQUIRED)
            .add('q', "qos", ArgKind.REQUIRED)
            .unsupported('R', "reservation", ArgKind.REQUIRED)
            .add((char) 0, "sibling", ArgKind.NONE)
            .add('S', "sort", ArgKind.REQUIRED)
            .add((char) 0, "start", ArgKind.NONE)
            .add('s', "steps", ArgKind.OPTIONAL)
            .add('t', "states", ArgKind.REQUIRED)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('u', "user", ArgKind.REQUIRED)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .unsupported((char) 0, "yaml", ArgKind.NONE)
            .build();

    static final String USAGE = """
            Usage: squeue [-A account] [--job jobid] [-n name] [-o format] [-p partitions]
                          [--qos qos] [--sort fields] [--start] [-t states] [-u user_name]
                          [-w nodes] [--me] [--usage] [-ahlrv]
            """;

    static final String HELP = """
            Usage: squeue [OPTIONS]
              -A, --account=account(s)        comma separated list of accounts to view
              -a, --all                       display jobs in hidden partitions
              -h, --noheader                  no headers on output
                  --hide                      do not display jobs in hidden partitions
              -i, --iterate=seconds           specify an interation period
              -j, --jobs=job(s)               comma separated list of jobs IDs to view
                  --json                      Produce JSON output
              -l, --long                      long report
                  --me                        equivalent to --user=<my username>
              -n, --name=job_name(s)          comma separated list of job names to view
              -o, --format=format             format specification
              -O, --Format=format             format specification by field names
              -p, --partition=partition(s)    comma separated list of partitions to view
              -q, --qos=qos(s)                comma separated list of qos's to view
              -r, --array                     display one job array element per line
              -s, --steps                     comma separated list of job steps to view
              -S, --sort=fields               comma separated list of fields to sort on
                  --start                     print expected start times of pending jobs
              -t, --states=states             comma separated list of states to view,
                                              '--states=all' reports all states
              -u, --user=user_name(s)         comma separated list of users to view
              -v, --verbose                   verbosity level
              -V, --version                   output version information and exit
              -w, --nodelist=hostlist         list of nodes to view

            Help options:
              --help                          show this help message
              --usage                         display a brief summary of squeue options
            """;
}
