package dev.sluice.cli.command.sacct;

import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.OptionTable;

/**
 * sacct's command line: Slurm 22.05's long options in its table's order (read off the real
 * command: every prefix's ambiguity list), aliases included ({@code --help-fields},
 * {@code --group}, {@code --cluster}, {@code --fields}); {@code -t} is the old {@code -X}.
 * 22.05 has {@code --reason} but no {@code -R}.
 */
final class SacctOptions {
    private SacctOptions() {}

    static final OptionTable TABLE = OptionTable.builder()
            .inGivenOrder()
            .add('a', "allusers", ArgKind.NONE)
            .add('A', "accounts", ArgKind.REQUIRED)
            .add('X', "allocations", ArgKind.NONE)
            .add('b', "brief", ArgKind.NONE)
            .add('B', "batch-script", ArgKind.NONE)
            .add('c', "completion", ArgKind.NONE)
            .add('C', "constraints", ArgKind.REQUIRED)
            .add((char) 0, "delimiter", ArgKind.REQUIRED)
            .add('D', "duplicates", ArgKind.NONE)
            .add((char) 0, "federation", ArgKind.NONE)
            .add('e', "helpformat", ArgKind.NONE)
            .add('e', "help-fields", ArgKind.NONE, "helpformat")
            .add('E', "endtime", ArgKind.REQUIRED)
            .add((char) 0, "env-vars", ArgKind.NONE)
            .add('f', "file", ArgKind.REQUIRED)
            .add('F', "flags", ArgKind.REQUIRED)
            .add('g', "gid", ArgKind.REQUIRED)
            .add('g', "group", ArgKind.REQUIRED, "gid")
            .add('h', "help", ArgKind.NONE)
            .add((char) 0, "local", ArgKind.NONE)
            .add((char) 0, "name", ArgKind.REQUIRED)
            .add('i', "nnodes", ArgKind.REQUIRED)
            .add('I', "ncpus", ArgKind.REQUIRED)
            .add('j', "jobs", ArgKind.REQUIRED)
            .add('k', "timelimit-min", ArgKind.REQUIRED)
            .add('K', "timelimit-max", ArgKind.REQUIRED)
            .add('l', "long", ArgKind.NONE)
            .add('L', "allclusters", ArgKind.NONE)
            .add('M', "cluster", ArgKind.REQUIRED, "clusters")
            .add('M', "clusters", ArgKind.REQUIRED)
            .add('N', "nodelist", ArgKind.REQUIRED)
            .add((char) 0, "noconvert", ArgKind.NONE)
            .add((char) 0, "units", ArgKind.REQUIRED)
            .add('n', "noheader", ArgKind.NONE)
            .add('o', "fields", ArgKind.REQUIRED, "format")
            .add('o', "format", ArgKind.REQUIRED)
            .add('p', "parsable", ArgKind.NONE)
            .add('P', "parsable2", ArgKind.NONE)
            .add('q', "qos", ArgKind.REQUIRED)
            .add('r', "partition", ArgKind.REQUIRED)
            .add((char) 0, "reason", ArgKind.REQUIRED)
            .add('s', "state", ArgKind.REQUIRED)
            .add('S', "starttime", ArgKind.REQUIRED)
            .add('T', "truncate", ArgKind.NONE)
            .add('u', "uid", ArgKind.REQUIRED, "user")
            .add((char) 0, "use-local-uid", ArgKind.NONE)
            .add('U', "usage", ArgKind.NONE)
            .add('u', "user", ArgKind.REQUIRED)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .add('W', "wckeys", ArgKind.REQUIRED)
            .add((char) 0, "whole-hetjob", ArgKind.OPTIONAL)
            .add('x', "associations", ArgKind.REQUIRED)
            .add((char) 0, "json", ArgKind.NONE)
            .add((char) 0, "yaml", ArgKind.NONE)
            .add('t', null, ArgKind.NONE, "allocations")
            .build();

    static final String USAGE = "Usage: sacct [options]\n\tUse --help for help\n";

    static final String HELP = """
            sacct [<OPTION>]                                                           \s
                 Valid <OPTION> values are:                                             \s
                 -a, --allusers:                                                       \s
            \t           Display jobs for all users. By default, only the        \s
                               current user's jobs are displayed.  If ran by user root \s
                               this is the default.                                    \s
                 -A, --accounts:                                                       \s
            \t           Use this comma separated list of accounts to select jobs\s
                               to display.  By default, all accounts are selected.     \s
                 -b, --brief:                                                          \s
            \t           Equivalent to '--format=jobstep,state,error'.           \s
                 -B, --batch-script:                                                   \s
            \t           Print batch script of job.                              \s
                               NOTE: AccountingStoreFlags=job_script is required for this
                               NOTE: Requesting specific job(s) with '-j' is required  \s
                                     for this.                                         \s
                 -c, --completion: Use job completion instead of accounting data.      \s
                     --delimiter:                                                      \s
            \t           ASCII characters used to separate the fields when       \s
            \t           specifying the  -p  or  -P options. The default delimiter
            \t           is a '|'. This options is ignored if -p or -P options   \s
            \t           are not specified.                                      \s
                 -D, --duplicates:                                                     \s
            \t           If Slurm job ids are reset, some job numbers may        \s
            \t           appear more than once referring to different jobs.      \s
            \t           Without this option only the most recent jobs will be   \s
                               displayed.                                              \s
                 -e, --helpformat:                                                     \s
            \t           Print a list of fields that can be specified with the   \s
            \t           '--format' option                                       \s
                 -E, --endtime:                                                        \s
                               Select jobs eligible before this time.  If states are   \s
                               given with the -s option return jobs in this state before
                               this period.                                            \s
                     --env-vars:                                                       \s
            \t           Print the environment to launch the batch script of job.\s
                               NOTE: AccountingStoreFlags=job_env is required for this \s
                               NOTE: Requesting specific job(s) with '-j' is required  \s
                                     for this.                                         \s
                     --federation: Report jobs from federation if a member of a one.   \s
                 -f, --file=file:                                                      \s
            \t           Read data from the specified file, rather than Slurm's  \s
                               current accounting log file. (Only appliciable when     \s
                               running the jobcomp/filetxt plugin.)                    \s
                 -g, --gid, --group:                                                   \s
            \t           Use this comma separated list of gids or group names    \s
                               to select jobs to display.  By default, all groups are  \s
                               selected.                                               \s
                 -h, --help:   Print this description of use.                          \s
                 -i, --nnodes=N:                                                       \s
                               Return jobs which ran on this many nodes (N = min[-max])\s
                 -I, --ncpus=N:                                                        \s
                               Return jobs which ran on this many cpus (N = min[-max]) \s
                 -j, --jobs:                                                           \s
            \t           Format is <job(.step)>. Display information about this  \s
                               job or comma-separated list of jobs. The default is all \s
                               jobs. Adding .step will display the specific job step of\s
                               that job. (A step id of 'batch' will display the        \s
                               information about the batch step.)                      \s
                 --json:                                                               \s
                               Produce JSON output                                     \s
                 -k, --timelimit-min:                                                  \s
                               Only send data about jobs with this timelimit.          \s
                               If used with timelimit_max this will be the minimum     \s
                               timelimit of the range.  Default is no restriction.     \s
                 -K, --timelimit-max:                                                  \s
                               Ignored by itself, but if timelimit_min is set this will\s
                               be the maximum timelimit of the range.  Default is no   \s
                               restriction.                                            \s
                     --local   Report information only about jobs on the local cluster.\s
            \t           Overrides --federation.                                 \s
                 -l, --long:                                                           \s
            \t           Equivalent to specifying                                \s
            \t           '--format=jobid,jobidraw,jobname,partition,maxvmsize,   \s
                                         maxvmsizenode,maxvmsizetask,avevmsize,maxrss, \s
                                         maxrssnode,maxrsstask,averss,maxpages,        \s
                                         maxpagesnode,maxpagestask,avepages,mincpu,    \s
                                         mincpunode,mincputask,avecpu,ntasks,alloccpus,\s
                                         elapsed,state,exitcode,avecpufreq,reqcpufreqmin,
                                         reqcpufreqmax,reqcpufreqgov,reqmem,           \s
                                         consumedenergy,maxdiskread,maxdiskreadnode,   \s
                                         maxdiskreadtask,avediskread,maxdiskwrite,     \s
                                         maxdiskwritenode,maxdiskwritetask,avediskwrite,
                                         reqtres,alloctres,                            \s
                                         tresusageinave,tresusageinmax,tresusageinmaxn,\s
                                         tresusageinmaxt,tresusageinmin,tresusageinminn,
                                         tresusageinmint,tresusageintot,tresusageoutmax,
                                         tresusageoutmaxn,tresusageoutmaxt,            \s
                                         tresusageoutave,tresusageouttot               \s
                 -L, --allclusters:                                                    \s
            \t           Display jobs ran on all clusters. By default, only jobs \s
                               ran on the cluster from where sacct is called are       \s
                               displayed.                                              \s
                 -M, --clusters:                                                       \s
                               Only send data about these clusters. Use "all" for all\s
                               clusters.
                 -n, --noheader:                                                       \s
            \t           No header will be added to the beginning of output.     \s
                               The default is to print a header.                       \s
                 --noconvert:                                                          \s
            \t\t   Don't convert units from their original type            \s
            \t\t   (e.g. 2048M won't be converted to 2G).                  \s
                 -N, --nodelist:                                                       \s
                               Display jobs that ran on any of these nodes,            \s
                               can be one or more using a ranged string.               \s
                 --name:                                                               \s
                               Display jobs that have any of these name(s).            \s
                 -o, --format:                                                         \s
            \t           Comma separated list of fields. (use "--helpformat"   \s
                               for a list of available fields).                        \s
                 -p, --parsable: output will be '|' delimited with a '|' at the end    \s
                 -P, --parsable2: output will be '|' delimited without a '|' at the end\s
                 -q, --qos:                                                            \s
                               Only send data about jobs using these qos.  Default is all.
                 -r, --partition:                                                      \s
            \t           Comma separated list of partitions to select jobs and   \s
                               job steps from. The default is all partitions.          \s
                 -s, --state:                                                          \s
            \t           Select jobs based on their current state or the state   \s
                               they were in during the time period given: running (r), \s
                               completed (cd), failed (f), timeout (to), resizing (rs),\s
                               deadline (dl) and node_fail (nf).                       \s
                 -S, --starttime:                                                      \s
                               Select jobs eligible after this time.  Default is       \s
                               00:00:00 of the current day, unless '-s' is set then    \s
                               the default is 'now'.                                   \s
                 -T, --truncate:                                                       \s
                               Truncate time.  So if a job started before --starttime  \s
                               the start time would be truncated to --starttime.       \s
                               The same for end time and --endtime.                    \s
                 -u, --uid, --user:                                                    \s
            \t           Use this comma separated list of uids or user names     \s
                               to select jobs to display.  By default, the running     \s
                               user's uid is used.                                     \s
                 --units=[KMGTP]:                                                      \s
                               Display values in specified unit type. Takes precedence \s
            \t\t   over --noconvert option.                                \s
                 --usage:      Display brief usage message.                            \s
                 -v, --verbose:                                                        \s
            \t           Primarily for debugging purposes, report the state of   \s
                               various variables during processing.                    \s
                 -V, --version: Print version.                                         \s
                 -W, --wckeys:                                                         \s
                               Only send data about these wckeys.  Default is all.     \s
                 --whole-hetjob[=yes|no]:                                              \s
            \t\t   If set to 'yes' (or no argument), then information about\s
            \t\t   all the heterogeneous components will be retrieved. If  \s
            \t\t   set to 'no' only the specific filtered components will  \s
            \t\t   be retrieved. The default behavior without this option is
            \t\t   that all components are retrieved only if filtering the \s
            \t\t   leader component with --jobs.                           \s
                 -x, --associations:                                                   \s
                               Only send data about these association id.  Default is all.
                 -X, --allocations:                                                    \s
            \t           Only show statistics relevant to the job allocation     \s
            \t           itself, not taking steps into consideration.            \s
                 --yaml:                                                               \s
                               Produce YAML output                                     \s
            \t                                                                   \s
                 Note, valid start/end time formats are...                             \s
            \t           HH:MM[:SS] [AM|PM]                                      \s
            \t           MMDD[YY] or MM/DD[/YY] or MM.DD[.YY]                    \s
            \t           MM/DD[/YY]-HH:MM[:SS]                                   \s
            \t           YYYY-MM-DD[THH:MM[:SS]]                                 \s
            \t           now[{+|-}count[seconds(default)|minutes|hours|days|weeks]]

            """;
}
