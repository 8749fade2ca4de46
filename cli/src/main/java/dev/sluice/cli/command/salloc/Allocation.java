package dev.sluice.cli.command.salloc;

import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.submit.SubmitOptions;
import dev.sluice.common.slurm.JobReason;
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

/**
 * A job allocation without a batch script, as salloc and a lone srun make one: submitted,
 * awaited until it runs (printing Slurm's "queued and waiting" lines), described to the command
 * that uses it by Slurm's variables, and released with that command's status.
 */
public final class Allocation {
    private final ControllerClient client;
    private final int jobId;
    /** How often salloc asks whether the Prolog is done: salloc 22.05 asks every 3 s, the command starts sooner here. */
    private static final long PROLOG_POLL_MS = 500;

    private JobInfo info;

    private Allocation(ControllerClient client, int jobId) {
        this.client = client;
        this.jobId = jobId;
    }

    public int jobId() {
        return jobId;
    }

    public JobInfo info() {
        return info;
    }

    /** Submits the allocation (a JobSpec from {@code JobSpecBuilder.allocation}). */
    public static Allocation submit(ControllerClient client, JobSpec spec) throws ControllerException {
        int id = client.call(ClientRequest.newBuilder()
                        .setSubmitBatchJob(
                                SubmitBatchJobRequest.newBuilder().setSpec(spec).setAllocation(true)))
                .getSubmitBatchJob()
                .getJobId();
        return new Allocation(client, id);
    }

    /**
     * Waits until the job runs. {@code false} when it ended without running (cancelled while
     * pending): the caller stops.
     */
    public boolean awaitStart(String program, PrintStream err) throws ControllerException, InterruptedException {
        return awaitStart(program, err, Wait.FOREVER) == Start.RUNNING;
    }

    /** How long to wait for the start: {@code -I/--immediate[=secs]} bounds it. */
    public record Wait(long seconds, boolean pendingLine) {
        public static final Wait FOREVER = new Wait(-1, false);

        /** {@code -I} alone: at once; {@code -I N}: N seconds; leading digits count, as strtol reads them. */
        public static Wait of(SubmitOptions o, boolean pendingLine) {
            if (!o.has("immediate")) {
                return new Wait(-1, pendingLine);
            }
            String v = o.get("immediate").strip();
            int end = 0;
            while (end < v.length() && end < 9 && Character.isDigit(v.charAt(end))) {
                end++;
            }
            return new Wait(end == 0 ? 0 : Long.parseLong(v.substring(0, end)), pendingLine);
        }
    }

    public enum Start {
        RUNNING,
        /** Ended without running (cancelled while pending). */
        REVOKED,
        /** Still pending when {@code --immediate}'s time ran out; the caller releases it. */
        TIMED_OUT
    }

    /**
     * Waits until the job runs, at most {@code wait.seconds()} (0: it must run at once, and no
     * "queued" line is printed). salloc first says {@code Pending job allocation N}, srun does
     * not ({@code pendingLine}).
     */
    public Start awaitStart(String program, PrintStream err, Wait wait)
            throws ControllerException, InterruptedException {
        boolean told = false;
        long delayMs = 50;
        long deadline = wait.seconds() < 0 ? Long.MAX_VALUE : System.nanoTime() + wait.seconds() * 1_000_000_000L;
        while (true) {
            info = client.call(ClientRequest.newBuilder()
                            .setGetJobs(GetJobsRequest.newBuilder().addJobIds(jobId)))
                    .getGetJobs()
                    .getJobs(0);
            // An allocation whose Prolog failed was granted, whether or not a look saw it run:
            // salloc goes on to say so after its grant, as Slurm's does (compat 264).
            if (info.getState() == JobState.RUNNING || prologFailedOn().isPresent()) {
                if (told) {
                    err.println(program + ": job " + jobId + " has been allocated resources");
                    err.flush();
                }
                return Start.RUNNING;
            }
            if (info.getState() != JobState.PENDING) {
                err.println(program + ": error: Job allocation " + jobId + " has been revoked.");
                return Start.REVOKED;
            }
            if (wait.seconds() == 0 || System.nanoTime() >= deadline) {
                return Start.TIMED_OUT;
            }
            if (!told) {
                if (wait.pendingLine()) {
                    err.println(program + ": Pending job allocation " + jobId);
                }
                err.println(program + ": job " + jobId + " queued and waiting for resources");
                err.flush();
                told = true;
            }
            // No push from the controller to the command socket: srun and salloc poll, backing off.
            Thread.sleep(Math.max(1, Math.min(delayMs, (deadline - System.nanoTime()) / 1_000_000)));
            delayMs = Math.min(1000, delayMs * 2);
        }
    }

    /**
     * After {@link Start#RUNNING}: waits while the job's allocation Prolog runs
     * ({@code PrologFlags=Alloc}: reason {@code Prolog}), polling each second as salloc 22.05 does.
     * {@code announce}: salloc's lines, {@code Waiting for resource configuration} and then
     * {@code Nodes n1 are ready for job} (srun says them only when verbose). Returns false when
     * the job ended meanwhile ({@link #prologFailedOn()} says whether its Prolog ended it).
     */
    public boolean awaitProlog(String program, PrintStream err, boolean announce)
            throws ControllerException, InterruptedException {
        if (!waitsForProlog() && prologFailedOn().isEmpty()) {
            return true;
        }
        if (announce) {
            err.println(program + ": Waiting for resource configuration");
            err.flush();
        }
        while (waitsForProlog()) {
            Thread.sleep(PROLOG_POLL_MS);
            info = client.call(ClientRequest.newBuilder()
                            .setGetJobs(GetJobsRequest.newBuilder().addJobIds(jobId)))
                    .getGetJobs()
                    .getJobs(0);
        }
        if (info.getState() != JobState.RUNNING) {
            return false;
        }
        if (announce) {
            err.println(program + ": Nodes " + info.getNodeList() + " are ready for job");
            err.flush();
        }
        return true;
    }

    /**
     * The node whose allocation Prolog failed and so ended the allocation (the controller
     * cancelled it); empty while it did not.
     */
    public java.util.Optional<String> prologFailedOn() {
        return info.getPrologFailedNode().isEmpty()
                ? java.util.Optional.empty()
                : java.util.Optional.of(info.getPrologFailedNode());
    }

    private boolean waitsForProlog() {
        return info.getState() == JobState.RUNNING
                && JobReason.of(info.getReason())
                        .filter(r -> r == JobReason.PROLOG)
                        .isPresent();
    }

    /**
     * After {@link Start#TIMED_OUT}: the job waited for its partition's limits (node count, time
     * limit, configuration), not for busy resources. slurmctld refuses such a {@code -I} job with
     * "Requested partition configuration not available now" rather than "Requested nodes are
     * busy".
     */
    public boolean heldByPartitionLimits() {
        return JobReason.of(info.getReason())
                .filter(r -> r == JobReason.PARTITION_NODE_LIMIT
                        || r == JobReason.PARTITION_TIME_LIMIT
                        || r == JobReason.PARTITION_CONFIG)
                .isPresent();
    }

    /** Slurm's variables for what runs in the allocation (salloc 22.05's set). */
    public Map<String, String> environment(Map<String, String> base, String clusterName) {
        Map<String, String> env = new LinkedHashMap<>(base);
        String id = Integer.toString(jobId);
        if (!clusterName.isEmpty()) {
            env.put("SLURM_CLUSTER_NAME", clusterName);
        }
        putIfSet(env, "SLURM_JOB_ACCOUNT", info.getSpec().getAccount());
        putIfSet(env, "SLURM_JOB_QOS", info.getSpec().getQos());
        putIfSet(env, "SLURM_JOB_CPUS_PER_NODE", info.getJobCpusPerNode());
        putIfSet(env, "SLURM_TASKS_PER_NODE", info.getTasksPerNode());
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

    private static void putIfSet(Map<String, String> env, String name, String value) {
        if (!value.isEmpty()) {
            env.put(name, value);
        }
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
