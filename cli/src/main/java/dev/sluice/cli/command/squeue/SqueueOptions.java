package dev.sluice.cli.command.squeue;

import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.OptionTable;

/**
 * squeue's command line: Slurm 22.05's long options in its table's order (read off the real
 * command: every prefix's ambiguity list), aliases included ({@code --cluster}, {@code --node},
 * {@code --sib}...), and the short-only {@code -U} (old spelling of {@code -A}); its texts.
 */
final class SqueueOptions {
    private SqueueOptions() {}

    static final OptionTable TABLE = OptionTable.builder()
            .inGivenOrder()
            .add('A', "accounts", ArgKind.REQUIRED, "account")
            .add('a', "all", ArgKind.NONE)
            .add('r', "array", ArgKind.NONE)
            .add((char) 0, "array-unique", ArgKind.NONE)
            .add('O', "Format", ArgKind.REQUIRED)
            .add('o', "format", ArgKind.REQUIRED)
            .add((char) 0, "federation", ArgKind.NONE)
            .add((char) 0, "help", ArgKind.NONE)
            .add((char) 0, "hide", ArgKind.NONE)
            .add('i', "iterate", ArgKind.REQUIRED)
            .add('j', "jobs", ArgKind.OPTIONAL)
            .add((char) 0, "json", ArgKind.NONE)
            .add((char) 0, "local", ArgKind.NONE)
            .add('l', "long", ArgKind.NONE)
            .add('L', "licenses", ArgKind.REQUIRED)
            .add('M', "cluster", ArgKind.REQUIRED, "clusters")
            .add('M', "clusters", ArgKind.REQUIRED)
            .add((char) 0, "me", ArgKind.NONE)
            .add('n', "name", ArgKind.REQUIRED)
            .add((char) 0, "noconvert", ArgKind.NONE)
            .add('w', "node", ArgKind.REQUIRED, "nodelist")
            .add('w', "nodes", ArgKind.REQUIRED, "nodelist")
            .add('w', "nodelist", ArgKind.REQUIRED)
            .add('h', "noheader", ArgKind.NONE)
            .add('p', "partitions", ArgKind.REQUIRED, "partition")
            .add('P', "priority", ArgKind.NONE)
            .add('q', "qos", ArgKind.REQUIRED)
            .add('R', "reservation", ArgKind.REQUIRED)
            .add((char) 0, "sib", ArgKind.NONE, "sibling")
            .add((char) 0, "sibling", ArgKind.NONE)
            .add('S', "sort", ArgKind.REQUIRED)
            .add((char) 0, "start", ArgKind.NONE)
            .add('s', "steps", ArgKind.OPTIONAL)
            .add('t', "states", ArgKind.REQUIRED)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('u', "user", ArgKind.REQUIRED)
            .add('u', "users", ArgKind.REQUIRED, "user")
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .add((char) 0, "yaml", ArgKind.NONE)
            .add('U', null, ArgKind.REQUIRED, "account")
            .build();

    static final String USAGE = """
            Usage: squeue [-A account] [--clusters names] [-i seconds] [--job jobid]
                          [-n name] [-o format] [-p partitions] [--qos qos]
                          [--reservation reservation] [--sort fields] [--start]
                          [--step step_id] [-t states] [-u user_name] [--usage]
                          [-L licenses] [-w nodes] [--federation] [--local] [--sibling]
            \t      [-ahjlrsv]
            """;

    static final String HELP = """
            Usage: squeue [OPTIONS]
              -A, --account=account(s)        comma separated list of accounts
            \t\t\t\t  to view, default is all accounts
              -a, --all                       display jobs in hidden partitions
                  --array-unique              display one unique pending job array
                                              element per line
                  --federation                Report federated information if a member
                                              of one
              -h, --noheader                  no headers on output
                  --hide                      do not display jobs in hidden partitions
              -i, --iterate=seconds           specify an interation period
              -j, --job=job(s)                comma separated list of jobs IDs
                                              to view, default is all
                  --json                      Produce JSON output
                  --local                     Report information only about jobs on the
                                              local cluster. Overrides --federation.
              -l, --long                      long report
              -L, --licenses=(license names)  comma separated list of license names to view
              -M, --clusters=cluster_name     cluster to issue commands to.  Default is
                                              current cluster.  cluster with no name will
                                              reset to default. Implies --local.
              -n, --name=job_name(s)          comma separated list of job names to view
                  --noconvert                 don't convert units from their original type
                                              (e.g. 2048M won't be converted to 2G).
              -o, --format=format             format specification
              -O, --Format=format             format specification
              -p, --partition=partition(s)    comma separated list of partitions
            \t\t\t\t  to view, default is all partitions
              -q, --qos=qos(s)                comma separated list of qos's
            \t\t\t\t  to view, default is all qos's
              -R, --reservation=name          reservation to view, default is all
              -r, --array                     display one job array element per line
                  --sibling                   Report information about all sibling jobs
                                              on a federated cluster. Implies --federation.
              -s, --step=step(s)              comma separated list of job steps
            \t\t\t\t  to view, default is all
              -S, --sort=fields               comma separated list of fields to sort on
                  --start                     print expected start times of pending jobs
              -t, --states=states             comma separated list of states to view,
            \t\t\t\t  default is pending and running,
            \t\t\t\t  '--states=all' reports all states
              -u, --user=user_name(s)         comma separated list of users to view
                  --name=job_name(s)          comma separated list of job names to view
              -v, --verbose                   verbosity level
              -V, --version                   output version information and exit
              -w, --nodelist=hostlist         list of nodes to view, default is\s
            \t\t\t\t  all nodes
                  --yaml                      Produce YAML output

            Help options:
              --help                          show this help message
              --usage                         display a brief summary of squeue options
            """;
}
