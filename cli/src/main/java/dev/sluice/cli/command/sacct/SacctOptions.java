package dev.sluice.cli.command.sacct;

import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.OptionTable;

/** sacct's option table (Slurm 22.05 names); the ones Sluice cannot honour yet are refused. */
final class SacctOptions {
    private SacctOptions() {}

    static final OptionTable TABLE = OptionTable.builder()
            .add('a', "allusers", ArgKind.NONE)
            .add('A', "accounts", ArgKind.REQUIRED)
            .add('b', "brief", ArgKind.NONE)
            .unsupported('c', "completion", ArgKind.NONE)
            .add('D', "duplicates", ArgKind.NONE)
            .add((char) 0, "delimiter", ArgKind.REQUIRED)
            .add('e', "helpformat", ArgKind.NONE)
            .add('E', "endtime", ArgKind.REQUIRED)
            .unsupported('f', "file", ArgKind.REQUIRED)
            .unsupported('g', "gid", ArgKind.REQUIRED)
            .unsupported((char) 0, "group", ArgKind.REQUIRED)
            .add('h', "help", ArgKind.NONE)
            .unsupported('i', "nnodes", ArgKind.REQUIRED)
            .unsupported('I', "ncpus", ArgKind.REQUIRED)
            .add('j', "jobs", ArgKind.REQUIRED)
            .unsupported('k', "timelimit-min", ArgKind.REQUIRED)
            .unsupported('K', "timelimit-max", ArgKind.REQUIRED)
            .add('l', "long", ArgKind.NONE)
            .add('L', "allclusters", ArgKind.NONE)
            .add('M', "clusters", ArgKind.REQUIRED)
            .add('n', "noheader", ArgKind.NONE)
            .add((char) 0, "name", ArgKind.REQUIRED)
            .unsupported('N', "nodelist", ArgKind.REQUIRED)
            .add((char) 0, "noconvert", ArgKind.NONE)
            .add('o', "format", ArgKind.REQUIRED)
            .add('p', "parsable", ArgKind.NONE)
            .add('P', "parsable2", ArgKind.NONE)
            .add((char) 0, "json", ArgKind.NONE)
            .unsupported('q', "qos", ArgKind.REQUIRED)
            .add('r', "partition", ArgKind.REQUIRED)
            .unsupported('R', "reason", ArgKind.REQUIRED)
            .add('s', "state", ArgKind.REQUIRED)
            .add('S', "starttime", ArgKind.REQUIRED)
            .unsupported('T', "truncate", ArgKind.NONE)
            .add('u', "user", ArgKind.REQUIRED)
            .add((char) 0, "uid", ArgKind.REQUIRED, "user")
            .add((char) 0, "units", ArgKind.REQUIRED)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .unsupported('W', "wckeys", ArgKind.REQUIRED)
            .unsupported('x', "associations", ArgKind.REQUIRED)
            .add('X', "allocations", ArgKind.NONE)
            .build();

    static final String USAGE = "Usage: sacct [options]\n\tUse --help for help\n";

    static final String HELP = """
            sacct [<OPTION>]
                Valid <OPTION> values are:
                 -a, --allusers:
                               Display jobs for all users.
                 -A, --accounts:
                               Use this comma separated list of accounts to select jobs.
                 -b, --brief:
                               Equivalent to '--format=jobid,state,exitcode'.
                     --delimiter:
                               ASCII characters used to separate the fields when
                               specifying the -p or -P options.
                 -e, --helpformat:
                               Print a list of fields that can be specified with the
                               '--format' option
                 -E, --endtime:
                               Select jobs eligible before this time.
                 -h, --help:   Print this description of use.
                 -j, --jobs:
                               Format is <job(.step)>. Display information about this
                               job or comma-separated list of jobs.
                 -l, --long:
                               Equivalent to specifying
                               '--format=jobid,jobidraw,jobname,partition,maxvmsize,
                               maxvmsizenode,maxvmsizetask,avevmsize,maxrss,maxrssnode,
                               maxrsstask,averss,maxpages,maxpagesnode,maxpagestask,
                               avepages,mincpu,mincpunode,mincputask,avecpu,ntasks,
                               alloccpus,elapsed,state,exitcode,avecpufreq,reqcpufreqmin,
                               reqcpufreqmax,reqcpufreqgov,reqmem,consumedenergy,
                               maxdiskread,maxdiskreadnode,maxdiskreadtask,avediskread,
                               maxdiskwrite,maxdiskwritenode,maxdiskwritetask,avediskwrite,
                               reqtres,alloctres,tresusageinave,tresusageinmax,
                               tresusageinmaxn,tresusageinmaxt,tresusageinmin,
                               tresusageinminn,tresusageinmint,tresusageintot,
                               tresusageoutmax,tresusageoutmaxn,tresusageoutmaxt,
                               tresusageoutave,tresusageouttot'
                 -L, --allclusters:
                               Display jobs ran on all clusters.
                 -M, --clusters:
                               Only send data about these clusters.
                 -n, --noheader:
                               No header will be added to the beginning of output.
                     --name:
                               Display jobs that have any of these name(s).
                     --noconvert:
                               Don't convert units from their original type
                               (e.g. 2048M won't be converted to 2G).
                 -o, --format:
                               Comma separated list of fields (use "--helpformat" for a
                               list of available fields).
                 -p, --parsable: output will be '|' delimited with a '|' at the end
                 -P, --parsable2: output will be '|' delimited without a '|' at the end
                 -r, --partition:
                               Comma separated list of partitions to select jobs and
                               job steps from.
                 -s, --state:
                               Select jobs based on their state during the time period
                               given.
                 -S, --starttime:
                               Select jobs eligible after this time. Default is
                               00:00:00 of the current day, unless '-s' is set then
                               the default is 'now'.
                 -u, --uid, --user:
                               Use this comma separated list of uids or user names
                               to select jobs to display.
                     --units=[KMGTP]:
                               Display values in specified unit type. Takes
                               precedence over --noconvert option.
                 -V, --version: Print version.
                 -X, --allocations:
                               Only show statistics relevant to the job allocation
                               itself, not taking steps into consideration.
            """;
}
