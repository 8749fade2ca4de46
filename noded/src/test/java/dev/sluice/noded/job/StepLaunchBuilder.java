package dev.sluice.noded.job;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Tests' way to a {@link StepLaunch}: one node, nothing held, no srun input, until a test names it. */
public final class StepLaunchBuilder {
    private final int jobId;
    private final int stepId;
    private BatchJob.Owner owner = new BatchJob.Owner(0, 0, "root");
    private List<String> argv = List.of();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private Optional<String> workDir = Optional.empty();
    private StepLaunch.Tasks tasks = new StepLaunch.Tasks(List.of(0), 0, 1, 1, "", "");
    private int cpus = 1;
    private final List<GresGrant> gres = new ArrayList<>();
    private int gpusPerTask;
    private String ioHost = "";
    private int ioPort;
    private StepLaunch.Stdin stdin = StepLaunch.Stdin.NONE;
    private Optional<StepLaunch.Pty> pty = Optional.empty();

    private StepLaunchBuilder(int jobId, int stepId) {
        this.jobId = jobId;
        this.stepId = stepId;
    }

    public static StepLaunchBuilder step(int jobId, int stepId) {
        return new StepLaunchBuilder(jobId, stepId);
    }

    public StepLaunchBuilder owner(int uid, int gid, String user) {
        owner = new BatchJob.Owner(uid, gid, user);
        return this;
    }

    public StepLaunchBuilder argv(String... command) {
        argv = List.of(command);
        return this;
    }

    public StepLaunchBuilder env(String key, String value) {
        environment.put(key, value);
        return this;
    }

    public StepLaunchBuilder workDir(String dir) {
        workDir = Optional.of(dir);
        return this;
    }

    /** Only the task ids run here, the step's other facts as one node of one task each. */
    public StepLaunchBuilder taskIds(Integer... ids) {
        tasks = new StepLaunch.Tasks(List.of(ids), 0, 1, ids.length, "", "");
        return this;
    }

    public StepLaunchBuilder tasks(StepLaunch.Tasks value) {
        tasks = value;
        return this;
    }

    public StepLaunchBuilder cpus(int n) {
        cpus = n;
        return this;
    }

    public StepLaunchBuilder gres(GresGrant grant) {
        gres.add(grant);
        return this;
    }

    public StepLaunchBuilder gpusPerTask(int n) {
        gpusPerTask = n;
        return this;
    }

    public StepLaunchBuilder io(String host, int port) {
        ioHost = host;
        ioPort = port;
        return this;
    }

    public StepLaunchBuilder stdin(StepLaunch.Stdin value) {
        stdin = value;
        return this;
    }

    public StepLaunchBuilder pty(int rows, int cols) {
        pty = Optional.of(new StepLaunch.Pty(rows, cols));
        return this;
    }

    public StepLaunch build() {
        return new StepLaunch(
                jobId,
                stepId,
                owner,
                argv,
                environment,
                workDir,
                tasks,
                new StepLaunch.OnNode(cpus, List.of(), 0, gres, Map.of(), gpusPerTask),
                new StepLaunch.Srun(ioHost, ioPort, stdin, pty),
                "");
    }
}
