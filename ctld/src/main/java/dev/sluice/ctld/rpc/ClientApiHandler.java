package dev.sluice.ctld.rpc;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.control.Caller;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.control.NodeControl;
import dev.sluice.ctld.control.PartitionControl;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.loop.LoopAnswers;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.WireStates;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.CreateNodeRequest;
import dev.sluice.protocol.v1.CreateNodeResponse;
import dev.sluice.protocol.v1.DeleteNodeRequest;
import dev.sluice.protocol.v1.DeleteNodeResponse;
import dev.sluice.protocol.v1.GenerateTokenRequest;
import dev.sluice.protocol.v1.GenerateTokenResponse;
import dev.sluice.protocol.v1.GetConfigResponse;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.GetNodesResponse;
import dev.sluice.protocol.v1.GetPartitionsRequest;
import dev.sluice.protocol.v1.GetPartitionsResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.PingResponse;
import dev.sluice.protocol.v1.ReconfigureResponse;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import dev.sluice.protocol.v1.UpdateJobRequest;
import dev.sluice.protocol.v1.UpdateJobResponse;
import dev.sluice.protocol.v1.UpdateNodeRequest;
import dev.sluice.protocol.v1.UpdateNodeResponse;
import dev.sluice.protocol.v1.UpdatePartitionRequest;
import dev.sluice.protocol.v1.UpdatePartitionResponse;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The controller's client API, once, behind both transports (command-socket frames and
 * gRPC). Writes go through the controller loop and return after their records are durable;
 * reads are answered from the latest published image without touching the loop.
 */
public final class ClientApiHandler {

    private final ControllerLoop loop;
    private final JobControl jobs;
    private final NodeControl nodes;
    private final CtldConfig config;
    private final long startTime;
    private final Reconfigurer reconfigurer;
    private final JobRequests jobRequests;

    private final dev.sluice.ctld.step.StepService steps;
    private final ControllerStatistics statistics;
    private final java.util.function.IntSupplier dbdQueue;
    private final Set<Integer> operatorUids;
    private final dev.sluice.ctld.loop.StateSaves saves;
    private final NodeReadings readings;

    /**
     * A handler of {@code loop}'s commands, with what it needs told: the rest is given to the
     * builder, so the handler is complete when built.
     *
     * @param startTime the controller's start (epoch seconds)
     */
    public static ClientApiHandlerBuilder builder(
            ControllerLoop loop,
            JobControl jobs,
            NodeControl nodes,
            CtldConfig config,
            long startTime,
            Reconfigurer reconfigurer) {
        return new ClientApiHandlerBuilder(loop, jobs, nodes, config, startTime, reconfigurer);
    }

    ClientApiHandler(ClientApiHandlerBuilder b) {
        this.reconfigurer = requireNonNull(b.reconfigurer, "reconfigurer is null");
        this.loop = requireNonNull(b.loop, "loop is null");
        this.jobs = requireNonNull(b.jobs, "jobs is null");
        this.nodes = requireNonNull(b.nodes, "nodes is null");
        this.config = requireNonNull(b.config, "config is null");
        this.startTime = b.startTime;
        this.jobRequests = new JobRequests(loop, jobs, config);
        this.steps = b.steps;
        this.statistics = b.statistics != null ? b.statistics : new ControllerStatistics(startTime);
        this.dbdQueue = b.dbdQueue;
        Set<Integer> all = new HashSet<>(b.operatorUids);
        all.add(0);
        this.operatorUids = Set.copyOf(all);
        this.saves = b.saves;
        this.readings = b.readings;
    }

    private ControllerStatistics statistics() {
        return statistics;
    }

    private dev.sluice.ctld.step.StepService steps() {
        if (steps == null) {
            throw new SlurmException(ErrorCode.UNEXPECTED, "this controller does not run job steps");
        }
        return steps;
    }

    /** Serves one command-socket frame. Never throws: failures travel in the response. */
    public ClientResponse handle(ClientRequest request) {
        ControllerStatistics stats = statistics();
        long start = System.nanoTime();
        stats.begin();
        ClientResponse response = serve(request);
        Identity who = request.getIdentity();
        stats.served(
                request.getBodyCase().name(),
                request.hasSubmitBatchJob() && request.getSubmitBatchJob().getAllocation(),
                who.getUid(),
                who.getUserName(),
                System.nanoTime() - start);
        return response;
    }

    private ClientResponse serve(ClientRequest request) {
        ClientResponse.Builder out = ClientResponse.newBuilder()
                .setProtocolVersion(Frames.PROTOCOL_VERSION)
                .setRequestId(request.getRequestId());
        try {
            Identity who = request.getIdentity();
            switch (request.getBodyCase()) {
                case SUBMIT_BATCH_JOB -> out.setSubmitBatchJob(submitBatchJob(who, request.getSubmitBatchJob()));
                case SIGNAL_JOB -> out.setSignalJob(signalJob(who, request.getSignalJob()));
                case GET_JOBS -> out.setGetJobs(getJobs(who, request.getGetJobs()));
                case GET_NODES -> out.setGetNodes(getNodes(request.getGetNodes()));
                case GET_PARTITIONS -> out.setGetPartitions(getPartitions(request.getGetPartitions()));
                case UPDATE_NODE -> out.setUpdateNode(updateNode(who, request.getUpdateNode()));
                case UPDATE_JOB -> out.setUpdateJob(updateJob(who, request.getUpdateJob()));
                case UPDATE_PARTITION -> out.setUpdatePartition(updatePartition(who, request.getUpdatePartition()));
                case GET_CONFIG -> out.setGetConfig(getConfig());
                case GET_LICENSES -> out.setGetLicenses(getLicenses());
                case GET_RESERVATIONS ->
                    out.setGetReservations(ReservationAnswers.list(loop.image(), loop.now(), saves));
                case CREATE_RESERVATION ->
                    out.setCreateReservation(ReservationAnswers.create(
                            loop, caller(who), jobs.limits(), request.getCreateReservation()));
                case UPDATE_RESERVATION ->
                    out.setUpdateReservation(ReservationAnswers.update(
                            loop, caller(who), jobs.limits(), request.getUpdateReservation()));
                case DELETE_RESERVATION ->
                    out.setDeleteReservation(
                            ReservationAnswers.delete(loop, caller(who), request.getDeleteReservation()));
                case PING -> out.setPing(ping());
                case CREATE_NODE -> out.setCreateNode(createNode(who, request.getCreateNode()));
                case DELETE_NODE -> out.setDeleteNode(deleteNode(who, request.getDeleteNode()));
                case RECONFIGURE -> out.setReconfigure(reconfigure(who));
                case CREATE_STEP -> out.setCreateStep(steps().create(caller(who), request.getCreateStep()));
                case STEP_COMPLETE -> out.setStepComplete(steps().complete(caller(who), request.getStepComplete()));
                case GET_STEPS -> out.setGetSteps(steps().list(request.getGetSteps()));
                case GET_STEP_STATS -> out.setGetStepStats(steps().stats(request.getGetStepStats()));
                case GENERATE_TOKEN -> out.setGenerateToken(generateToken(who, request.getGenerateToken()));
                case COMPLETE_ALLOCATION -> {
                    var r = request.getCompleteAllocation();
                    LoopAnswers.await(loop.submit((state, now) -> dev.sluice.ctld.control.AllocationControl.complete(
                            state, caller(who), r.getJobId(), r.getStatus(), now)));
                    out.setCompleteAllocation(dev.sluice.protocol.v1.CompleteAllocationResponse.getDefaultInstance());
                }
                case GET_PRIORITIES -> out.setGetPriorities(diag().priorities());
                case GET_SHARES -> out.setGetShares(diag().shares());
                case GET_STATISTICS ->
                    out.setGetStatistics(statistics().snapshot(loop.now(), loop.image(), dbdQueue.getAsInt()));
                case RESET_STATISTICS -> {
                    if (!caller(who).isOperator()) {
                        throw new SlurmException(ErrorCode.ACCESS_DENIED, ErrorCode.ACCESS_DENIED.text());
                    }
                    statistics().reset(loop.now());
                    out.setResetStatistics(dev.sluice.protocol.v1.ResetStatisticsResponse.getDefaultInstance());
                }
                case BODY_NOT_SET -> throw new SlurmException(ErrorCode.INVALID_ARGUMENT, "empty request");
            }
        } catch (SlurmException e) {
            out.setError(LoopCalls.error(e));
        }
        return out.build();
    }

    private DiagAnswers diag() {
        // The settings the passes use (reconfigure swaps them), with the controller's start.
        return new DiagAnswers(loop, loop.scheduler().config());
    }

    public SubmitBatchJobResponse submitBatchJob(Identity who, SubmitBatchJobRequest request) {
        JobSpec submitted = request.getSpec();
        long environmentBytes = 0;
        for (var e : submitted.getEnvironmentMap().entrySet()) {
            environmentBytes += e.getKey().length() + e.getValue().size() + 2;
        }
        config.security().checkJobSize(submitted.getScript().size(), environmentBytes);
        // The owner is whoever asks, never what the job description claims.
        var spec = request.getSpec().toBuilder().setOwner(who);
        if (!spec.getRequeueSet()) {
            spec.setRequeue(spec.getRequeue() && config.jobRequeue());
        }
        JobRequest job = WireMapper.toDomain(spec.build());
        if (request.getTestOnly()) {
            return TestOnlySubmission.answer(loop, jobs, config.scheduler(), job);
        }
        boolean allocation = request.getAllocation();
        dev.sluice.ctld.loop.Command<JobControl.Submission> submit =
                (state, now) -> jobs.submission(state, job, now, allocation);
        int id = LoopAnswers.await(allocation ? loop.submitThenSchedule(submit) : loop.submit(submit))
                .orThrow();
        return SubmitBatchJobResponse.newBuilder().setJobId(id).build();
    }

    /** {@code scontrol token}; see {@link TokenGrant}. */
    public GenerateTokenResponse generateToken(Identity who, GenerateTokenRequest request) {
        return TokenGrant.mint(config, caller(who), request);
    }

    /** scancel: which jobs the request names or its filters select, each signalled or cancelled. */
    public SignalJobResponse signalJob(Identity who, SignalJobRequest request) {
        return jobRequests.signal(caller(who), request);
    }

    /** scontrol update/hold/release/requeue/suspend/resume of jobs. */
    public UpdateJobResponse updateJob(Identity who, UpdateJobRequest request) {
        return jobRequests.update(caller(who), request);
    }

    private final SharedJobsAnswer sharedJobs = new SharedJobsAnswer();

    /**
     * squeue's question; the whole queue is shared (SharedJobsAnswer: a version the asker may
     * hold) only while it is everyone's view, with no PrivateData=jobs. An operator's whole view
     * under PrivateData=jobs is not: a version says "this is what any caller sees", and sluice-restd
     * lets the tokens whose asks got one share each other's asks.
     */
    public GetJobsResponse getJobs(Identity who, GetJobsRequest request) {
        Caller caller = caller(who);
        ImageQueries queries = queries();
        boolean shared = !config.security().privateJobs()
                && request.getJobIdsCount() == 0
                && request.getFamilyIdsCount() == 0
                && !request.getIncludeScript();
        if (!shared) {
            return queries.jobs(caller, request);
        }
        return sharedJobs.answer(
                queries.image(),
                request.getActiveOnly(),
                request.getKnownVersion(),
                () -> queries.jobs(caller, request));
    }

    public GetNodesResponse getNodes(GetNodesRequest request) {
        GetNodesResponse answer = queries().nodes(request);
        GetNodesResponse.Builder out = answer.toBuilder().clearNodes();
        answer.getNodesList().forEach(n -> out.addNodes(readings.withReadings(n)));
        return out.build();
    }

    public GetPartitionsResponse getPartitions(GetPartitionsRequest request) {
        return queries().partitions(request);
    }

    /** {@code scontrol show licenses}. */
    public dev.sluice.protocol.v1.GetLicensesResponse getLicenses() {
        // As reconfigure last read them (Slurm rereads Licenses= there).
        long now = loop.now();
        return LicenseAnswers.of(
                loop.scheduler().config().select().licenses(),
                loop.image().jobs(),
                loop.image().reservations().current(now),
                now);
    }

    private final AllocNodes allocNodes = new AllocNodes(AllocNodes::resolve);

    private ImageQueries queries() {
        return new ImageQueries(
                loop.image(),
                startTime,
                loop.now(),
                config.security().privateJobs(),
                config.scheduler().select().memoryConsumable(),
                // Read at start-up only: Slurm 22.05 takes a new AccountingStorageTRES at restart.
                Tres.trackedLicenses(config.files().settings().get("AccountingStorageTRES")),
                allocNodes,
                loop.enforced().policy());
    }

    public UpdateNodeResponse updateNode(Identity who, UpdateNodeRequest request) {
        Caller caller = caller(who);
        List<String> names = HostList.expand(request.getNodeNames());
        var asked = WireStates.nodeStateRequest(request.getState());
        LoopAnswers.await(
                loop.submit((state, now) -> nodes.update(state, caller, names, asked, request.getReason(), now)));
        return UpdateNodeResponse.getDefaultInstance();
    }

    /** {@code scontrol update PartitionName=...}: operators only; see {@link PartitionControl}. */
    public UpdatePartitionResponse updatePartition(Identity who, UpdatePartitionRequest request) {
        Caller caller = caller(who);
        var changes = WireMapper.changes(request);
        LoopAnswers.await(
                loop.submit((state, now) -> PartitionControl.update(state, caller, request.getName(), changes)));
        return UpdatePartitionResponse.getDefaultInstance();
    }

    /** {@code scontrol create NodeName=...}: dynamic nodes, journaled before the answer. */
    public CreateNodeResponse createNode(Identity who, CreateNodeRequest request) {
        Caller caller = caller(who);
        var wanted = NodeAdmin.parseCreate(request.getNodeLine(), 6818);
        LoopAnswers.await(loop.submit((state, now) -> nodes.create(state, caller, wanted, now)));
        return CreateNodeResponse.getDefaultInstance();
    }

    /** {@code scontrol delete NodeName=...}: idle dynamic nodes only. */
    public DeleteNodeResponse deleteNode(Identity who, DeleteNodeRequest request) {
        Caller caller = caller(who);
        List<String> names = HostList.expand(request.getNodeNames());
        LoopAnswers.await(loop.submit((state, now) -> nodes.delete(state, caller, names, now)));
        return DeleteNodeResponse.getDefaultInstance();
    }

    /** {@code scontrol reconfigure}: operators only; see {@link Reconfigurer}. */
    public ReconfigureResponse reconfigure(Identity who) {
        if (!caller(who).isOperator()) {
            throw new SlurmException(ErrorCode.USER_ID_MISSING);
        }
        reconfigurer.reconfigure();
        return ReconfigureResponse.getDefaultInstance();
    }

    public GetConfigResponse getConfig() {
        GetConfigResponse.Builder out = GetConfigResponse.newBuilder();
        reconfigurer
                .configFiles()
                .forEach((name, bytes) -> out.putFiles(name, com.google.protobuf.ByteString.copyFrom(bytes)));
        ConfigAnswer.fill(
                out, reconfigurer.showConfig(), startTime, loop.image().nextJobId());
        return out.build();
    }

    public PingResponse ping() {
        return PingResponse.newBuilder()
                .setController(config.controller().controlHost())
                .setClusterName(config.clusterName())
                .setVersion(Version.VERSION)
                .setStartTime(startTime)
                .build();
    }

    Caller caller(Identity who) {
        return new Caller(who.getUid(), who.getGid(), who.getUserName(), operatorUids.contains(who.getUid()));
    }
}
