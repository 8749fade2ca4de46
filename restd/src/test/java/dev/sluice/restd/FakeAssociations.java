package dev.sluice.restd;

import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.AccountEntry;
import dev.sluice.protocol.v1.AddAccountsRequest;
import dev.sluice.protocol.v1.AddClusterRequest;
import dev.sluice.protocol.v1.AddResult;
import dev.sluice.protocol.v1.AddUsersRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.DeleteAssocRequest;
import dev.sluice.protocol.v1.DeleteAssocResult;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ListAssocResult;
import dev.sluice.protocol.v1.ListWckeysRequest;
import dev.sluice.protocol.v1.ListWckeysResult;
import dev.sluice.protocol.v1.ModifyAssocRequest;
import dev.sluice.protocol.v1.ModifyResult;
import dev.sluice.protocol.v1.UserEntry;
import dev.sluice.protocol.v1.WckeyEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link FakeAccounting}'s associations: the account physics with its user alice, the users and
 * accounts added beside them, the clusters and the users' wckeys; added, changed, deleted and
 * listed as sluice-dbd does, each change kept only when committed.
 */
final class FakeAssociations {
    private static final int INVALID_ARGUMENT = dev.sluice.common.error.ErrorCode.INVALID_ARGUMENT.number();

    /** The accounts, as sacctmgr added them (in lower case; sluice-dbd keeps what it is given). */
    private final List<AccountEntry> accounts = new ArrayList<>(List.of(AccountEntry.newBuilder()
            .setName("physics")
            .setDescription("physics dept")
            .setOrganization("science")
            .build()));

    /** The clusters the database has: this one, and those added ({@link FakeAccounting#clusters}). */
    private final List<String> clusters;

    /** The TRES each cluster's controller last reported, by cluster (none: never reported). */
    final Map<String, String> clusterTres = new HashMap<>();

    /** Users added beside alice. */
    private final List<UserEntry> users = new ArrayList<>();

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
    private final List<WckeyEntry> wckeys = new ArrayList<>();

    private int lastWckeyId;

    FakeAssociations(List<String> clusters) {
        this.clusters = clusters;
    }

    void addClusters(AddClusterRequest a) {
        if (a.getCommit()) {
            a.getNamesList().stream().filter(n -> !clusters.contains(n)).forEach(clusters::add);
        }
    }

    AddResult.Builder addUsers(AddUsersRequest a) throws AccountingException {
        // As sluice-dbd: wckeys alone for users it has (sacctmgr add user ... wckey=).
        for (String name : a.getNamesList()) {
            for (String wckey : a.getWckeysList()) {
                for (String cluster : a.getClustersList()) {
                    boolean had = wckeys.stream()
                            .anyMatch(w -> w.getUser().equals(name)
                                    && w.getName().equals(wckey)
                                    && w.getCluster().equals(cluster));
                    if (!had && a.getCommit()) {
                        boolean first =
                                wckeys.stream().noneMatch(w -> w.getUser().equals(name));
                        wckeys.add(WckeyEntry.newBuilder()
                                .setId(++lastWckeyId)
                                .setName(wckey)
                                .setCluster(cluster)
                                .setUser(name)
                                .setIsDefault(first || a.getDefaultWckey().equals(wckey))
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
        return added;
    }

    AddResult.Builder addAccounts(AddAccountsRequest a) {
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
        return added;
    }

    ModifyResult.Builder modify(ModifyAssocRequest m) {
        ModifyResult.Builder modified = ModifyResult.newBuilder();
        for (int i = 0; i < accounts.size(); i++) {
            AccountEntry e = accounts.get(i);
            if (m.getEntity() == AssocEntity.ACCOUNTS && m.getNamesList().contains(e.getName())) {
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
        return modified;
    }

    /** As sluice-dbd deletes: accounts by name, users by name, or a user's associations under accounts. */
    DeleteAssocResult delete(DeleteAssocRequest d) throws AccountingException {
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
    private static ListAssocResult.Builder narrowed(ListAssocRequest q, ListAssocResult.Builder listed) {
        List<AssociationEntry> kept = listed.getAssociationsList().stream()
                .filter(a -> q.getAccountsCount() == 0 || q.getAccountsList().contains(a.getAccount()))
                .filter(a -> q.getUsersCount() == 0 || q.getUsersList().contains(a.getUser()))
                .filter(a -> q.getClustersCount() == 0 || q.getClustersList().contains(a.getCluster()))
                .toList();
        return listed.clearAssociations().addAllAssociations(kept);
    }

    ListAssocResult.Builder list(ListAssocRequest q) {
        return narrowed(
                q,
                ListAssocResult.newBuilder()
                        .addAllAccounts(accounts.stream()
                                .filter(e -> q.getEntity() != AssocEntity.ACCOUNTS
                                        || q.getNamesCount() == 0
                                        || q.getNamesList().contains(e.getName()))
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
                                .setLimits(AssociationLimits.newBuilder().setShares(1)))
                        .addAllClusters(clusters.stream()
                                .filter(c -> q.getEntity() != AssocEntity.CLUSTERS
                                        || q.getNamesCount() == 0
                                        || q.getNamesList().contains(c))
                                .toList())
                        .putAllClusterTres(clusterTres));
    }

    /** As sluice-dbd lists wckeys: those of the names, users and ids asked, if any. */
    ListWckeysResult.Builder wckeys(ListWckeysRequest q) {
        return ListWckeysResult.newBuilder()
                .addAllWckeys(wckeys.stream()
                        .filter(w -> q.getNamesCount() == 0 || q.getNamesList().contains(w.getName()))
                        .filter(w -> q.getUsersCount() == 0 || q.getUsersList().contains(w.getUser()))
                        .filter(w -> q.getIdsCount() == 0 || q.getIdsList().contains(w.getId()))
                        .toList());
    }
}
