package dev.sluice.dbd.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.v1.AddQosRequest;
import dev.sluice.protocol.v1.AddUsersRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.DeleteQosRequest;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ListQosRequest;
import dev.sluice.protocol.v1.ModifyAssocRequest;
import dev.sluice.protocol.v1.ModifyQosRequest;
import dev.sluice.protocol.v1.PolicyRequest;
import dev.sluice.protocol.v1.PolicySnapshot;
import dev.sluice.protocol.v1.QosEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** QOS, sacctmgr modify and the controllers' policy snapshot, on each database. */
abstract class QosAndModifyContract {
    private StoreFixture fixture;
    private AssociationStore assocs;
    private AssociationEdits edits;
    private QosStore qos;
    private PolicyStore policy;
    private String cluster;
    private String acct;
    private String user;
    private String q;

    protected abstract String jdbcUrl();

    @BeforeEach
    void open() throws Exception {
        fixture = StoreFixture.open(jdbcUrl(), "phys");
        assocs = fixture.assocs;
        edits = new AssociationEdits(fixture.db.dataSource());
        qos = new QosStore(fixture.db.dataSource(), StoreFixture.CLOCK);
        policy = new PolicyStore(fixture.db.dataSource());
        cluster = fixture.cluster;
        acct = fixture.acct;
        user = fixture.user;
        q = "q" + fixture.id;
        assocs.addUsers(AddUsersRequest.newBuilder()
                .addNames(user)
                .addAccounts(acct)
                .addClusters(cluster)
                .setCommit(true)
                .build());
    }

    @AfterEach
    void close() {
        // Null when the database was not there and the test was skipped before opening it.
        if (fixture != null) {
            fixture.close();
        }
    }

    private PolicySnapshot snapshot(long known) throws Exception {
        return policy.snapshot(PolicyRequest.newBuilder()
                .setClusterName(cluster)
                .setKnownVersion(known)
                .build());
    }

    private AssociationEntry userAssoc(PolicySnapshot s) {
        return s.getAssociationsList().stream()
                .filter(a -> a.getUser().equals(user))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aQosKeepsTheCaseItCameIn() throws Exception {
        String mixed = "Mx" + q;
        qos.add(AddQosRequest.newBuilder()
                .addNames(mixed)
                .setSettings(QosEntry.newBuilder().setDescription("Rest Qos"))
                .addGiven("description")
                .setCommit(true)
                .build());
        assertThat(qos.list(ListQosRequest.newBuilder().addNames(mixed).build()).getQosList())
                .extracting(QosEntry::getName, QosEntry::getDescription)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(mixed, "Rest Qos"));
        assertThat(qos.list(ListQosRequest.newBuilder()
                                .addNames(mixed.toLowerCase(java.util.Locale.ROOT))
                                .build())
                        .getQosList())
                .extracting(QosEntry::getName)
                .containsExactly(mixed);
        qos.delete(DeleteQosRequest.newBuilder().addNames(mixed).setCommit(true).build());
        assertThat(qos.list(ListQosRequest.newBuilder().addNames(mixed).build()).getQosList())
                .isEmpty();
    }

    @Test
    void normalExistsAndQosAreAddedModifiedAndDeleted() throws Exception {
        assertThat(qos.list(ListQosRequest.newBuilder().addNames("normal").build())
                        .getQosList())
                .extracting(QosEntry::getName, QosEntry::getPriority, QosEntry::getId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("normal", 0, 1));
        AddQosRequest.Builder add = AddQosRequest.newBuilder()
                .addNames(q)
                .setSettings(QosEntry.newBuilder().setPriority(10).setMaxWallMinutes(60))
                .addGiven("priority")
                .addGiven("maxwall");
        assertThat(qos.add(add.setCommit(false).build()).getAddedList()).containsExactly(q);
        assertThat(qos.list(ListQosRequest.newBuilder().addNames(q).build()).getQosList())
                .isEmpty();
        qos.add(add.setCommit(true).build());
        assertThat(qos.add(add.build()).getAddedList()).isEmpty();
        QosEntry added =
                qos.list(ListQosRequest.newBuilder().addNames(q).build()).getQos(0);
        assertThat(added.getDescription()).isEqualTo(q);
        assertThat(added.getPriority()).isEqualTo(10);
        assertThat(added.getMaxWallMinutes()).isEqualTo(60);
        assertThat(added.hasMaxJobsPerUser()).isFalse();
        assertThat(added.getPreemptMode()).isEqualTo("cluster");
        // Numbered after every QOS created before it, as Slurm numbers them.
        assertThat(added.getId()).isGreaterThan(1);

        assertThat(qos.modify(ModifyQosRequest.newBuilder()
                                .addNames(q)
                                .setSettings(QosEntry.newBuilder()
                                        .setMaxJobsPerUser(2)
                                        .setGrpJobs(5)
                                        .setGrpSubmitJobs(9))
                                .addGiven("maxjobsperuser")
                                .addGiven("grpjobs")
                                .addGiven("grpsubmitjobs")
                                .addCleared("maxwall")
                                .setCommit(true)
                                .build())
                        .getModifiedList())
                .containsExactly(q);
        QosEntry modified =
                qos.list(ListQosRequest.newBuilder().addNames(q).build()).getQos(0);
        assertThat(modified.getMaxJobsPerUser()).isEqualTo(2);
        assertThat(modified.getGrpJobs()).isEqualTo(5);
        assertThat(modified.getGrpSubmitJobs()).isEqualTo(9);
        assertThat(modified.hasMaxWallMinutes()).isFalse();
        assertThat(modified.getPriority()).isEqualTo(10);

        assertThat(qos.delete(DeleteQosRequest.newBuilder()
                                .addNames(q)
                                .setCommit(true)
                                .build())
                        .getDeletedList())
                .containsExactly(q);
        assertThat(qos.list(ListQosRequest.newBuilder().addNames(q).build()).getQosList())
                .isEmpty();
    }

    @Test
    void deletedQosAreListedByNameWhateverTheOrderAsked() throws Exception {
        String late = "z" + q;
        String early = "a" + q;
        for (String name : java.util.List.of(late, early)) {
            qos.add(AddQosRequest.newBuilder().addNames(name).setCommit(true).build());
        }
        assertThat(qos.delete(DeleteQosRequest.newBuilder()
                                .addNames(late)
                                .addNames(early)
                                .setCommit(true)
                                .build())
                        .getDeletedList())
                .containsExactly(early, late);
    }

    @Test
    void modifyUserSetsDefaultAccountAndLimits() throws Exception {
        ModifyAssocRequest.Builder m = ModifyAssocRequest.newBuilder()
                .setEntity(AssocEntity.USERS)
                .addNames(user)
                .setDefaultAccount(acct)
                .setLimits(AssociationLimits.newBuilder()
                        .setMaxJobs(2)
                        .setMaxWallMinutes(30)
                        .setGrpJobs(4)
                        .setGrpSubmitJobs(8));
        var preview = edits.modify(m.setCommit(false).build());
        assertThat(preview.getModifiedList()).containsExactly(user);
        assertThat(preview.getAssociationsList())
                .extracting(AssociationEntry::getAccount)
                .containsExactly(acct);
        assertThat(userAssoc(snapshot(0)).getLimits().hasMaxJobs()).isFalse();
        edits.modify(m.setCommit(true).build());
        AssociationLimits l = userAssoc(snapshot(0)).getLimits();
        assertThat(l.getMaxJobs()).isEqualTo(2);
        assertThat(l.getMaxWallMinutes()).isEqualTo(30);
        assertThat(l.getGrpJobs()).isEqualTo(4);
        assertThat(l.getGrpSubmitJobs()).isEqualTo(8);

        edits.modify(ModifyAssocRequest.newBuilder()
                .setEntity(AssocEntity.USERS)
                .addNames(user)
                .addCleared("maxjobs")
                .addCleared("grpsubmitjobs")
                .setCommit(true)
                .build());
        assertThat(userAssoc(snapshot(0)).getLimits().hasMaxJobs()).isFalse();
        assertThat(userAssoc(snapshot(0)).getLimits().hasGrpSubmitJobs()).isFalse();
        assertThat(userAssoc(snapshot(0)).getLimits().getGrpJobs()).isEqualTo(4);
    }

    @Test
    void aDefaultAccountWithoutAssociationIsRefused() {
        assertThatThrownBy(() -> edits.modify(ModifyAssocRequest.newBuilder()
                        .setEntity(AssocEntity.USERS)
                        .addNames(user)
                        .setDefaultAccount("nosuch")
                        .setCommit(true)
                        .build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("aren't associated with new default account 'nosuch'");
    }

    @Test
    void modifyAccountChangesItsOwnAssociationOnly() throws Exception {
        var r = edits.modify(ModifyAssocRequest.newBuilder()
                .setEntity(AssocEntity.ACCOUNTS)
                .addNames(acct)
                .setDescription("Physics")
                .setLimits(AssociationLimits.newBuilder().setGrpTres("cpu=8"))
                .setCommit(true)
                .build());
        assertThat(r.getModifiedList()).containsExactly(acct);
        assertThat(r.getAssociationsList())
                .extracting(AssociationEntry::getUser)
                .containsExactly("");
        PolicySnapshot s = snapshot(0);
        assertThat(userAssoc(s).getLimits().hasGrpTres()).isFalse();
    }

    private AssociationEntry accountAssoc(PolicySnapshot s) {
        return s.getAssociationsList().stream()
                .filter(a -> a.getUser().isEmpty() && a.getAccount().equals(acct))
                .findFirst()
                .orElseThrow();
    }

    private void setAccountGrpTres(String tres) throws Exception {
        edits.modify(ModifyAssocRequest.newBuilder()
                .setEntity(AssocEntity.ACCOUNTS)
                .addNames(acct)
                .setLimits(AssociationLimits.newBuilder().setGrpTres(tres))
                .setCommit(true)
                .build());
    }

    @Test
    void aTresLimitChangesOnlyTheTresItNamesAndMinusOneRemovesOne() throws Exception {
        // Recorded from slurmdbd 22.05 (compat 216).
        setAccountGrpTres("node=2,cpu=4");
        assertThat(accountAssoc(snapshot(0)).getLimits().getGrpTres()).isEqualTo("cpu=4,node=2");
        setAccountGrpTres("node=-1");
        assertThat(accountAssoc(snapshot(0)).getLimits().getGrpTres()).isEqualTo("cpu=4");
        setAccountGrpTres("cpu=-1");
        assertThat(accountAssoc(snapshot(0)).getLimits().hasGrpTres()).isFalse();
    }

    @Test
    void anInheritedLimitSetOnAnAccountReportsTheUsersWithoutTheirOwn() throws Exception {
        // Recorded from slurmdbd 22.05 (compat 215): MaxJobs reaches the user below, GrpJobs not.
        ModifyAssocRequest.Builder maxJobs = ModifyAssocRequest.newBuilder()
                .setEntity(AssocEntity.ACCOUNTS)
                .addNames(acct)
                .setLimits(AssociationLimits.newBuilder().setMaxJobs(5))
                .setCommit(false);
        assertThat(edits.modify(maxJobs.build()).getAssociationsList())
                .extracting(AssociationEntry::getUser)
                .containsExactly("", user);
        ModifyAssocRequest.Builder grpJobs =
                maxJobs.clone().setLimits(AssociationLimits.newBuilder().setGrpJobs(5));
        assertThat(edits.modify(grpJobs.build()).getAssociationsList())
                .extracting(AssociationEntry::getUser)
                .containsExactly("");
        edits.modify(ModifyAssocRequest.newBuilder()
                .setEntity(AssocEntity.USERS)
                .addNames(user)
                .setLimits(AssociationLimits.newBuilder().setMaxJobs(2))
                .setCommit(true)
                .build());
        assertThat(edits.modify(maxJobs.build()).getAssociationsList())
                .extracting(AssociationEntry::getUser)
                .containsExactly("");
    }

    @Test
    void anAssociationsMaxTresPerNodeIsMergedClearedAndReachesTheUsersBelow() throws Exception {
        ModifyAssocRequest.Builder onUser = ModifyAssocRequest.newBuilder()
                .setEntity(AssocEntity.USERS)
                .addNames(user)
                .setCommit(true);
        edits.modify(onUser.clone()
                .setLimits(AssociationLimits.newBuilder().setMaxTresPerNode("gres/gpu=1,cpu=2"))
                .build());
        assertThat(userAssoc(snapshot(0)).getLimits().getMaxTresPerNode()).isEqualTo("cpu=2,gres/gpu=1");
        edits.modify(onUser.clone()
                .setLimits(AssociationLimits.newBuilder().setMaxTresPerNode("cpu=3"))
                .build());
        assertThat(userAssoc(snapshot(0)).getLimits().getMaxTresPerNode()).isEqualTo("cpu=3,gres/gpu=1");
        edits.modify(onUser.clone().addCleared("maxtrespernode").build());
        assertThat(userAssoc(snapshot(0)).getLimits().hasMaxTresPerNode()).isFalse();
        // Inherited like MaxTRES: an account's reaches the user without one of its own.
        var onAccount = edits.modify(ModifyAssocRequest.newBuilder()
                .setEntity(AssocEntity.ACCOUNTS)
                .addNames(acct)
                .setLimits(AssociationLimits.newBuilder().setMaxTresPerNode("gres/gpu=2"))
                .setCommit(true)
                .build());
        assertThat(onAccount.getAssociationsList())
                .extracting(AssociationEntry::getUser)
                .containsExactly("", user);
        assertThat(accountAssoc(snapshot(0)).getLimits().getMaxTresPerNode()).isEqualTo("gres/gpu=2");
        // slurmdbd lists the user with its account's value (compat 252); what is kept stays its own.
        assertThat(userAssoc(snapshot(0)).getLimits().hasMaxTresPerNode()).isFalse();
        edits.modify(onUser.clone()
                .setLimits(AssociationLimits.newBuilder().setMaxTresPerNode("cpu=2"))
                .build());
        AssociationEntry listed = assocs.list(ListAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ASSOCIATIONS)
                        .addClusters(cluster)
                        .addUsers(user)
                        .build())
                .getAssociations(0);
        assertThat(listed.getLimits().getMaxTresPerNode()).isEqualTo("cpu=2,gres/gpu=2");
    }

    @Test
    void aUserIsListedWithItsAccountsMaxLimitsButNotItsGrpOnes() throws Exception {
        edits.modify(ModifyAssocRequest.newBuilder()
                .setEntity(AssocEntity.ACCOUNTS)
                .addNames(acct)
                .setLimits(AssociationLimits.newBuilder()
                        .setMaxJobs(5)
                        .setMaxSubmitJobs(7)
                        .setMaxWallMinutes(30)
                        .setMaxTres("cpu=4")
                        .setGrpJobs(3)
                        .setGrpTres("cpu=6"))
                .setCommit(true)
                .build());
        edits.modify(ModifyAssocRequest.newBuilder()
                .setEntity(AssocEntity.USERS)
                .addNames(user)
                .setLimits(AssociationLimits.newBuilder().setMaxJobs(2).setMaxTres("gres/gpu=1"))
                .setCommit(true)
                .build());
        AssociationLimits listed = assocs.list(ListAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ASSOCIATIONS)
                        .addClusters(cluster)
                        .addUsers(user)
                        .build())
                .getAssociations(0)
                .getLimits();
        // compat 267: the account's Max limits fill in what the user leaves unset; Grp ones do not.
        assertThat(listed.getMaxJobs()).isEqualTo(2);
        assertThat(listed.getMaxSubmitJobs()).isEqualTo(7);
        assertThat(listed.getMaxWallMinutes()).isEqualTo(30);
        assertThat(listed.getMaxTres()).isEqualTo("cpu=4,gres/gpu=1");
        assertThat(listed.hasGrpJobs()).isFalse();
        assertThat(listed.hasGrpTres()).isFalse();
        assertThat(userAssoc(snapshot(0)).getLimits().hasMaxSubmitJobs()).isFalse();
    }

    @Test
    void theVersionMovesOnlyWithCommittedChanges() throws Exception {
        long v = snapshot(0).getVersion();
        assertThat(snapshot(v).getUnchanged()).isTrue();
        assertThat(snapshot(v).getAssociationsCount()).isZero();
        qos.add(AddQosRequest.newBuilder().addNames(q).setCommit(false).build());
        assertThat(snapshot(v).getUnchanged()).isTrue();
        qos.add(AddQosRequest.newBuilder().addNames(q).setCommit(true).build());
        PolicySnapshot after = snapshot(v);
        assertThat(after.getUnchanged()).isFalse();
        assertThat(after.getVersion()).isGreaterThan(v);
        assertThat(after.getQosList()).extracting(QosEntry::getName).contains("normal", q);
        assertThat(after.getUsersList())
                .anyMatch(u -> u.getName().equals(user) && u.getDefaultAccount().equals(acct));
        assertThat(after.getAssociationsList()).allMatch(a -> a.getCluster().equals(cluster));
        qos.delete(DeleteQosRequest.newBuilder().addNames(q).setCommit(true).build());
    }
}
