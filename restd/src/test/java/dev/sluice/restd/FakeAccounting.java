package dev.sluice.restd;

import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.AccountEntry;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.JobQueryResult;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.ListAssocResult;
import dev.sluice.protocol.v1.ListQosResult;
import dev.sluice.protocol.v1.ListTresResult;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.protocol.v1.UserEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * A stand-in sluice-dbd for the REST tests: two finished jobs, the built-in TRES and a GPU, one
 * account with one user, the cluster test and two QOS; filters jobs by id and user as the daemon does, and records requests.
 */
final class FakeAccounting {
    final List<DbdRequest> seen = new ArrayList<>();
    volatile boolean down;

    private final List<AccountedJob> jobs = List.of(
            AccountedJob.newBuilder()
                    .setCluster("test")
                    .setJobId(7)
                    .setName("train")
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
                    .build());

    /** normal as Slurm creates it; high with every setting sluice-dbd keeps. */
    private final List<QosEntry> qos = List.of(
            QosEntry.newBuilder()
                    .setName("normal")
                    .setDescription("Normal QOS default")
                    .setPreemptMode("cluster")
                    .setUsageFactor(1.0)
                    .build(),
            QosEntry.newBuilder()
                    .setName("high")
                    .setDescription("urgent work")
                    .setPriority(100)
                    .setGraceTimeSeconds(120)
                    .addPreempt("normal")
                    .setPreemptMode("requeue")
                    .setPreemptExemptSeconds(300)
                    .addFlags("DenyOnLimit")
                    .addFlags("NoReserve")
                    .setUsageFactor(2.5)
                    .setGrpTres("cpu=8,gres/gpu=2")
                    .setMaxTresPerUser("cpu=4")
                    .setMaxWallMinutes(60)
                    .setMaxJobsPerUser(2)
                    .setMaxSubmitJobsPerUser(0)
                    .build());

    synchronized DbdResponse call(DbdRequest.Builder request) throws AccountingException {
        DbdRequest r = request.build();
        seen.add(r);
        if (down) {
            throw new AccountingException("Problem talking to the database: Connection refused");
        }
        DbdResponse.Builder out = DbdResponse.newBuilder();
        switch (r.getBodyCase()) {
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
            case LIST_ASSOC ->
                out.setListed(ListAssocResult.newBuilder()
                        .addAccounts(AccountEntry.newBuilder()
                                .setName("physics")
                                .setDescription("physics dept")
                                .setOrganization("science"))
                        .addUsers(UserEntry.newBuilder().setName("alice").setDefaultAccount("physics"))
                        .addAssociations(AssociationEntry.newBuilder()
                                .setCluster("test")
                                .setAccount("physics")
                                .setParentAccount("root")
                                .setId(2)
                                .setLimits(AssociationLimits.newBuilder().setShares(10)))
                        .addAssociations(AssociationEntry.newBuilder()
                                .setCluster("test")
                                .setAccount("physics")
                                .setUser("alice")
                                .setId(3)
                                .setLimits(AssociationLimits.newBuilder()
                                        .setShares(1)
                                        .setMaxJobs(4)
                                        .setQos("normal,high")
                                        .setDefaultQos("normal")))
                        .addAssociations(AssociationEntry.newBuilder()
                                .setCluster("test")
                                .setAccount("root")
                                .setId(1)
                                .setLimits(AssociationLimits.newBuilder().setShares(1)))
                        .addClusters("test"));
            case LIST_QOS ->
                out.setListedQos(ListQosResult.newBuilder()
                        .addAllQos(qos.stream()
                                .filter(q -> r.getListQos().getNamesCount() == 0
                                        || r.getListQos().getNamesList().contains(q.getName()))
                                .toList()));
            default -> throw new AccountingException("unexpected " + r.getBodyCase());
        }
        return out.build();
    }
}
