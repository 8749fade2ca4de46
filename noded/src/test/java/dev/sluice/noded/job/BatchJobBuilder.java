package dev.sluice.noded.job;

import dev.sluice.common.slurm.OpenMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tests' way to a {@link BatchJob}: every part empty (no paths, no limit, no GRES, job 1 of
 * uid 0) until a test names it.
 */
public final class BatchJobBuilder {
    private int jobId = 1;
    private int restartCount;
    private String name = "";
    private Optional<BatchJob.ArrayTask> array = Optional.empty();
    private BatchJob.Owner owner = new BatchJob.Owner(0, 0, "root");
    private byte[] script = new byte[0];
    private List<String> args = List.of();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private String submitHost = "";
    private BatchJob.Io io =
            new BatchJob.Io(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), OpenMode.NOT_GIVEN);
    private BatchJob.Layout layout = new BatchJob.Layout("", "", 1, 0, "", "");
    private int cpus = 1;
    private int cpusPerTask;
    private List<Integer> cores = List.of();
    private BatchJob.Memory memory = new BatchJob.Memory(0, 0);
    private final List<GresGrant> gres = new ArrayList<>();
    private final Map<Integer, Long> mpsPerGpu = new LinkedHashMap<>();
    private BatchJob.GpuRequest gpuRequest = BatchJob.GpuRequest.NONE;
    private BatchJob.Charge charge = new BatchJob.Charge("", "", "", "");
    private Instant start = Instant.EPOCH;
    private Optional<Duration> timeLimit = Optional.empty();
    private Duration killWait = Duration.ZERO;
    private BatchJob.Controller controller = new BatchJob.Controller("", 0);
    private String credential = "";

    public static BatchJobBuilder job(int jobId) {
        BatchJobBuilder b = new BatchJobBuilder();
        b.jobId = jobId;
        return b;
    }

    public BatchJobBuilder restartCount(int n) {
        restartCount = n;
        return this;
    }

    public BatchJobBuilder name(String n) {
        name = n;
        return this;
    }

    public BatchJobBuilder array(int arrayJobId, int taskId, int count, int min, int max, int step) {
        array = Optional.of(new BatchJob.ArrayTask(arrayJobId, taskId, count, min, max, step));
        return this;
    }

    public BatchJobBuilder owner(int uid, int gid, String user) {
        owner = new BatchJob.Owner(uid, gid, user);
        return this;
    }

    public BatchJobBuilder script(String text, String... scriptArgs) {
        return script(text.getBytes(StandardCharsets.UTF_8), scriptArgs);
    }

    public BatchJobBuilder script(byte[] bytes, String... scriptArgs) {
        script = bytes.clone();
        args = List.of(scriptArgs);
        return this;
    }

    public BatchJobBuilder env(String key, String value) {
        environment.put(key, value);
        return this;
    }

    public BatchJobBuilder submitHost(String host) {
        submitHost = host;
        return this;
    }

    public BatchJobBuilder io(BatchJob.Io value) {
        io = value;
        return this;
    }

    /** The working directory and the output and error patterns, truncating. */
    public BatchJobBuilder files(String workDir, String out, String err) {
        io = new BatchJob.Io(Optional.of(workDir), io.stdIn(), Optional.of(out), Optional.of(err), io.openMode());
        return this;
    }

    public BatchJobBuilder workDir(String dir) {
        io = new BatchJob.Io(Optional.of(dir), io.stdIn(), io.stdOut(), io.stdErr(), io.openMode());
        return this;
    }

    public BatchJobBuilder layout(BatchJob.Layout value) {
        layout = value;
        return this;
    }

    public BatchJobBuilder cpus(int n) {
        cpus = n;
        return this;
    }

    public BatchJobBuilder cpusPerTask(int n) {
        cpusPerTask = n;
        return this;
    }

    public BatchJobBuilder cores(Integer... c) {
        cores = List.of(c);
        return this;
    }

    public BatchJobBuilder memory(long perNodeMb, long perCpuMb) {
        memory = new BatchJob.Memory(perNodeMb, perCpuMb);
        return this;
    }

    public BatchJobBuilder gres(GresGrant grant) {
        gres.add(grant);
        return this;
    }

    public BatchJobBuilder mps(int gpu, long count) {
        mpsPerGpu.put(gpu, count);
        return this;
    }

    public BatchJobBuilder gpuRequest(BatchJob.GpuRequest value) {
        gpuRequest = value;
        return this;
    }

    public BatchJobBuilder charge(String partition, String account, String qos, String constraint) {
        charge = new BatchJob.Charge(partition, account, qos, constraint);
        return this;
    }

    public BatchJobBuilder start(Instant at) {
        start = at;
        return this;
    }

    public BatchJobBuilder timeLimit(Duration limit) {
        timeLimit = Optional.of(limit);
        return this;
    }

    public BatchJobBuilder killWait(Duration wait) {
        killWait = wait;
        return this;
    }

    public BatchJobBuilder controller(String host, int port) {
        controller = new BatchJob.Controller(host, port);
        return this;
    }

    public BatchJobBuilder credential(String token) {
        credential = token;
        return this;
    }

    public BatchJob build() {
        return new BatchJob(
                new BatchJob.Identity(jobId, restartCount, name, array),
                owner,
                new BatchJob.Submission(new BatchJob.Script(script, args), environment, submitHost),
                io,
                layout,
                new BatchJob.OnNode(cpus, cpusPerTask, cores, memory, gres, mpsPerGpu),
                gpuRequest,
                charge,
                new BatchJob.Times(start, timeLimit, killWait),
                controller,
                credential);
    }
}
