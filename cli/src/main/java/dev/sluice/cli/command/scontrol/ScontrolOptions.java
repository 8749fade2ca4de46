package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.OptionTable;

/** scontrol's options (Slurm 22.05 names); like getopt's, they may also follow the command words. */
final class ScontrolOptions {
    private ScontrolOptions() {}

    static final OptionTable TABLE = OptionTable.builder()
            .add('a', "all", ArgKind.NONE)
            .unsupported('M', "cluster", ArgKind.REQUIRED)
            .unsupported('M', "clusters", ArgKind.REQUIRED)
            .add('d', "details", ArgKind.NONE)
            .add((char) 0, "federation", ArgKind.NONE)
            .unsupported('F', "future", ArgKind.NONE)
            .add('h', "help", ArgKind.NONE)
            .add((char) 0, "hide", ArgKind.NONE)
            .unsupported((char) 0, "json", ArgKind.NONE)
            .add((char) 0, "local", ArgKind.NONE)
            .add('o', "oneliner", ArgKind.NONE)
            .add('Q', "quiet", ArgKind.NONE)
            .add((char) 0, "sibling", ArgKind.NONE)
            .unsupported('u', "uid", ArgKind.REQUIRED)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .unsupported((char) 0, "yaml", ArgKind.NONE)
            .build();

    static final String HELP = """
            scontrol [<OPTION>] [<COMMAND>]
                Valid <OPTION> values are:
                 -a or --all: equivalent to "all" command
                 -d or --details: equivalent to "details" command
                 -h or --help: equivalent to "help" command
                 --hide: equivalent to "hide" command
                 -o or --oneliner: equivalent to "oneliner" command
                 -Q or --quiet: equivalent to "quiet" command
                 -v or --verbose: equivalent to "verbose" command
                 -V or --version: equivalent to "version" command

              Valid <COMMAND> values implemented by Sluice are:
                 hold <job_list>          prevent jobs from being scheduled (operator hold).
                 ping                     print status of slurmctld daemons.
                 release <job_list>       permit held jobs to be scheduled.
                 requeue <job_id>         re-queue a batch job
                 requeuehold <job_id>     re-queue and hold a batch
                 resume <jobid_list>      resume previously suspended job (see suspend)
                 suspend <job_list>       susend specified job (see resume)
                 uhold <job_list>         place user hold on jobs.
                 show <ENTITY> [<ID>]     display state of identified entity, default
                                          is all records. <ENTITY> is one of job,
                                          node, partition, hostnames, hostlist,
                                          hostlistsorted or scalein (Sluice: nodes
                                          in the order to remove them).
                 update JobId=<id> TimeLimit=|JobName=|Comment=|Priority=|Nice=
                                          change a job.
                 update NodeName=<name> State=<state> Reason=<reason>
                                          change the state of nodes: DOWN, DRAIN,
                                          FAIL, FUTURE, IDLE, NORESP, POWER_DOWN,
                                          POWER_UP, RESUME or UNDRAIN.
            """;
}
