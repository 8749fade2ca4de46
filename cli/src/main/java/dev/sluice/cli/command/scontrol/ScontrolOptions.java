package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.OptionTable;

/** scontrol's options (Slurm 22.05 names); like getopt's, they may also follow the command words. */
final class ScontrolOptions {
    private ScontrolOptions() {}

    /**
     * Slurm 22.05's scontrol table, in its order (read off the real command: {@code --x=1} for
     * every letter lists an ambiguous prefix's options in table order). 22.05 has no
     * {@code --json}/{@code --yaml} (23.02 added them): they are unrecognized, as there.
     */
    static final OptionTable TABLE = OptionTable.builder()
            .inGivenOrder()
            .add('a', "all", ArgKind.NONE)
            .add('M', "cluster", ArgKind.REQUIRED, "clusters")
            .add('M', "clusters", ArgKind.REQUIRED)
            .add('d', "details", ArgKind.NONE)
            .add((char) 0, "federation", ArgKind.NONE)
            .add('F', "future", ArgKind.NONE)
            .add('h', "help", ArgKind.NONE)
            .add((char) 0, "hide", ArgKind.NONE)
            .add((char) 0, "local", ArgKind.NONE)
            .add('o', "oneliner", ArgKind.NONE)
            .add('Q', "quiet", ArgKind.NONE)
            .add((char) 0, "sibling", ArgKind.NONE)
            .add('u', "uid", ArgKind.REQUIRED)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .build();

    static final String HELP = """
            scontrol [<OPTION>] [<COMMAND>]
                Valid <OPTION> values are:
                 -a, --all      Equivalent to "all" command
                 -d, --details  Equivalent to "details" command
                 --federation   Report federated job information if a member of a  one
                 -F, --future   Report information about nodes in "FUTURE" state.
                 -h, --help     Equivalent to "help" command
                 --hide         Equivalent to "hide" command
                 --local        Report information only about jobs on the local cluster.
                                Overrides --federation.
                 -M, --cluster  Equivalent to "cluster" command. Implies --local.
                                NOTE: SlurmDBD must be up.
                 -o, --oneliner Equivalent to "oneliner" command
                 -Q, --quiet    Equivalent to "quiet" command
                 --sibling      Report information about all sibling jobs on a
                                federated cluster. Implies --federation option.
                 -u,--uid       Update job as user "uid" instead of the invoking user.
                 -v, --verbose  Equivalent to "verbose" command
                 -V, --version  Equivalent to "version" command

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
