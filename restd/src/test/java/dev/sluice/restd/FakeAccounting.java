package dev.sluice.restd;

import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.JobQueryResult;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.ListTresResult;
import dev.sluice.protocol.v1.ModifiedJob;
import dev.sluice.protocol.v1.ModifyJobsRequest;
import dev.sluice.protocol.v1.ModifyResult;
import dev.sluice.protocol.v1.TresEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * A stand-in sluice-dbd for the REST tests: two finished jobs, the built-in TRES and a GPU, one
 * account with one user, the cluster test and two QOS; filters jobs by id and user as the daemon does, and records requests.
 * The associations and wckeys are kept by {@link FakeAssociations}, the QOS by {@link FakeQos}.
 */
final class FakeAccounting {
    final List<DbdRequest> seen = new ArrayList<>();
    volatile boolean down;

    private final List<AccountedJob> jobs = new ArrayList<>(List.of(
            AccountedJob.newBuilder()
                    .setCluster("test")
                    .setJobId(7)
                    .setName("train")
                    .setWckey("*w7")
                    .setUserName("alice")
                    .setUid(1000)
                    .setGroupName("alice")
                    .setAccount("physics")
                    .setPartition("debug")
                    .setQos("normal")
                    .setSubmitTime(1_700_000_000L)
                    .setEligibleTime(1_700_000_000L)
                    .setStartTime(1_700_000_010L)
                    .setEndTime(1_700_000_070L)
                    .setState(JobState.COMPLETED)
                    .setNodeList("n1")
                    .setNumNodes(1)
                    .setNumCpus(2)
                    .setReqCpus(2)
                    .setReqTres("cpu=2,mem=1000M,node=1,billing=2,gres/gpu=1")
                    .setAllocTres("cpu=2,mem=1000M,node=1,billing=2,gres/gpu=1")
                    .setTimeLimitMinutes(10)
                    .setWorkDir("/home/alice")
                    .setAssocId(3)
                    .addSteps(AccountedStep.newBuilder()
                            .setStepId(0xfffffffb)
                            .setName("batch")
                            .setState(JobState.COMPLETED)
                            .setStartTime(1_700_000_010L)
                            .setEndTime(1_700_000_070L)
                            .setNodeList("n1")
                            .setNumNodes(1)
                            .setNumTasks(1)
                            .setNumCpus(2)
                            .setAllocTres("cpu=2,mem=1000M,node=1"))
                    .build(),
            AccountedJob.newBuilder()
                    .setCluster("test")
                    .setJobId(8)
                    .setName("oops")
                    .setUserName("bob")
                    .setUid(1001)
                    .setAccount("physics")
                    .setPartition("debug")
                    .setSubmitTime(1_700_000_100L)
                    .setStartTime(1_700_000_110L)
                    .setEndTime(1_700_000_111L)
                    .setState(JobState.FAILED)
                    .setExitStatus(3 << 8)
                    .setNodeList("n2")
                    .setNumNodes(1)
                    .setTimeLimitMinutes(0xFFFFFFFF)
                    .setAllocTres("cpu=1,mem=500M,node=1,billing=1")
                    .build()));

    /** The clusters the database has: this one, and those added. */
    final List<String> clusters = new ArrayList<>(List.of("test"));

    final FakeAssociations associations = new FakeAssociations(clusters);

    private final FakeQos qos = new FakeQos();

    /** As sluice-dbd: only these may change anything; anyone else gets 2002. */
    private static final java.util.Set<String> OPERATORS = java.util.Set.of("root", "slurm");

    /** As the REST user's session does: every request goes out as {@code user}. */
    synchronized DbdResponse call(String user, DbdRequest.Builder request) throws AccountingException {
        DbdRequest r = request.build();
        seen.add(r);
        if (down) {
            throw new AccountingException("Problem talking to the database: Connection refused");
        }
        DbdResponse.Builder out = DbdResponse.newBuilder();
        boolean changes = switch (r.getBodyCase()) {
            case ADD_ACCOUNTS, ADD_USERS, ADD_CLUSTERS, MODIFY_ASSOC, DELETE_QOS, DELETE_ASSOC, ADD_QOS, MODIFY_QOS ->
                true;
            default -> false;
        };
        if (changes && !OPERATORS.contains(user)) {
            throw new AccountingException("Access/permission denied", 2002);
        }
        switch (r.getBodyCase()) {
            case DELETE_ASSOC -> out.setDeleted(associations.delete(r.getDeleteAssoc()));
            case ADD_CLUSTERS -> associations.addClusters(r.getAddClusters());
            case ADD_QOS -> out.setAdded(qos.add(r.getAddQos()));
            case MODIFY_QOS -> out.setModified(qos.modify(r.getModifyQos()));
            case ADD_USERS -> out.setAdded(associations.addUsers(r.getAddUsers()));
            case DELETE_QOS -> out.setDeleted(qos.delete(r.getDeleteQos()));
            case ADD_ACCOUNTS -> out.setAdded(associations.addAccounts(r.getAddAccounts()));
            case MODIFY_ASSOC -> out.setModified(associations.modify(r.getModifyAssoc()));
            case MODIFY_JOBS -> out.setModified(modifyJobs(user, r.getModifyJobs()));
            case QUERY_JOBS -> {
                var q = r.getQueryJobs();
                out.setJobs(JobQueryResult.newBuilder()
                        .addAllJobs(jobs.stream()
                                .filter(j -> q.getJobIdsCount() == 0
                                        || q.getJobIdsList().contains(j.getJobId()))
                                .filter(j -> q.getUsersCount() == 0
                                        || q.getUsersList().contains(j.getUserName()))
                                .filter(j -> q.getStatesCount() == 0
                                        || q.getStatesList().contains(j.getState()))
                                .toList()));
            }
            // As sluice-dbd: statistics for operators only, in the order first counted.
            case GET_STATS -> {
                if (!OPERATORS.contains(user)) {
                    throw new AccountingException("Access/permission denied", 2002);
                }
                out.setStats(dev.sluice.protocol.v1.DbdStats.newBuilder()
                        .setSince(1_800_000_000L)
                        .setNow(1_800_000_100L)
                        .setInternalRollup(dev.sluice.protocol.v1.RollupTally.newBuilder()
                                .setLastRun(1_800_000_050L)
                                .setLastCycle(300)
                                .setMaxCycle(900)
                                .setTotalTime(1200)
                                .setCycles(2))
                        .addByType(dev.sluice.protocol.v1.RpcTally.newBuilder()
                                .setName("DBD_CLEAR_STATS")
                                .setId(1491)
                                .setCount(1)
                                .setTotalMicros(80))
                        .addByType(dev.sluice.protocol.v1.RpcTally.newBuilder()
                                .setName("DBD_GET_QOS")
                                .setId(1448)
                                .setCount(3)
                                .setTotalMicros(100))
                        .addByUser(dev.sluice.protocol.v1.RpcTally.newBuilder()
                                .setName("root")
                                .setCount(4)
                                .setTotalMicros(180)));
            }
            // As sluice-dbd: wckeys are listed to operators only (compat 157, 208).
            case LIST_WCKEYS -> {
                if (!OPERATORS.contains(user)) {
                    throw new AccountingException("Access/permission denied", 2002);
                }
                out.setListedWckeys(associations.wckeys(r.getListWckeys()));
            }
            case LIST_TRES ->
                out.setListedTres(ListTresResult.newBuilder()
                        .addTres(TresEntry.newBuilder().setId(1).setType("cpu"))
                        .addTres(TresEntry.newBuilder().setId(2).setType("mem"))
                        .addTres(TresEntry.newBuilder().setId(4).setType("node"))
                        .addTres(TresEntry.newBuilder().setId(5).setType("billing"))
                        .addTres(TresEntry.newBuilder()
                                .setId(1001)
                                .setType("gres")
                                .setName("gpu")));
            case LIST_ASSOC -> out.setListed(associations.list(r.getListAssoc()));
            case LIST_QOS -> out.setListedQos(qos.list(r.getListQos()));
            default -> throw new AccountingException("unexpected " + r.getBodyCase());
        }
        return out.build();
    }

    /**
     * As sluice-dbd's JobEdits: a job's owner its own job's comment and exit code, operators
     * anything; unknown jobs and a new wckey change nothing, with the daemon's note.
     */
    private ModifyResult modifyJobs(String user, ModifyJobsRequest r) throws AccountingException {
        boolean operator = OPERATORS.contains(user);
        List<Integer> found = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            AccountedJob j = jobs.get(i);
            if (!r.getJobIdsList().contains(j.getJobId())) {
                continue;
            }
            if (!operator && (!j.getUserName().equals(user) || r.hasAdminComment() || r.hasSystemComment())) {
                throw new AccountingException("Access/permission denied", 2002);
            }
            found.add(i);
        }
        ModifyResult.Builder out = ModifyResult.newBuilder();
        if (found.isEmpty() || r.hasWckey()) {
            return out.setNote(found.isEmpty() ? "Request didn't affect anything" : "No error")
                    .build();
        }
        for (int i : found) {
            AccountedJob.Builder j = jobs.get(i).toBuilder();
            if (r.hasComment()) {
                j.setComment(r.getComment());
            }
            if (r.hasAdminComment()) {
                j.setAdminComment(r.getAdminComment());
            }
            if (r.hasSystemComment()) {
                j.setSystemComment(r.getSystemComment());
            }
            if (r.hasDerivedExitStatus()) {
                j.setDerivedExitStatus(r.getDerivedExitStatus());
            }
            if (r.getCommit()) {
                jobs.set(i, j.build());
            }
            out.addJobs(ModifiedJob.newBuilder().setJobId(j.getJobId()).setSubmitTime(j.getSubmitTime()));
        }
        return out.build();
    }
}
