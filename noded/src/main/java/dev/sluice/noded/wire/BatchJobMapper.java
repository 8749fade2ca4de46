package dev.sluice.noded.wire;

import com.google.protobuf.ByteString;
import dev.sluice.common.slurm.OpenMode;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.text.RawText;
import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.GresGrant;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one mapping between the controller's {@code LaunchBatchJobRequest} (with its client
 * {@code JobSpec}) and the node's {@link BatchJob}. {@link #toJob} is what the launcher sees of a
 * launch; {@link #toWire} is how the spool keeps a job, in the message an older daemon wrote too,
 * so a job spooled before an upgrade is re-adopted. Only the fields the node uses travel:
 * {@code toJob(toWire(job))} is {@code job}.
 */
public final class BatchJobMapper {
    private BatchJobMapper() {}

    public static BatchJob toJob(LaunchBatchJobRequest r) {
        JobSpec s = r.getSpec();
        Optional<BatchJob.ArrayTask> array = r.getArrayJobId() == 0
                ? Optional.empty()
                : Optional.of(new BatchJob.ArrayTask(
                        r.getArrayJobId(),
                        r.getArrayTaskId(),
                        r.getArrayTaskCount(),
                        r.getArrayTaskMin(),
                        r.getArrayTaskMax(),
                        r.getArrayTaskStep()));
        Map<String, String> environment = new LinkedHashMap<>();
        s.getEnvironmentMap().forEach((k, v) -> environment.put(k, RawText.decode(v.toByteArray())));
        // Only a job that asked for a task count (-n, --ntasks-per-node) is told one, as in Slurm.
        boolean askedTasks = s.getNumTasks() > 0 || s.getNtasksPerNode() > 0;
        long limit = Integer.toUnsignedLong(r.getTimeLimitMinutes());
        return new BatchJob(
                new BatchJob.Identity(r.getJobId(), r.getRestartCount(), s.getName(), array),
                new BatchJob.Owner(
                        s.getOwner().getUid(),
                        s.getOwner().getGid(),
                        s.getOwner().getUserName()),
                new BatchJob.Submission(
                        new BatchJob.Script(s.getScript().toByteArray(), s.getScriptArgsList()),
                        environment,
                        s.getSubmitHost()),
                new BatchJob.Io(
                        given(s.getWorkDir()),
                        given(s.getStdIn()),
                        given(s.getStdOut()),
                        given(s.getStdErr()),
                        openMode(s.getOpenMode())),
                new BatchJob.Layout(
                        r.getClusterName(),
                        r.getNodeList(),
                        r.getNumNodes(),
                        askedTasks ? r.getNumTasks() : 0,
                        r.getJobCpusPerNode(),
                        r.getTasksPerNode()),
                new BatchJob.OnNode(
                        r.getCpusOnNode(),
                        s.getCpusPerTask(),
                        r.getCoresList(),
                        new BatchJob.Memory(r.getMemPerNodeMb(), s.getMemPerCpuMb()),
                        grants(r.getGresList()),
                        r.getMpsPerGpuMap()),
                new BatchJob.GpuRequest(given(s.getGpus()), given(s.getGpusPerNode()), given(s.getGpusPerTask())),
                new BatchJob.Charge(r.getPartition(), s.getAccount(), s.getQos(), s.getConstraint()),
                new BatchJob.Times(
                        Instant.ofEpochSecond(r.getStartTime()),
                        limit > 0 && SlurmLimits.isLimit(limit)
                                ? Optional.of(Duration.ofMinutes(limit))
                                : Optional.empty(),
                        Duration.ofSeconds(r.getKillWaitSeconds())),
                new BatchJob.Controller(r.getControllerHost(), r.getControllerPort()),
                r.getCredential());
    }

    /** The launch message that maps back to {@code job}: the spool's on-disk form. */
    public static LaunchBatchJobRequest toWire(BatchJob job) {
        BatchJob.Io io = job.io();
        BatchJob.OnNode here = job.onNode();
        BatchJob.Layout layout = job.layout();
        JobSpec.Builder spec = JobSpec.newBuilder()
                .setName(job.identity().name())
                .setOwner(Identity.newBuilder()
                        .setUid(job.owner().uid())
                        .setGid(job.owner().gid())
                        .setUserName(job.owner().userName()))
                .setScript(ByteString.copyFrom(job.submission().script().bytes()))
                .addAllScriptArgs(job.submission().script().args())
                .setSubmitHost(job.submission().submitHost())
                .setWorkDir(io.workDir().orElse(""))
                .setStdIn(io.stdIn().orElse(""))
                .setStdOut(io.stdOut().orElse(""))
                .setStdErr(io.stdErr().orElse(""))
                .setOpenMode(io.openMode().wireName())
                // The task count the job asked for stands for -n: it is told one again.
                .setNumTasks(layout.numTasks())
                .setCpusPerTask(here.cpusPerTask())
                .setMemPerCpuMb(here.memory().perCpuMb())
                .setGpus(job.gpuRequest().gpus().orElse(""))
                .setGpusPerNode(job.gpuRequest().perNode().orElse(""))
                .setGpusPerTask(job.gpuRequest().perTask().orElse(""))
                .setAccount(job.charge().account())
                .setQos(job.charge().qos())
                .setConstraint(job.charge().constraint());
        job.submission()
                .environment()
                .forEach((k, v) -> spec.putEnvironment(k, ByteString.copyFrom(RawText.encode(v))));
        LaunchBatchJobRequest.Builder r = LaunchBatchJobRequest.newBuilder()
                .setJobId(job.jobId())
                .setRestartCount(job.restartCount())
                .setSpec(spec)
                .setClusterName(layout.clusterName())
                .setNodeList(layout.nodeList())
                .setNumNodes(layout.numNodes())
                .setNumTasks(layout.numTasks())
                .setJobCpusPerNode(layout.jobCpusPerNode())
                .setTasksPerNode(layout.tasksPerNode())
                .setCpusOnNode(here.cpus())
                .addAllCores(here.cores())
                .setMemPerNodeMb(here.memory().perNodeMb())
                .putAllMpsPerGpu(here.mpsPerGpu())
                .setPartition(job.charge().partition())
                .setStartTime(job.times().start().getEpochSecond())
                .setTimeLimitMinutes(
                        job.times().timeLimit().map(d -> (int) d.toMinutes()).orElse(SlurmLimits.INFINITE32))
                .setKillWaitSeconds((int) job.times().killWait().toSeconds())
                .setControllerHost(job.controller().host())
                .setControllerPort(job.controller().port())
                .setCredential(job.credential());
        here.gres().forEach(g -> r.addGres(toWire(g)));
        job.identity()
                .array()
                .ifPresent(a -> r.setArrayJobId(a.arrayJobId())
                        .setArrayTaskId(a.taskId())
                        .setArrayTaskCount(a.count())
                        .setArrayTaskMin(a.min())
                        .setArrayTaskMax(a.max())
                        .setArrayTaskStep(a.step()));
        return r.build();
    }

    /** GRES grants of a launch (a batch job's, a step's). */
    public static List<GresGrant> grants(List<dev.sluice.protocol.v1.GresGrant> grants) {
        return grants.stream()
                .map(g -> new GresGrant(g.getName(), g.getType(), g.getIndicesList(), g.getCount()))
                .toList();
    }

    static dev.sluice.protocol.v1.GresGrant toWire(GresGrant g) {
        return dev.sluice.protocol.v1.GresGrant.newBuilder()
                .setName(g.name())
                .setType(g.type())
                .addAllIndices(g.indices())
                .setCount(g.count())
                .build();
    }

    private static Optional<String> given(String text) {
        return text.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    /**
     * The open mode by its exact word, as the launcher always read it ({@code append} in any
     * case appends); anything else is the default, which truncates.
     */
    private static OpenMode openMode(String text) {
        for (OpenMode m : OpenMode.values()) {
            if (m.wireName().equalsIgnoreCase(text)) {
                return m;
            }
        }
        return OpenMode.NOT_GIVEN;
    }
}
