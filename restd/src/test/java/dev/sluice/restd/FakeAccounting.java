package dev.sluice.restd;

import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.AccountEntry;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import dev.sluice.protocol.v1.AddResult;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.DeleteAssocResult;
import dev.sluice.protocol.v1.JobQueryResult;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.ListAssocResult;
import dev.sluice.protocol.v1.ListQosResult;
import dev.sluice.protocol.v1.ListTresResult;
import dev.sluice.protocol.v1.ModifyResult;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.protocol.v1.UserEntry;
import dev.sluice.protocol.v1.WckeyEntry;
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
                    .build());

    /** normal as Slurm creates it; high with every setting sluice-dbd keeps. */
    private final List<QosEntry> qos = new ArrayList<>(List.of(
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
                    .build()));

    /** The accounts, as sacctmgr added them (in lower case; sluice-dbd keeps what it is given). */
    private final List<AccountEntry> accounts = new ArrayList<>(List.of(AccountEntry.newBuilder()
            .setName("physics")
            .setDescription("physics dept")
            .setOrganization("science")
            .build()));

    private static final int INVALID_ARGUMENT = dev.sluice.common.error.ErrorCode.INVALID_ARGUMENT.number();

    /** The clusters the database has: this one, and those added. */
    final List<String> clusters = new ArrayList<>(List.of("test"));

    /** Users added beside alice. */
    final List<UserEntry> users = new ArrayList<>();

    /** alice, and her association under physics, until deleted. */
    private boolean alice = true;

    private boolean aliceInPhysics = true;

    private static final AssociationEntry ALICE_IN_PHYSICS = AssociationEntry.newBuilder()
            .setCluster("test")
            .setAccount("physics")
            .setUser("alice")
            .setId(3)
            .setLimits(AssociationLimits.newBuilder()
                    .setShares(1)
                    .setMaxJobs(4)
                    .setQos("normal,high")
                    .setDefaultQos("normal"))
            .build();

    /** The users' wckeys, numbered as added. */
    private final List<WckeyEntry> wckeys = new java.util.ArrayList<>();

    private int lastWckeyId;

    /** As sluice-dbd deletes: accounts by name, users by name, or a user's associations under accounts. */
    private DeleteAssocResult delete(dev.sluice.protocol.v1.DeleteAssocRequest d) throws AccountingException {
        DeleteAssocResult.Builder out = DeleteAssocResult.newBuilder();
        switch (d.getEntity()) {
            case ACCOUNTS -> {
                List<AccountEntry> gone = accounts.stream()
                        .filter(a -> d.getNamesList().contains(a.getName()))
                        .toList();
                gone.forEach(a -> out.addDeleted(a.getName()));
                if (d.getCommit()) {
                    accounts.removeAll(gone);
                }
            }
            case USERS -> {
                if (d.getWckeysCount() > 0) {
                    List<WckeyEntry> gone = wckeys.stream()
                            .filter(w -> d.getNamesList().contains(w.getUser())
                                    && d.getWckeysList().contains(w.getName()))
                            .toList();
                    out.addAllWckeys(gone);
                    if (d.getCommit()) {
                        wckeys.removeAll(gone);
                    }
                } else if (d.getAccountsCount() > 0) {
                    if (aliceInPhysics
                            && d.getNamesList().contains("alice")
                            && d.getAccountsList().contains("physics")) {
                        out.addAssociations(ALICE_IN_PHYSICS);
                        aliceInPhysics = !d.getCommit();
                    }
                } else if (alice && d.getNamesList().contains("alice")) {
                    out.addDeleted("alice");
                    alice = !d.getCommit();
                    aliceInPhysics = alice && aliceInPhysics;
                }
            }
            // sluice-dbd's refusal of what it cannot delete (clusters): its INVALID_ARGUMENT.
            default -> throw new AccountingException(" Can't delete " + d.getEntity(), INVALID_ARGUMENT);
        }
        return out.build();
    }

    /** As sluice-dbd lists associations: those of the accounts, users and clusters asked, if any. */
    private static ListAssocResult.Builder narrowed(
            dev.sluice.protocol.v1.ListAssocRequest q, ListAssocResult.Builder listed) {
        List<AssociationEntry> kept = listed.getAssociationsList().stream()
                .filter(a -> q.getAccountsCount() == 0 || q.getAccountsList().contains(a.getAccount()))
                .filter(a -> q.getUsersCount() == 0 || q.getUsersList().contains(a.getUser()))
                .filter(a -> q.getClustersCount() == 0 || q.getClustersList().contains(a.getCluster()))
                .toList();
        return listed.clearAssociations().addAllAssociations(kept);
    }

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
            case DELETE_ASSOC -> out.setDeleted(delete(r.getDeleteAssoc()));
            case ADD_CLUSTERS -> {
                if (r.getAddClusters().getCommit()) {
                    r.getAddClusters().getNamesList().stream()
                            .filter(n -> !clusters.contains(n))
                            .forEach(clusters::add);
                }
            }
            case ADD_QOS -> {
                AddResult.Builder added = AddResult.newBuilder();
                for (String name : r.getAddQos().getNamesList()) {
                    added.addAdded(name);
                    if (r.getAddQos().getCommit()) {
                        qos.add(r.getAddQos().getSettings().toBuilder()
                                .setName(name)
                                .build());
                    }
                }
                out.setAdded(added);
            }
            case MODIFY_QOS -> {
                var m = r.getModifyQos();
                ModifyResult.Builder modified = ModifyResult.newBuilder();
                for (int i = 0; i < qos.size(); i++) {
                    if (m.getNamesList().contains(qos.get(i).getName())) {
                        modified.addModified(qos.get(i).getName());
                        QosEntry.Builder changed = qos.get(i).toBuilder();
                        if (m.getGivenList().contains("description")) {
                            changed.setDescription(m.getSettings().getDescription());
                        }
                        if (m.getGivenList().contains("priority")) {
                            changed.setPriority(m.getSettings().getPriority());
                        }
                        if (m.getCommit()) {
                            qos.set(i, changed.build());
                        }
                    }
                }
                out.setModified(modified);
            }
            case ADD_USERS -> {
                var a = r.getAddUsers();
                // As sluice-dbd: wckeys alone for users it has (sacctmgr add user ... wckey=).
                for (String name : a.getNamesList()) {
                    for (String wckey : a.getWckeysList()) {
                        for (String cluster : a.getClustersList()) {
                            boolean had = wckeys.stream()
                                    .anyMatch(w -> w.getUser().equals(name)
                                            && w.getName().equals(wckey)
                                            && w.getCluster().equals(cluster));
                            if (!had && a.getCommit()) {
                                boolean first = wckeys.stream()
                                        .noneMatch(w -> w.getUser().equals(name));
                                wckeys.add(WckeyEntry.newBuilder()
                                        .setId(++lastWckeyId)
                                        .setName(wckey)
                                        .setCluster(cluster)
                                        .setUser(name)
                                        .setIsDefault(
                                                first || a.getDefaultWckey().equals(wckey))
                                        .build());
                            }
                        }
                    }
                }
                for (String account : a.getAccountsList()) {
                    if (accounts.stream().noneMatch(e -> e.getName().equals(account))) {
                        throw new AccountingException(" This account '" + account + "' doesn't exist.", 22);
                    }
                }
                AddResult.Builder added = AddResult.newBuilder();
                for (String name : a.getNamesList()) {
                    if (!name.equals("alice")
                            && users.stream().noneMatch(u -> u.getName().equals(name))) {
                        added.addAdded(name);
                        if (a.getCommit()) {
                            users.add(UserEntry.newBuilder()
                                    .setName(name)
                                    .setAdminLevel(a.getAdminLevel())
                                    .build());
                        }
                    }
                }
                out.setAdded(added);
            }
            case DELETE_QOS -> {
                var d = r.getDeleteQos();
                List<QosEntry> gone = qos.stream()
                        .filter(q -> d.getNamesList().contains(q.getName()))
                        .toList();
                if (d.getCommit()) {
                    qos.removeAll(gone);
                }
                out.setDeleted(DeleteAssocResult.newBuilder()
                        .addAllDeleted(gone.stream().map(QosEntry::getName).toList()));
            }
            case ADD_ACCOUNTS -> {
                var a = r.getAddAccounts();
                AddResult.Builder added = AddResult.newBuilder();
                for (String name : a.getNamesList()) {
                    if (accounts.stream().noneMatch(e -> e.getName().equals(name))) {
                        added.addAdded(name);
                        if (a.getCommit()) {
                            accounts.add(AccountEntry.newBuilder()
                                    .setName(name)
                                    .setDescription(a.getDescription().isEmpty() ? name : a.getDescription())
                                    .setOrganization(a.getOrganization().isEmpty() ? name : a.getOrganization())
                                    .build());
                        }
                    }
                }
                out.setAdded(added);
            }
            case MODIFY_ASSOC -> {
                var m = r.getModifyAssoc();
                ModifyResult.Builder modified = ModifyResult.newBuilder();
                for (int i = 0; i < accounts.size(); i++) {
                    AccountEntry e = accounts.get(i);
                    if (m.getEntity() == AssocEntity.ACCOUNTS
                            && m.getNamesList().contains(e.getName())) {
                        AccountEntry.Builder changed = e.toBuilder();
                        if (m.hasDescription()) {
                            changed.setDescription(m.getDescription());
                        }
                        if (m.hasOrganization()) {
                            changed.setOrganization(m.getOrganization());
                        }
                        modified.addModified(e.getName());
                        if (m.getCommit()) {
                            accounts.set(i, changed.build());
                        }
                    }
                }
                out.setModified(modified);
            }
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
                var q = r.getListWckeys();
                out.setListedWckeys(dev.sluice.protocol.v1.ListWckeysResult.newBuilder()
                        .addAllWckeys(wckeys.stream()
                                .filter(w -> q.getNamesCount() == 0
                                        || q.getNamesList().contains(w.getName()))
                                .filter(w -> q.getUsersCount() == 0
                                        || q.getUsersList().contains(w.getUser()))
                                .filter(w ->
                                        q.getIdsCount() == 0 || q.getIdsList().contains(w.getId()))
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
                out.setListed(narrowed(
                        r.getListAssoc(),
                        ListAssocResult.newBuilder()
                                .addAllAccounts(accounts.stream()
                                        .filter(e -> r.getListAssoc().getEntity() != AssocEntity.ACCOUNTS
                                                || r.getListAssoc().getNamesCount() == 0
                                                || r.getListAssoc()
                                                        .getNamesList()
                                                        .contains(e.getName()))
                                        .toList())
                                .addAllUsers(
                                        alice
                                                ? List.of(UserEntry.newBuilder()
                                                        .setName("alice")
                                                        .setDefaultAccount("physics")
                                                        .build())
                                                : List.of())
                                .addAllUsers(users)
                                .addAssociations(AssociationEntry.newBuilder()
                                        .setCluster("test")
                                        .setAccount("physics")
                                        .setParentAccount("root")
                                        .setId(2)
                                        .setLimits(AssociationLimits.newBuilder()
                                                .setShares(10)
                                                .setGrpTres("cpu=8,gres/gpu=2")
                                                .setMaxWallMinutes(30)))
                                .addAllAssociations(aliceInPhysics ? List.of(ALICE_IN_PHYSICS) : List.of())
                                .addAssociations(AssociationEntry.newBuilder()
                                        .setCluster("test")
                                        .setAccount("root")
                                        .setId(1)
                                        .setLimits(
                                                AssociationLimits.newBuilder().setShares(1)))
                                .addAllClusters(clusters.stream()
                                        .filter(c -> r.getListAssoc().getEntity() != AssocEntity.CLUSTERS
                                                || r.getListAssoc().getNamesCount() == 0
                                                || r.getListAssoc()
                                                        .getNamesList()
                                                        .contains(c))
                                        .toList())));
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
