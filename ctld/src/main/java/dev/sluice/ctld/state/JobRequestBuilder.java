package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.slurm.Licenses;
import dev.sluice.common.slurm.OpenMode;
import java.util.List;
import java.util.Map;

/**
 * A {@link JobRequest} built field by field: what is not set is "not given" (empty, zero,
 * {@code NONE}, no time limit), as a submission that names only those options would be.
 */
public final class JobRequestBuilder {
    private final JobRequest.Owner owner;
    private String name = "";
    private String script = "";
    private List<String> scriptArgs = List.of();
    private String workDir = "";
    private Map<String, String> environment = Map.of();
    private int minNodes = 0;
    private int maxNodes = 0;
    private int numTasks = 0;
    private int cpusPerTask = 0;
    private int ntasksPerNode = 0;
    private String partition = "";
    private long timeLimitMinutes = JobRequest.TIME_NOT_SET;
    private String stdOut = "";
    private String stdErr = "";
    private String stdIn = "";
    private String submitHost = "";
    private boolean exclusive = false;
    private boolean oversubscribe = false;
    private long memPerNodeMb = 0;
    private long memPerCpuMb = 0;
    private NodeNames reqNodes = NodeNames.NONE;
    private NodeNames excludeNodes = NodeNames.NONE;
    private String account = "";
    private String comment = "";
    private boolean hold = false;
    private GresRequests gres = GresRequests.NONE;
    private FeatureConstraint constraint = FeatureConstraint.NONE;
    private boolean requeue = false;
    private OpenMode openMode = OpenMode.NOT_GIVEN;
    private int nice = 0;
    private String qos = "";
    private String command = "";
    private JobRequest.GpuOptions gpuOptions = JobRequest.GpuOptions.NONE;
    private JobRequest.Sequencing sequencing = JobRequest.Sequencing.NONE;
    private JobRequest.WarnSignal warnSignal = JobRequest.WarnSignal.NONE;
    private JobRequest.Mail mail = JobRequest.Mail.NONE;
    private Licenses licenses = Licenses.NONE;
    private String reservation = "";
    private JobWckey wckey = JobWckey.NONE;

    JobRequestBuilder(JobRequest.Owner owner) {
        this.owner = requireNonNull(owner, "owner is null");
    }

    /** A builder holding every field of {@code from}, for a copy that changes a few. */
    JobRequestBuilder(JobRequest from) {
        this(from.owner());
        name = from.name();
        script = from.launch().script();
        scriptArgs = from.launch().scriptArgs();
        workDir = from.launch().workDir();
        environment = from.launch().environment();
        size(from.size());
        partition = from.partition();
        timeLimitMinutes = from.timeLimitMinutes();
        io(from.io());
        submitHost = from.submitHost();
        exclusive = from.placement().exclusive();
        oversubscribe = from.placement().oversubscribe();
        memPerNodeMb = from.memory().perNodeMb();
        memPerCpuMb = from.memory().perCpuMb();
        reqNodes = from.placement().reqNodes();
        excludeNodes = from.placement().excludeNodes();
        account = from.account();
        comment = from.comment();
        hold = from.hold();
        gres = from.gres();
        constraint = from.placement().constraint();
        requeue = from.requeue();
        nice = from.nice();
        qos = from.qos();
        command = from.launch().command();
        gpuOptions = from.gpuOptions();
        sequencing = from.sequencing();
        warnSignal = from.warnSignal();
        mail = from.mail();
        licenses = from.licenses();
        reservation = from.reservation();
        wckey = from.wckey();
    }

    public JobRequestBuilder name(String value) {
        this.name = value;
        return this;
    }

    public JobRequestBuilder script(String value) {
        this.script = value;
        return this;
    }

    public JobRequestBuilder scriptArgs(List<String> value) {
        this.scriptArgs = value;
        return this;
    }

    public JobRequestBuilder workDir(String value) {
        this.workDir = value;
        return this;
    }

    public JobRequestBuilder environment(Map<String, String> value) {
        this.environment = value;
        return this;
    }

    public JobRequestBuilder minNodes(int value) {
        this.minNodes = value;
        return this;
    }

    public JobRequestBuilder maxNodes(int value) {
        this.maxNodes = value;
        return this;
    }

    public JobRequestBuilder numTasks(int value) {
        this.numTasks = value;
        return this;
    }

    public JobRequestBuilder cpusPerTask(int value) {
        this.cpusPerTask = value;
        return this;
    }

    public JobRequestBuilder ntasksPerNode(int value) {
        this.ntasksPerNode = value;
        return this;
    }

    public JobRequestBuilder partition(String value) {
        this.partition = value;
        return this;
    }

    public JobRequestBuilder timeLimitMinutes(long value) {
        this.timeLimitMinutes = value;
        return this;
    }

    public JobRequestBuilder stdOut(String value) {
        this.stdOut = value;
        return this;
    }

    public JobRequestBuilder stdErr(String value) {
        this.stdErr = value;
        return this;
    }

    public JobRequestBuilder stdIn(String value) {
        this.stdIn = value;
        return this;
    }

    public JobRequestBuilder submitHost(String value) {
        this.submitHost = value;
        return this;
    }

    public JobRequestBuilder oversubscribe(boolean value) {
        this.oversubscribe = value;
        return this;
    }

    public JobRequestBuilder exclusive(boolean value) {
        this.exclusive = value;
        return this;
    }

    public JobRequestBuilder memPerNodeMb(long value) {
        this.memPerNodeMb = value;
        return this;
    }

    public JobRequestBuilder memPerCpuMb(long value) {
        this.memPerCpuMb = value;
        return this;
    }

    /** @throws IllegalArgumentException when the node list does not parse */
    public JobRequestBuilder reqNodes(String value) {
        return reqNodes(NodeNames.parse(value));
    }

    public JobRequestBuilder reqNodes(NodeNames value) {
        this.reqNodes = value;
        return this;
    }

    /** @throws IllegalArgumentException when the node list does not parse */
    public JobRequestBuilder excludeNodes(String value) {
        return excludeNodes(NodeNames.parse(value));
    }

    public JobRequestBuilder excludeNodes(NodeNames value) {
        this.excludeNodes = value;
        return this;
    }

    public JobRequestBuilder account(String value) {
        this.account = value;
        return this;
    }

    public JobRequestBuilder comment(String value) {
        this.comment = value;
        return this;
    }

    public JobRequestBuilder hold(boolean value) {
        this.hold = value;
        return this;
    }

    /** @throws IllegalArgumentException when the GRES request does not parse */
    public JobRequestBuilder gresPerNode(String value) {
        return gres(GresRequests.parse(value));
    }

    public JobRequestBuilder gres(GresRequests value) {
        this.gres = value;
        return this;
    }

    /** @throws IllegalArgumentException when the constraint does not parse */
    public JobRequestBuilder constraint(String value) {
        return constraint(FeatureConstraint.parse(value));
    }

    public JobRequestBuilder constraint(FeatureConstraint value) {
        this.constraint = value;
        return this;
    }

    public JobRequestBuilder requeue(boolean value) {
        this.requeue = value;
        return this;
    }

    /** @throws IllegalArgumentException when the mode does not parse */
    public JobRequestBuilder openMode(String value) {
        return openMode(OpenMode.parse(value));
    }

    public JobRequestBuilder openMode(OpenMode value) {
        this.openMode = value;
        return this;
    }

    /** Nodes, tasks and CPUs per task at once. */
    public JobRequestBuilder size(JobRequest.Size value) {
        this.minNodes = value.minNodes();
        this.maxNodes = value.maxNodes();
        this.numTasks = value.numTasks();
        this.cpusPerTask = value.cpusPerTask();
        this.ntasksPerNode = value.ntasksPerNode();
        return this;
    }

    /** Where the job's standard streams go and how its files are opened. */
    public JobRequestBuilder io(JobRequest.Io value) {
        this.stdOut = value.stdOut();
        this.stdErr = value.stdErr();
        this.stdIn = value.stdIn();
        this.openMode = value.openMode();
        return this;
    }

    public JobRequestBuilder nice(int value) {
        this.nice = value;
        return this;
    }

    public JobRequestBuilder qos(String value) {
        this.qos = value;
        return this;
    }

    public JobRequestBuilder command(String value) {
        this.command = value;
        return this;
    }

    public JobRequestBuilder gpuOptions(JobRequest.GpuOptions value) {
        this.gpuOptions = value;
        return this;
    }

    public JobRequestBuilder sequencing(JobRequest.Sequencing value) {
        this.sequencing = value;
        return this;
    }

    public JobRequestBuilder warnSignal(JobRequest.WarnSignal value) {
        this.warnSignal = value;
        return this;
    }

    public JobRequestBuilder mail(JobRequest.Mail value) {
        this.mail = value;
        return this;
    }

    public JobRequestBuilder licenses(Licenses value) {
        this.licenses = value;
        return this;
    }

    public JobRequestBuilder reservation(String value) {
        this.reservation = value;
        return this;
    }

    public JobRequestBuilder wckey(JobWckey value) {
        this.wckey = value;
        return this;
    }

    public JobRequest build() {
        return new JobRequest(
                new JobDescription(name, comment, submitHost, mail),
                owner,
                new JobRequest.Launch(script, scriptArgs, workDir, environment, command),
                new JobRequest.Io(stdOut, stdErr, stdIn, openMode),
                new JobRequest.Size(minNodes, maxNodes, numTasks, cpusPerTask, ntasksPerNode),
                new JobRequest.Memory(memPerNodeMb, memPerCpuMb),
                new JobRequest.Placement(reqNodes, excludeNodes, constraint, exclusive, oversubscribe),
                gres,
                gpuOptions,
                sequencing,
                new JobScheduling(partition, timeLimitMinutes, warnSignal, hold, requeue, nice),
                new JobAccounting(account, qos, reservation, licenses, wckey));
    }
}
