package dev.sluice.cli.command.scancel;

import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.OptionTable;

/** scancel's command line: Slurm 22.05's long options in its table's order, and its texts. */
final class ScancelOptions {
    private ScancelOptions() {}

    static final OptionTable TABLE = OptionTable.builder()
            .inGivenOrder()
            .add('A', "account", ArgKind.REQUIRED)
            .add('b', "batch", ArgKind.NONE)
            .add((char) 0, "ctld", ArgKind.NONE)
            .add('f', "full", ArgKind.NONE)
            .add((char) 0, "help", ArgKind.NONE)
            .add('H', "hurry", ArgKind.NONE)
            .add('i', "interactive", ArgKind.NONE)
            .add('M', "cluster", ArgKind.REQUIRED, "clusters")
            .add('M', "clusters", ArgKind.REQUIRED)
            .add('n', "jobname", ArgKind.REQUIRED, "name")
            .add((char) 0, "me", ArgKind.NONE)
            .add('n', "name", ArgKind.REQUIRED)
            .add('w', "nodelist", ArgKind.REQUIRED)
            .add('p', "partition", ArgKind.REQUIRED)
            .add('q', "qos", ArgKind.REQUIRED)
            .add('Q', "quiet", ArgKind.NONE)
            .add('R', "reservation", ArgKind.REQUIRED)
            .add((char) 0, "sibling", ArgKind.REQUIRED)
            .add('s', "signal", ArgKind.REQUIRED)
            .add('t', "state", ArgKind.REQUIRED)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('u', "user", ArgKind.REQUIRED)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .add((char) 0, "wckey", ArgKind.REQUIRED)
            .build();

    static final String USAGE = """
            Usage: scancel [-A account] [--batch] [--full] [--interactive] [-n job_name]
                           [-p partition] [-Q] [-q qos] [-R reservation] [-s signal | integer]
                           [-t PENDING | RUNNING | SUSPENDED] [--usage] [-u user_name]
                           [--hurry] [-V] [-v] [-w hosts...] [--wckey=wckey]
                           [job_id[_array_id][.step_id]]
            """;

    static final String HELP = """
            Usage: scancel [OPTIONS] [job_id[_array_id][.step_id]]
              -A, --account=account           act only on jobs charging this account
              -b, --batch                     signal batch shell for specified job
              -f, --full                      signal batch shell and all steps for specified job
              -H, --hurry                     avoid burst buffer stage out
              -i, --interactive               require response from user for each job
              -M, --clusters                  clusters to issue commands to.
                                              NOTE: SlurmDBD must be up.
              -n, --name=job_name             act only on jobs with this name
              -p, --partition=partition       act only on jobs in this partition
              -Q, --quiet                     disable warnings
              -q, --qos=qos                   act only on jobs with this quality of service
              -R, --reservation=reservation   act only on jobs with this reservation
                  --sibling=cluster_name      remove an active sibling job from a federated job
              -s, --signal=name | integer     signal to send to job, default is SIGKILL
              -t, --state=states              act only on jobs in this state.  Valid job
                                              states are PENDING, RUNNING and SUSPENDED
              -u, --user=user_name            act only on jobs of this user
              -V, --version                   output version information and exit
              -v, --verbose                   verbosity level
              -w, --nodelist                  act only on jobs on these nodes
                  --wckey=wckey               act only on jobs with this workload
                                              charactization key

            Help options:
              --help                          show this help message
              --usage                         display brief usage message
            """;
}
