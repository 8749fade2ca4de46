package dev.sluice.cli.command.submit;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import java.io.PrintStream;
import java.time.Instant;

/** sbatch's and srun's {@code --test-only}. */
public final class TestOnly {
    private TestOnly() {}

    /**
     * {@code --test-only}: the controller places the job as its scheduler would, submits nothing
     * and answers where and when; Slurm 22.05's line (sbatch's, srun's) goes to standard error (not with -Q). A job
     * that could not run prints {@code allocation failure: TEXT}, exit status 1.
     */
    public static int run(
            String program, ControllerClient client, JobSpec spec, boolean quiet, Invocation inv, PrintStream err) {
        SubmitBatchJobResponse r;
        try {
            r = client.call(ClientRequest.newBuilder()
                            .setSubmitBatchJob(SubmitBatchJobRequest.newBuilder()
                                    .setSpec(spec)
                                    .setTestOnly(true)))
                    .getSubmitBatchJob();
        } catch (ControllerException e) {
            // The controller's own line first, as for a submission (Slurm 22.05: "sbatch: error:
            // invalid partition specified: nosuch" above the failure).
            if (!e.userMessage().isEmpty()) {
                err.println(program + ": error: " + e.userMessage());
            }
            err.println("allocation failure: " + e.getMessage());
            return 1;
        }
        if (!quiet) {
            err.println(program + ": Job " + Integer.toUnsignedString(r.getJobId()) + " to start at "
                    + SlurmTimestamp.format(
                            Instant.ofEpochSecond(r.getStartTime()), inv.clock().getZone())
                    + " using " + r.getCpus() + " processors on nodes " + r.getNodeList() + " in partition "
                    + r.getPartition());
        }
        return 0;
    }
}
