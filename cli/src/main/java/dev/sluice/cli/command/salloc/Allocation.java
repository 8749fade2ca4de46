package dev.sluice.cli.command.salloc;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.submit.WarnSignalOption;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.CompleteAllocationRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A job allocation without a batch script, as salloc and a lone srun make one: submitted,
 * awaited until it runs (printing Slurm's "queued and waiting" lines), described to the command
 * that uses it by Slurm's variables, and released with that command's status.
 */
public final class Allocation {
    private final ControllerClient client;
    private final int jobId;
    private JobInfo info;

    private Allocation(ControllerClient client, int jobId) {
        this.client = client;
        this.jobId = jobId;
    }

    /** What the allocation asks for; 0 or empty = not given. */
    public record Request(
            String name,
            int nodes,
            int tasks,
            int cpusPerTask,
            String gres,
            String partition,
            String timeLimit,
            boolean exclusive,
            String command,
            Optional<WarnSignalOption.Spec> signal) {}

    public int jobId() {
        return jobId;
    }

    public JobInfo info() {
        return info;
    }

    /**
     * Submits the allocation.
     *
     * @throws IllegalArgumentException for a time limit Slurm would not parse
     */
    public static Allocation submit(ControllerClient client, Invocation inv, Request r) throws ControllerException {
        JobSpec.Builder spec = JobSpec.newBuilder()
                .setName(r.name())
                .setWorkDir(inv.cwd().toString())
                .putAllEnvironment(dev.sluice.cli.command.CommandSupport.wireEnvironment(inv.env()))
                .setMinNodes(r.nodes())
                .setMaxNodes(r.nodes())
                .setNumTasks(r.tasks())
                .setCpusPerTask(r.cpusPerTask())
                .setGresPerNode(r.gres())
                .setPartition(r.partition())
                .setExclusive(r.exclusive())
                .setSubmitHost(inv.caller().host())
                .setCommand(r.command())
                .setTimeLimitMinutes((int) minutes(r.timeLimit()));
        r.signal().ifPresent(s -> s.applyTo(spec));
        int id = client.call(ClientRequest.newBuilder()
                        .setSubmitBatchJob(
                                SubmitBatchJobRequest.newBuilder().setSpec(spec).setAllocation(true)))
                .getSubmitBatchJob()
                .getJobId();
        return new Allocation(client, id);
    }

    private static long minutes(String text) {
        if (text.isEmpty()) {
            return SlurmLimits.NO_VAL;
        }
        return SlurmLimits.toUint32(TimeLimit.parseMinutes(text));
    }

    /**
     * Waits until the job runs. {@code false} when it ended without running (cancelled while
     * pending): the caller stops.
     */
    public boolean awaitStart(String program, PrintStream err) throws ControllerException, InterruptedException {
        boolean told = false;
        long delayMs = 50;
        while (true) {
            info = client.call(ClientRequest.newBuilder()
                            .setGetJobs(GetJobsRequest.newBuilder().addJobIds(jobId)))
                    .getGetJobs()
                    .getJobs(0);
            if (info.getState() == JobState.RUNNING) {
                if (told) {
                    err.println(program + ": job " + jobId + " has been allocated resources");
                    err.flush();
                }
                return true;
            }
            if (info.getState() != JobState.PENDING) {
                err.println(program + ": error: Job allocation " + jobId + " has been revoked.");
                return false;
            }
            if (!told) {
                err.println(program + ": job " + jobId + " queued and waiting for resources");
                err.flush();
                told = true;
            }
            // No push from the controller to the command socket: srun and salloc poll, backing off.
            Thread.sleep(delayMs);
            delayMs = Math.min(1000, delayMs * 2);
        }
    }

    /** Slurm's variables for what runs in the allocation. */
    public Map<String, String> environment(Map<String, String> base) {
        Map<String, String> env = new LinkedHashMap<>(base);
        String id = Integer.toString(jobId);
        env.put("SLURM_JOB_ID", id);
        env.put("SLURM_JOBID", id);
        env.put("SLURM_JOB_NAME", info.getSpec().getName());
        env.put("SLURM_JOB_NODELIST", info.getNodeList());
        env.put("SLURM_NODELIST", info.getNodeList());
        env.put("SLURM_JOB_NUM_NODES", Integer.toString(info.getNumNodes()));
        env.put("SLURM_NNODES", Integer.toString(info.getNumNodes()));
        env.put("SLURM_JOB_PARTITION", info.getPartition());
        env.put("SLURM_SUBMIT_DIR", info.getSpec().getWorkDir());
        env.put("SLURM_SUBMIT_HOST", info.getSpec().getSubmitHost());
        int tasks = info.getSpec().getNumTasks();
        if (tasks > 0) {
            env.put("SLURM_NTASKS", Integer.toString(tasks));
            env.put("SLURM_NPROCS", Integer.toString(tasks));
        }
        if (info.getSpec().getCpusPerTask() > 0) {
            env.put("SLURM_CPUS_PER_TASK", Integer.toString(info.getSpec().getCpusPerTask()));
        }
        return env;
    }

    /** The command ended with this wait status: the job ends (COMPLETED for 0). */
    public void release(int status) {
        try {
            client.call(ClientRequest.newBuilder()
                    .setCompleteAllocation(CompleteAllocationRequest.newBuilder()
                            .setJobId(jobId)
                            .setStatus(status)));
        } catch (ControllerException e) {
            // Already ended (scancel, time limit): nothing left to release.
        }
    }
}
