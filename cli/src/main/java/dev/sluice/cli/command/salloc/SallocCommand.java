package dev.sluice.cli.command.salloc;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.submit.ControllerRefusals;
import dev.sluice.cli.command.submit.JobSpecBuilder;
import dev.sluice.cli.command.submit.OptionChecks;
import dev.sluice.cli.command.submit.SubmitException;
import dev.sluice.cli.command.submit.SubmitLine;
import dev.sluice.cli.command.submit.SubmitOptions;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.JobSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code salloc}: an allocation, then a command on this host (default the user's shell) with
 * {@code SLURM_JOB_ID} and friends set, so that its {@code srun}s run steps in it; the
 * allocation is released when the command ends, with its status (salloc exits with it too).
 * Options are sbatch's and srun's shared model: what the job asks for goes to the same JobSpec
 * fields sbatch fills.
 */
public final class SallocCommand implements Command {
    private static final String PROG = "salloc";

    private static final SubmitLine LINE = new SubmitLine(PROG, SallocOptions.TABLE);

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        try {
            return allocate(inv, out, err);
        } catch (SubmitException e) {
            return LINE.refuse(e, out, err);
        }
    }

    private int allocate(Invocation inv, PrintStream out, PrintStream err) throws SubmitException {
        SubmitLine.Parsed line = LINE.read(inv, SallocOptions.ENV, SallocOptions.HELP, SallocOptions.USAGE, err);
        SubmitOptions o = line.options();
        OptionChecks.check(o, OptionChecks.Cluster.of(inv), inv, LINE.warnings(err));
        LINE.listDefined(line, inv, err);
        boolean noShell = o.has("no-shell");
        List<String> command = new ArrayList<>(line.operands());
        if (command.isEmpty() && !noShell) {
            command.addAll(defaultCommand(inv));
        }
        // Without -J, Slurm 22.05 names a --no-shell allocation "no-shell" and any other
        // "interactive", whatever command it runs.
        String name = noShell && command.isEmpty() ? "no-shell" : "interactive";
        JobSpec spec = JobSpecBuilder.allocation(o, inv, name, String.join(" ", command), LINE.warnings(err));
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty() || !CommandSupport.knownGres(inv, spec.getGresPerNode(), PROG, err)) {
            return 1;
        }
        Optional<String> refused = ControllerRefusals.of(o);
        if (refused.isPresent()) {
            err.println(PROG + ": error: Job submit/allocate failed: " + refused.get());
            return 1;
        }
        Allocation allocation;
        try {
            allocation = Allocation.submit(client.get(), spec);
        } catch (ControllerException e) {
            if (!e.userMessage().isEmpty()) {
                err.println(PROG + ": error: " + e.userMessage());
            }
            err.println(PROG + ": error: Job submit/allocate failed: " + e.getMessage());
            return 1;
        }
        boolean quiet = o.has("quiet");
        int status = 1 << 8;
        boolean release = true;
        try {
            Allocation.Wait wait = Allocation.Wait.of(o, true);
            Allocation.Start start = allocation.awaitStart(PROG, err, wait);
            if (start == Allocation.Start.TIMED_OUT) {
                release = false;
                allocation.release(0);
                if (wait.seconds() == 0 && allocation.heldByPartitionLimits()) {
                    err.println(PROG + ": error: Job submit/allocate failed: "
                            + ErrorCode.REQUESTED_PART_CONFIG_UNAVAILABLE.text());
                    return 1;
                }
                immediateFailed(allocation.jobId(), wait, err);
                return 1;
            }
            if (start == Allocation.Start.REVOKED) {
                return 1;
            }
            if (!quiet) {
                err.println(PROG + ": Granted job allocation " + allocation.jobId());
                err.flush();
            }
            if (!allocation.awaitProlog(PROG, err, !quiet)) {
                Optional<String> failedOn = allocation.prologFailedOn();
                if (failedOn.isPresent()) {
                    // Revoked by the controller: nothing left to relinquish (compat 264).
                    release = false;
                    err.println(PROG + ": Prolog failure on node " + failedOn.get());
                    err.println(PROG + ": Job allocation " + allocation.jobId() + " has been revoked.");
                    err.println(PROG + ": error: Job allocation " + allocation.jobId() + " has been revoked");
                }
                return 1;
            }
            if (noShell) {
                // The allocation stays until scancel or its time limit, as Slurm's does.
                release = false;
                return 0;
            }
            try {
                status = runHere(inv, command, allocation, spec.getWorkDir());
            } catch (IOException e) {
                // The command could not be started (not found, not executable): salloc 22.05's
                // words, whatever the reason (recorded, compat 025); the allocation is released.
                err.println(PROG + ": error: _fork_command: Unable to find command \"" + command.get(0) + "\"");
            }
        } catch (ControllerException e) {
            err.println(PROG + ": error: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (release) {
                if (!quiet) {
                    err.println(PROG + ": Relinquishing job allocation " + allocation.jobId());
                    err.flush();
                }
                allocation.release(status);
            }
        }
        return (status & 0x7f) != 0 ? 128 + (status & 0x7f) : (status >> 8) & 0xff;
    }

    /** Real salloc 22.05's lines for {@code -I} and {@code -I N} when the job did not start in time. */
    private static void immediateFailed(int jobId, Allocation.Wait wait, PrintStream err) {
        if (wait.seconds() == 0) {
            err.println(PROG + ": Job allocation " + jobId + " has been revoked.");
            err.println(PROG + ": error: Unable to allocate resources: Requested nodes are busy");
        } else {
            err.println(PROG + ": error: Unable to allocate resources: Connection timed out");
            err.println(PROG + ": Job allocation " + jobId + " has been revoked.");
        }
    }

    /** {@link DefaultCommand}; the user's shell when slurm.conf cannot be read (connecting reports that). */
    private static List<String> defaultCommand(Invocation inv) {
        try {
            SlurmConf conf = inv.setup()
                    .access(ControllerLocator.confPath(inv.env(), inv.cwd()))
                    .conf();
            return DefaultCommand.of(conf, inv.env());
        } catch (ConfigException | IllegalArgumentException e) {
            return List.of(inv.env().getOrDefault("SHELL", "/bin/sh"));
        }
    }

    /**
     * Runs the command on this host, as the caller and on the caller's terminal (through
     * sluice-agent: started by the caller's front end, never by the agent), in the job's working
     * directory ({@code -D}); returns its wait status.
     */
    private static int runHere(Invocation inv, List<String> command, Allocation allocation, String workDir)
            throws IOException, InterruptedException {
        return inv.callerSide()
                .run(command, allocation.environment(inv.env(), CommandSupport.clusterName(inv)), workDir);
    }
}
