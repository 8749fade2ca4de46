package dev.sluice.cli.command.sbatch;

import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code sbatch -W/--wait}: after the submission, asks the controller for the job until it (every
 * task of an array) has ended, and gives its exit code as sbatch's exit status, as Slurm 22.05
 * does: the script's exit code, 1 for a job ended by a signal, the highest over an array's tasks.
 *
 * <p>The controller does not push job ends to the command socket, so this polls one job's record,
 * backing off to one request every {@link #MAX_DELAY_MS} ms. Ctrl-C (the JVM's SIGINT, or the
 * agent interrupting the command's thread) stops the wait and leaves the job alone, as Slurm's does.
 */
final class SbatchWait {
    static final long FIRST_DELAY_MS = 100;
    static final long MAX_DELAY_MS = 2000;

    private SbatchWait() {}

    /** @return sbatch's exit status; 130 if the wait was interrupted */
    static int await(ControllerClient client, int jobId, PrintStream err) {
        long delay = FIRST_DELAY_MS;
        while (true) {
            List<JobInfo> jobs;
            try {
                jobs = client.call(ClientRequest.newBuilder()
                                .setGetJobs(GetJobsRequest.newBuilder().addJobIds(jobId)))
                        .getGetJobs()
                        .getJobsList();
            } catch (ControllerException e) {
                err.println(
                        "sbatch: error: Currently unable to load job state information, retrying: " + e.getMessage());
                jobs = null;
            }
            if (jobs != null && jobs.isEmpty()) {
                err.println("sbatch: error: Job " + Integer.toUnsignedString(jobId)
                        + " no longer found and exit code not found");
                return 1;
            }
            if (jobs != null && jobs.stream().allMatch(SbatchWait::ended)) {
                return jobs.stream()
                        .mapToInt(j -> exitCode(j.getExitStatus()))
                        .max()
                        .orElse(0);
            }
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 130;
            }
            delay = Math.min(MAX_DELAY_MS, delay * 2);
        }
    }

    private static boolean ended(JobInfo job) {
        JobState s = job.getState();
        return s != JobState.PENDING
                && s != JobState.RUNNING
                && s != JobState.SUSPENDED
                && s != JobState.JOB_STATE_UNSPECIFIED;
    }

    /** A raw wait status as sbatch reports it: the exit code, or 1 when a signal ended the job. */
    static int exitCode(int waitStatus) {
        return (waitStatus & 0x7f) == 0 ? (waitStatus >> 8) & 0xff : 1;
    }
}
