package dev.sluice.dbd.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.v1.AddAccountsRequest;
import dev.sluice.protocol.v1.AddClusterRequest;
import dev.sluice.protocol.v1.AddUsersRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.DeleteAssocRequest;
import dev.sluice.protocol.v1.ListAssocRequest;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** sacctmgr's storage on each database; names carry a random suffix so runs can share a schema. */
abstract class AssociationStoreContract {
    private Database db;
    private AssociationStore store;
    private String cluster;
    private String acct;
    private String user;

    protected abstract String jdbcUrl();

    @BeforeEach
    void open() throws Exception {
        db = Database.open(jdbcUrl(), "", "", 2);
        store = new AssociationStore(db.dataSource(), InstantSource.fixed(Instant.ofEpochSecond(1_700_000_000)));
        String id = UUID.randomUUID().toString().substring(0, 8);
        cluster = "c" + id;
        acct = "phys" + id;
        user = "u" + id;
        assertThat(store.addClusters(AddClusterRequest.newBuilder()
                                .addNames(cluster)
                                .setCommit(true)
                                .build())
                        .getAddedList())
                .containsExactly(cluster);
    }

    @AfterEach
    void close() {
        // Null when the database was not there and the test was skipped before opening it.
        if (db != null) {
            db.close();
        }
    }

    private List<String> assocs() throws Exception {
        return store
                .list(ListAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ASSOCIATIONS)
                        .addClusters(cluster)
                        .build())
                .getAssociationsList()
                .stream()
                .map(a -> a.getAccount() + "|" + a.getUser() + "|" + a.getParentAccount())
                .toList();
    }

    private AddAccountsRequest.Builder account(String name) {
        return AddAccountsRequest.newBuilder().addNames(name).addClusters(cluster);
    }

    @Test
    void aNewClusterHasTheRootAssociations() throws Exception {
        assertThat(assocs()).containsExactly("root||", "root|root|root");
        assertThat(store.addClusters(AddClusterRequest.newBuilder()
                                .addNames(cluster)
                                .setCommit(true)
                                .build())
                        .getAddedList())
                .isEmpty();
    }

    @Test
    void aPreviewChangesNothingAndACommitAddsOnce() throws Exception {
        var preview =
                store.addAccounts(account(acct).setDescription("Physics Dept").build());
        assertThat(preview.getAddedList()).containsExactly(acct);
        assertThat(assocs()).containsExactly("root||", "root|root|root");

        store.addAccounts(
                account(acct).setDescription("Physics Dept").setCommit(true).build());
        assertThat(store.addAccounts(account(acct).setCommit(true).build()).getAddedList())
                .isEmpty();
        var listed = store.list(ListAssocRequest.newBuilder()
                .setEntity(AssocEntity.ACCOUNTS)
                .addNames(acct)
                .build());
        // Kept as given: lowercasing is sacctmgr's, Slurm's REST API keeps the case.
        assertThat(listed.getAccounts(0).getDescription()).isEqualTo("Physics Dept");
        assertThat(listed.getAccounts(0).getOrganization()).isEqualTo(acct);
    }

    @Test
    void namesAndTextsAreKeptInTheCaseTheyCameIn() throws Exception {
        String mixed = "Mx" + acct;
        store.addAccounts(account(mixed)
                .setDescription("Rest Desc")
                .setOrganization("Rest Org")
                .setCommit(true)
                .build());
        var listed = store.list(ListAssocRequest.newBuilder()
                .setEntity(AssocEntity.ACCOUNTS)
                .addNames(mixed)
                .build());
        assertThat(listed.getAccountsList())
                .extracting(a -> a.getName() + "|" + a.getDescription() + "|" + a.getOrganization())
                .containsExactly(mixed + "|Rest Desc|Rest Org");
        // Found by its name in any case, as under MySQL's collation (sacctmgr asks in lower case).
        assertThat(store.list(ListAssocRequest.newBuilder()
                                .setEntity(AssocEntity.ACCOUNTS)
                                .addNames(mixed.toLowerCase(java.util.Locale.ROOT))
                                .build())
                        .getAccountsList())
                .extracting(a -> a.getName())
                .containsExactly(mixed);
        // Deleted by its name in any case too, and listed as asked.
        assertThat(store.delete(DeleteAssocRequest.newBuilder()
                                .setEntity(AssocEntity.ACCOUNTS)
                                .addNames(mixed.toUpperCase(java.util.Locale.ROOT))
                                .setCommit(true)
                                .build())
                        .getDeletedList())
                .containsExactly(mixed.toUpperCase(java.util.Locale.ROOT));
        assertThat(store.list(ListAssocRequest.newBuilder()
                                .setEntity(AssocEntity.ACCOUNTS)
                                .addNames(mixed)
                                .build())
                        .getAccountsList())
                .isEmpty();
    }

    @Test
    void usersHangUnderTheirAccountsInTreeOrder() throws Exception {
        store.addAccounts(account(acct).setCommit(true).build());
        store.addAccounts(account("sub" + acct).setParent(acct).setCommit(true).build());
        var added = store.addUsers(AddUsersRequest.newBuilder()
                .addNames(user)
                .addAccounts(acct)
                .addClusters(cluster)
                .setLimits(AssociationLimits.newBuilder().setMaxJobs(4))
                .setCommit(true)
                .build());
        assertThat(added.getAssociationsList())
                .extracting(AssociationEntry::getUser)
                .containsExactly(user);
        assertThat(assocs())
                .containsExactly(
                        "root||",
                        "root|root|root",
                        acct + "||root",
                        acct + "|" + user + "|" + acct,
                        "sub" + acct + "||" + acct);
        var mine = store.list(ListAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ASSOCIATIONS)
                        .addUsers(user)
                        .build())
                .getAssociations(0);
        assertThat(mine.getLimits().getMaxJobs()).isEqualTo(4);
        assertThat(mine.getLimits().hasMaxSubmitJobs()).isFalse();
        assertThat(mine.getLimits().getShares()).isEqualTo(1);
        var users = store.list(ListAssocRequest.newBuilder()
                .setEntity(AssocEntity.USERS)
                .addNames(user)
                .build());
        assertThat(users.getUsers(0).getDefaultAccount()).isEqualTo(acct);
        assertThat(users.getUsers(0).getAdminLevel()).isEqualTo("None");
    }

    /**
     * slurmrestd 22.05's POST of accounts and users: the row alone, no association anywhere (the
     * parent is not even looked at); the user's first association added later is its default.
     */
    @Test
    void anAccountOrUserAddedWithoutAssociationsHasNoneUntilOneIsAdded() throws Exception {
        var added = store.addAccounts(account(acct)
                .setParent("nosuchparent")
                .setWithoutAssociations(true)
                .setCommit(true)
                .build());
        assertThat(added.getAddedList()).containsExactly(acct);
        assertThat(added.getAssociationsList()).isEmpty();
        store.addUsers(AddUsersRequest.newBuilder()
                .addNames(user)
                .setAdminLevel("Operator")
                .setWithoutAssociations(true)
                .setCommit(true)
                .build());
        assertThat(assocs()).containsExactly("root||", "root|root|root");
        var users = ListAssocRequest.newBuilder()
                .setEntity(AssocEntity.USERS)
                .addNames(user)
                .build();
        assertThat(store.list(users).getUsers(0).getDefaultAccount()).isEmpty();
        assertThat(store.list(users).getUsers(0).getAdminLevel()).isEqualTo("Operator");

        store.addAccounts(account(acct).setCommit(true).build());
        store.addUsers(AddUsersRequest.newBuilder()
                .addNames(user)
                .addAccounts(acct)
                .addClusters(cluster)
                .setCommit(true)
                .build());
        assertThat(assocs()).contains(acct + "||root", acct + "|" + user + "|" + acct);
        assertThat(store.list(users).getUsers(0).getDefaultAccount()).isEqualTo(acct);
    }

    @Test
    void idsAndTreeNumbersAreSlurmdbdsNestedSets() throws Exception {
        // The order real slurmdbd 22.05 was given (helperacctb, helperaccta, helperacctc under b,
        // users z then y under b) and the numbers it showed (sacctmgr show assoc
        // format=account,user,id,lft,rgt,parentid): the latest child leftmost.
        String a = "a" + acct;
        String b = "b" + acct;
        store.addAccounts(account(b).setCommit(true).build());
        store.addAccounts(account(a).setCommit(true).build());
        store.addAccounts(account("c" + acct).setParent(b).setCommit(true).build());
        for (String u : List.of("z" + user, "y" + user)) {
            store.addUsers(AddUsersRequest.newBuilder()
                    .addNames(u)
                    .addAccounts(b)
                    .addClusters(cluster)
                    .setCommit(true)
                    .build());
        }
        List<AssociationEntry> rows = store.list(ListAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ASSOCIATIONS)
                        .addClusters(cluster)
                        .build())
                .getAssociationsList();
        java.util.Map<String, Long> id = new java.util.HashMap<>();
        rows.forEach(r -> id.put(r.getAccount() + "/" + r.getUser(), r.getId()));
        assertThat(rows)
                .extracting(r -> r.getAccount() + "/" + r.getUser() + " " + r.getLft() + "-" + r.getRgt() + " "
                        + (r.getParentId() == 0 ? "0" : r.getParentId() == id.get("root/") ? "root" : "b"))
                .containsExactly(
                        "root/ 1-14 0",
                        "root/root 12-13 root",
                        a + "/ 2-3 root",
                        b + "/ 4-11 root",
                        b + "/y" + user + " 5-6 b",
                        b + "/z" + user + " 7-8 b",
                        "c" + acct + "/ 9-10 b");
        assertThat(id.get(b + "/")).isEqualTo(rows.get(5).getParentId());
        assertThat(id.get(a + "/")).isGreaterThan(id.get(b + "/"));
        // A listing that selects some rows keeps the whole tree's numbers.
        assertThat(store.list(ListAssocRequest.newBuilder()
                                .setEntity(AssocEntity.ASSOCIATIONS)
                                .addClusters(cluster)
                                .addAccounts(a)
                                .build())
                        .getAssociations(0)
                        .getLft())
                .isEqualTo(2);
    }

    @Test
    void missingAccountsAreRefusedInSacctmgrsWords() {
        assertThatThrownBy(() -> store.addAccounts(
                        account(acct).setParent("nosuch").setCommit(true).build()))
                .hasMessage(" Parent account 'nosuch' doesn't exist on cluster " + cluster
                        + "\n        Contact your admin to add this account.\n No associations created.");
        assertThatThrownBy(() -> store.addUsers(AddUsersRequest.newBuilder()
                        .addNames(user)
                        .addAccounts("nosuch")
                        .addClusters(cluster)
                        .setCommit(true)
                        .build()))
                .hasMessageStartingWith(" This account 'nosuch' doesn't exist.");
    }

    @Test
    void deletingAnAccountTakesItsAssociations() throws Exception {
        store.addAccounts(account(acct).setCommit(true).build());
        store.addUsers(AddUsersRequest.newBuilder()
                .addNames(user)
                .addAccounts(acct)
                .addClusters(cluster)
                .setCommit(true)
                .build());
        var deleted = store.delete(DeleteAssocRequest.newBuilder()
                .setEntity(AssocEntity.ACCOUNTS)
                .addNames(acct)
                .addNames("nosuch")
                .setCommit(true)
                .build());
        assertThat(deleted.getDeletedList()).containsExactly(acct);
        assertThat(assocs()).containsExactly("root||", "root|root|root");
        assertThat(store.delete(DeleteAssocRequest.newBuilder()
                                .setEntity(AssocEntity.USERS)
                                .addNames(user)
                                .setCommit(true)
                                .build())
                        .getDeletedList())
                .containsExactly(user);
        assertThatThrownBy(() -> store.delete(DeleteAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ACCOUNTS)
                        .addNames("root")
                        .setCommit(true)
                        .build()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSecondAccountAddsAnAssociationNotAUserAndInheritsTheAccountsQos() throws Exception {
        store.addAccounts(account(acct)
                .setLimits(AssociationLimits.newBuilder().setQos("normal,high"))
                .setCommit(true)
                .build());
        store.addAccounts(account("sub" + acct).setParent(acct).setCommit(true).build());
        AddUsersRequest.Builder add =
                AddUsersRequest.newBuilder().addNames(user).addClusters(cluster).setCommit(true);
        assertThat(store.addUsers(add.clone().addAccounts(acct).build()).getAddedList())
                .containsExactly(user);
        var second = store.addUsers(add.clone().addAccounts("sub" + acct).build());
        // sacctmgr prints "Adding User(s)" for new users only; the new association still counts.
        assertThat(second.getAddedList()).isEmpty();
        assertThat(second.getAssociationsList())
                .extracting(AssociationEntry::getAccount)
                .containsExactly("sub" + acct);
        var qos = store
                .list(ListAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ASSOCIATIONS)
                        .addClusters(cluster)
                        .addUsers(user)
                        .build())
                .getAssociationsList()
                .stream()
                .map(a -> a.getAccount() + "=" + a.getLimits().getQos())
                .toList();
        assertThat(qos).containsExactly(acct + "=normal,high", "sub" + acct + "=normal,high");
    }

    @Test
    void deletingAUsersAssociationsUnderAnAccountKeepsTheUser() throws Exception {
        store.addAccounts(account(acct).setCommit(true).build());
        store.addAccounts(account("b" + acct).setCommit(true).build());
        store.addUsers(AddUsersRequest.newBuilder()
                .addNames(user)
                .addAccounts(acct)
                .addAccounts("b" + acct)
                .addClusters(cluster)
                .setCommit(true)
                .build());
        var deleted = store.delete(DeleteAssocRequest.newBuilder()
                .setEntity(AssocEntity.USERS)
                .addNames(user)
                .addAccounts("b" + acct)
                .setCommit(true)
                .build());
        assertThat(deleted.getDeletedList()).isEmpty();
        assertThat(deleted.getAssociationsList())
                .extracting(a -> a.getCluster() + "|" + a.getAccount() + "|" + a.getUser())
                .containsExactly(cluster + "|b" + acct + "|" + user);
        assertThat(assocs())
                .contains(acct + "|" + user + "|" + acct)
                .doesNotContain("b" + acct + "|" + user + "|b" + acct);
        assertThat(store.list(ListAssocRequest.newBuilder()
                                .setEntity(AssocEntity.USERS)
                                .addNames(user)
                                .build())
                        .getUsersList())
                .hasSize(1);
    }
}
