package dev.sluice.restd;

import dev.sluice.cli.client.ControllerException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.DeleteNodeResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.GetLicensesResponse;
import dev.sluice.protocol.v1.GetNodesResponse;
import dev.sluice.protocol.v1.GetPartitionsResponse;
import dev.sluice.protocol.v1.GetStatisticsResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobAction;
import dev.sluice.protocol.v1.JobChanges;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.LicenseInfo;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;
import dev.sluice.protocol.v1.PingResponse;
import dev.sluice.protocol.v1.ReconfigureResponse;
import dev.sluice.protocol.v1.RpcCount;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SlurmError;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import dev.sluice.protocol.v1.UpdateJobResponse;
import dev.sluice.protocol.v1.UpdateNodeResponse;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.controller.Sessions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A stand-in controller for the REST tests: keeps jobs, nodes and a partition in memory and
 * answers the client API messages as the controller does for the cases tested, recording who
 * each request came from.
 */
final class FakeController implements Sessions {
    record Seen(String user, String token, ClientRequest request) {}

    /** Users this controller treats as no operator: their node changes are refused, as Slurm's are. */
    static final Set<String> PLAIN_USERS = Set.of("bob");

    final List<Seen> seen = new ArrayList<>();
    final Map<Integer, JobInfo> jobs = new LinkedHashMap<>();
    final Map<String, NodeInfo> nodes = new LinkedHashMap<>();
    private int nextJob = 100;

    FakeController() {
        for (String name : List.of("n1", "n2")) {
            nodes.put(
                    name,
                    NodeInfo.newBuilder()
                            .setName(name)
                            .setHostname(name)
                            .setAddr(name)
                            .setPort(6818)
                            .setCpus(4)
                            .setBoards(1)
                            .setSockets(1)
                            .setCoresPerSocket(4)
                            .setThreadsPerCore(1)
                            .setRealMemoryMb(8000)
                            .setState("IDLE")
                            .addPartitions("debug")
                            .setCfgTres("cpu=4,mem=8000M,billing=4")
                            .build());
        }
    }

    final FakeAccounting accounting = new FakeAccounting();

    @Override
    public Optional<AccountingSession> accountingForUser(String user, String token) {
        return Optional.of(request -> accounting.call(user, request));
    }

    @Override
    public synchronized ControllerSession forUser(String user, String token) {
        return request -> answer(user, token, request.build());
    }

    synchronized ClientResponse answer(String user, String token, ClientRequest r) throws ControllerException {
        seen.add(new Seen(user, token, r));
        ClientResponse.Builder out = ClientResponse.newBuilder();
        switch (r.getBodyCase()) {
            case PING ->
                out.setPing(PingResponse.newBuilder()
                        .setController("ctl1")
                        .setClusterName("test")
                        .setStartTime(1_700_000_000L));
            case GET_JOBS -> {
                GetJobsResponse.Builder jobsOut = GetJobsResponse.newBuilder().setUpdateTime(1_700_000_100L);
                if (r.getGetJobs().getJobIdsCount() == 0) {
                    jobsOut.addAllJobs(jobs.values());
                }
                for (int id : r.getGetJobs().getJobIdsList()) {
                    JobInfo job = jobs.get(id);
                    if (job == null) {
                        throw new ControllerException(ErrorCode.INVALID_JOB_ID);
                    }
                    jobsOut.addJobs(job);
                }
                out.setGetJobs(jobsOut);
            }
            case SUBMIT_BATCH_JOB -> {
                var spec = r.getSubmitBatchJob().getSpec();
                if (!spec.getPartition().isEmpty() && !spec.getPartition().equals("debug")) {
                    throw new ControllerException(ErrorCode.INVALID_PARTITION_NAME);
                }
                int id = nextJob++;
                jobs.put(
                        id,
                        JobInfo.newBuilder()
                                .setJobId(id)
                                .setSpec(spec.toBuilder()
                                        .setOwner(Identity.newBuilder()
                                                .setUid(1000)
                                                .setGid(1000)
                                                .setUserName(user)))
                                .setState(JobState.PENDING)
                                .setReason("Priority")
                                .setSubmitTime(1_700_000_050L)
                                .setPartition("debug")
                                .setTimeLimitMinutes(spec.getTimeLimitMinutes())
                                .setWorkDir(spec.getWorkDir())
                                .setStdOut(spec.getStdOut())
                                .build());
                out.setSubmitBatchJob(SubmitBatchJobResponse.newBuilder().setJobId(id));
            }
            case SIGNAL_JOB -> {
                SignalJobResponse.Builder sig = SignalJobResponse.newBuilder();
                for (String id : r.getSignalJob().getJobIdsList()) {
                    JobInfo job = jobs.get(Integer.parseInt(id));
                    SlurmError.Builder err = SlurmError.newBuilder();
                    if (job == null) {
                        err.setCode(ErrorCode.INVALID_JOB_ID.number()).setMessage(ErrorCode.INVALID_JOB_ID.text());
                    } else if (r.getSignalJob().getCancel()) {
                        jobs.put(
                                job.getJobId(),
                                job.toBuilder().setState(JobState.CANCELLED).build());
                    }
                    sig.addResults(
                            SignalJobResponse.Result.newBuilder().setJobId(id).setError(err));
                }
                out.setSignalJob(sig);
            }
            case GET_NODES -> {
                GetNodesResponse.Builder n = GetNodesResponse.newBuilder().setUpdateTime(1_700_000_200L);
                if (r.getGetNodes().getNamesCount() == 0) {
                    n.addAllNodes(nodes.values());
                }
                for (String name : r.getGetNodes().getNamesList()) {
                    NodeInfo node = nodes.get(name);
                    if (node == null) {
                        throw new ControllerException(ErrorCode.INVALID_NODE_NAME);
                    }
                    n.addNodes(node);
                }
                out.setGetNodes(n);
            }
            case UPDATE_NODE -> {
                var u = r.getUpdateNode();
                if (PLAIN_USERS.contains(user)) {
                    throw new ControllerException(ErrorCode.USER_ID_MISSING);
                }
                List<String> names = HostList.expand(u.getNodeNames());
                for (String name : names) {
                    if (!nodes.containsKey(name)) {
                        throw new ControllerException(ErrorCode.INVALID_NODE_NAME);
                    }
                }
                for (String name : names) {
                    NodeInfo.Builder b = nodes.get(name).toBuilder().clearFlags();
                    switch (u.getState()) {
                        case NODE_STATE_REQUEST_DRAIN ->
                            b.addFlags("DRAIN").setReason(u.getReason()).setReasonUser(user);
                        case NODE_STATE_REQUEST_RESUME -> b.setReason("").setReasonUser("");
                        default -> throw new ControllerException(ErrorCode.INVALID_ARGUMENT);
                    }
                    nodes.put(name, b.build());
                }
                out.setUpdateNode(UpdateNodeResponse.getDefaultInstance());
            }
            case CREATE_NODE -> {
                if (PLAIN_USERS.contains(user)) {
                    throw new ControllerException(ErrorCode.USER_ID_MISSING);
                }
                String line = r.getCreateNode().getNodeLine();
                String name = line.replaceFirst("^NodeName=(\\S+).*$", "$1");
                if (!line.startsWith("NodeName=") || nodes.containsKey(name)) {
                    throw new ControllerException(ErrorCode.INVALID_NODE_NAME);
                }
                nodes.put(
                        name,
                        nodes.get("n1").toBuilder()
                                .setName(name)
                                .setHostname(name)
                                .build());
                out.setCreateNode(dev.sluice.protocol.v1.CreateNodeResponse.getDefaultInstance());
            }
            case GET_SHARES -> out.setGetShares(FakeShares.tree());
            case GET_PARTITIONS -> {
                List<String> names = r.getGetPartitions().getNamesList();
                if (!names.isEmpty() && !names.equals(List.of("debug"))) {
                    throw new ControllerException(ErrorCode.INVALID_PARTITION_NAME);
                }
                out.setGetPartitions(GetPartitionsResponse.newBuilder()
                        .setUpdateTime(1_700_000_300L)
                        .addPartitions(PartitionInfo.newBuilder()
                                .setName("debug")
                                .setNodes("n[1-2]")
                                .addAllNodeNames(nodes.keySet())
                                .setIsDefault(true)
                                .setMaxTimeMinutes(0xFFFFFFFF)
                                .setDefaultTimeMinutes(0xFFFFFFFF)
                                .setMaxNodes(0xFFFFFFFF)
                                .setMinNodes(0)
                                .setState(dev.sluice.protocol.v1.PartitionState.PARTITION_STATE_UP)
                                .setTotalCpus(8)
                                .setTotalNodes(2)));
            }
            case UPDATE_JOB -> {
                var u = r.getUpdateJob();
                UpdateJobResponse.Builder res = UpdateJobResponse.newBuilder();
                for (String id : u.getJobIdsList()) {
                    JobInfo job = jobs.get(Integer.parseInt(id));
                    SlurmError.Builder err = SlurmError.newBuilder();
                    if (job == null) {
                        err.setCode(ErrorCode.INVALID_JOB_ID.number()).setMessage(ErrorCode.INVALID_JOB_ID.text());
                    } else {
                        JobInfo.Builder b = job.toBuilder();
                        JobChanges c = u.getChanges();
                        if (c.hasTimeLimit()) {
                            b.setTimeLimitMinutes(c.getTimeLimit());
                        }
                        if (c.hasName()) {
                            b.getSpecBuilder().setName(c.getName());
                        }
                        switch (u.getAction()) {
                            case JOB_ACTION_HOLD ->
                                b.setHold("user").setReason("JobHeldUser").setPriority(0);
                            case JOB_ACTION_RELEASE ->
                                b.setHold("").setReason("Priority").setPriority(1);
                            case JOB_ACTION_REQUEUE, JOB_ACTION_REQUEUEHOLD -> {
                                boolean hold = u.getAction() == JobAction.JOB_ACTION_REQUEUEHOLD;
                                b.setState(JobState.PENDING)
                                        .setRestartCount(job.getRestartCount() + 1)
                                        .setReason(hold ? "JobHeldAdmin" : "BeginTime")
                                        .setPriority(hold ? 0 : 1)
                                        .clearNodeGres();
                            }
                            default -> {}
                        }
                        if (u.getAction().name().startsWith("JOB_ACTION_REQUEUE")
                                && job.getState() != JobState.RUNNING) {
                            // As the controller (JobRunControl): a pending job cannot be requeued.
                            err.setCode(ErrorCode.JOB_PENDING.number()).setMessage(ErrorCode.JOB_PENDING.text());
                        } else {
                            jobs.put(job.getJobId(), b.build());
                        }
                    }
                    res.addResults(
                            SignalJobResponse.Result.newBuilder().setJobId(id).setError(err));
                }
                out.setUpdateJob(res);
            }
            case GET_LICENSES ->
                out.setGetLicenses(GetLicensesResponse.newBuilder()
                        .addLicenses(LicenseInfo.newBuilder()
                                .setName("matlab")
                                .setTotal(4)
                                .setUsed(1)));
            case GET_RESERVATIONS ->
                out.setGetReservations(dev.sluice.protocol.v1.GetReservationsResponse.newBuilder()
                        .setNow(1_700_000_000L)
                        .addReservations(dev.sluice.protocol.v1.ReservationInfo.newBuilder()
                                .setName("maint")
                                .setStartTime(1_700_003_600L)
                                .setEndTime(1_700_007_200L)
                                .addNodes("n1")
                                .addNodes("n2")
                                .addUsers("alice")
                                .setUsersExcluded(true)
                                .addFlags("MAINT")
                                .setCoreCount(8)));
            case CREATE_RESERVATION -> {
                String name = r.getCreateReservation().getSpec().getName();
                out.setCreateReservation(dev.sluice.protocol.v1.CreateReservationResponse.newBuilder()
                        .setName(name.isEmpty() ? user + "_2" : name));
            }
            case UPDATE_RESERVATION ->
                out.setUpdateReservation(dev.sluice.protocol.v1.UpdateReservationResponse.getDefaultInstance());
            case DELETE_RESERVATION -> {
                if (!r.getDeleteReservation().getName().equals("maint")) {
                    throw new ControllerException(ErrorCode.RESERVATION_INVALID);
                }
                out.setDeleteReservation(dev.sluice.protocol.v1.DeleteReservationResponse.getDefaultInstance());
            }
            case RECONFIGURE -> out.setReconfigure(ReconfigureResponse.getDefaultInstance());
            case GET_STATISTICS ->
                out.setGetStatistics(GetStatisticsResponse.newBuilder()
                        .setRequestTime(1_700_000_600L)
                        .setSince(1_700_000_000L)
                        .setJobsSubmitted(3)
                        .setJobsCompleted(1)
                        .setCycles(4)
                        .setCycleSumMicros(1000)
                        .setDepthSum(8)
                        .addByType(RpcCount.newBuilder()
                                .setName("REQUEST_PING")
                                .setType(1008)
                                .setCount(1)
                                .setTotalMicros(50))
                        .addByType(RpcCount.newBuilder()
                                .setName("REQUEST_JOB_INFO")
                                .setType(2003)
                                .setCount(4)
                                .setTotalMicros(400))
                        .addByUser(RpcCount.newBuilder()
                                .setUserName(user)
                                .setUserId(1000)
                                .setCount(5)
                                .setTotalMicros(450)));
            case DELETE_NODE -> {
                if (nodes.remove(r.getDeleteNode().getNodeNames()) == null) {
                    throw new ControllerException(ErrorCode.INVALID_NODE_NAME);
                }
                out.setDeleteNode(DeleteNodeResponse.getDefaultInstance());
            }
            default -> throw new ControllerException(ErrorCode.NOT_SUPPORTED);
        }
        return out.build();
    }
}
