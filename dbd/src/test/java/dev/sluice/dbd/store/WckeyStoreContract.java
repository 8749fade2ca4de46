package dev.sluice.dbd.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.AddResult;
import dev.sluice.protocol.v1.AddUsersRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.DeleteAssocRequest;
import dev.sluice.protocol.v1.DeleteAssocResult;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ListWckeysRequest;
import dev.sluice.protocol.v1.WckeyEntry;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A user's wckeys on each database (sacctmgr add user ... wckey=, delete user ... wckey=, show
 * wckey); names carry a random suffix so runs can share a schema.
 */
abstract class WckeyStoreContract {
    private StoreFixture fixture;
    private AssociationStore store;
    private WckeyStore wckeys;
    private String cluster;
    private String acct;
    private String user;
    private String w;

    protected abstract String jdbcUrl();

    @BeforeEach
    void open() throws Exception {
        fixture = StoreFixture.open(jdbcUrl(), "a");
        store = fixture.assocs;
        wckeys = new WckeyStore(fixture.db.dataSource());
        cluster = fixture.cluster;
        acct = fixture.acct;
        user = fixture.user;
        w = "w" + fixture.id;
    }

    @AfterEach
    void close() {
        // Null when the database was not there and the test was skipped before opening it.
        if (fixture != null) {
            fixture.close();
        }
    }

    private AddResult addUser(boolean commit, String defaultWckey, String... names) throws Exception {
        return store.addUsers(AddUsersRequest.newBuilder()
                .addNames(user)
                .addAccounts(acct)
                .addClusters(cluster)
                .addAllWckeys(List.of(names))
                .setDefaultWckey(defaultWckey)
                .setCommit(commit)
                .build());
    }

    private List<String> listed(ListWckeysRequest.Builder q) throws Exception {
        return wckeys.list(q.addClusters(cluster).build()).getWckeysList().stream()
                .map(e -> e.getName() + "|" + e.getCluster().equals(cluster) + "|" + e.getUser())
                .toList();
    }

    private String defaultWckey() throws Exception {
        return store.list(ListAssocRequest.newBuilder()
                        .setEntity(AssocEntity.USERS)
                        .addNames(user)
                        .build())
                .getUsers(0)
                .getDefaultWckey();
    }

    @Test
    void aUserAddedWithWckeysHasThemOnTheClusterAndTheFirstAsDefault() throws Exception {
        AddResult added = addUser(true, "", w + "a", w + "b");

        assertThat(added.getWckeysList())
                .extracting(WckeyEntry::getName, WckeyEntry::getUser)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(w + "a", user),
                        org.assertj.core.groups.Tuple.tuple(w + "b", user));
        assertThat(listed(ListWckeysRequest.newBuilder())).containsExactly(w + "a|true|" + user, w + "b|true|" + user);
        assertThat(defaultWckey()).isEqualTo(w + "a");
    }

    @Test
    void aNamedDefaultWckeyWinsAndAPreviewKeepsNothingNotEvenIds() throws Exception {
        int before = lastIdHandedOut();
        AddResult preview = addUser(false, w + "b", w + "a", w + "b");

        assertThat(preview.getWckeysCount()).isEqualTo(2);
        assertThat(listed(ListWckeysRequest.newBuilder())).isEmpty();

        addUser(true, w + "b", w + "a", w + "b");
        assertThat(defaultWckey()).isEqualTo(w + "b");
        // REST shows the ids: numbered on from the last handed out, as slurmdbd numbers them;
        // the preview used none up.
        assertThat(wckeys.list(ListWckeysRequest.newBuilder()
                                .addClusters(cluster)
                                .build())
                        .getWckeysList())
                .extracting(WckeyEntry::getId, WckeyEntry::getIsDefault)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(before + 1, false),
                        org.assertj.core.groups.Tuple.tuple(before + 2, true));
    }

    /** The number the next wckey follows: the counter's, or a higher id other runs wrote. */
    private int lastIdHandedOut() throws Exception {
        try (var c = fixture.db.dataSource().getConnection();
                var ps = c.prepareStatement("SELECT GREATEST(last_id, (SELECT COALESCE(MAX(id), 0) FROM acct_wckeys))"
                        + " FROM acct_wckey_ids WHERE id = 1");
                var rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void wckeysAddedAgainAreNotNewAndAnExistingUserTakesWckeysAlone() throws Exception {
        addUser(true, "", w);

        assertThat(addUser(false, "", w).getWckeysList()).isEmpty();
        AddResult alone = store.addUsers(AddUsersRequest.newBuilder()
                .addNames(user)
                .addClusters(cluster)
                .addWckeys(w + "c")
                .setCommit(true)
                .build());
        assertThat(alone.getAddedList()).isEmpty();
        assertThat(alone.getAssociationsList()).isEmpty();
        assertThat(alone.getWckeysList()).extracting(WckeyEntry::getName).containsExactly(w + "c");
        // The first wckey stays the default.
        assertThat(defaultWckey()).isEqualTo(w);
    }

    @Test
    void aNamedDefaultIsAddedLastAsSacctmgrListsIt() throws Exception {
        int before = lastIdHandedOut();
        AddResult added = addUser(true, w + "a", w + "a", w + "b");

        assertThat(added.getWckeysList()).extracting(WckeyEntry::getName).containsExactly(w + "b", w + "a");
        assertThat(wckeys.list(ListWckeysRequest.newBuilder()
                                .addClusters(cluster)
                                .build())
                        .getWckeysList())
                .extracting(WckeyEntry::getName, WckeyEntry::getId)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(w + "b", before + 1),
                        org.assertj.core.groups.Tuple.tuple(w + "a", before + 2));
        assertThat(defaultWckey()).isEqualTo(w + "a");
    }

    @Test
    void aDeletedWckeysNumberIsNotHandedOutAgain() throws Exception {
        addUser(true, "", w + "a");
        int first = wckeys.list(ListWckeysRequest.newBuilder().addNames(w + "a").build())
                .getWckeys(0)
                .getId();
        store.delete(DeleteAssocRequest.newBuilder()
                .setEntity(AssocEntity.USERS)
                .addNames(user)
                .addWckeys(w + "a")
                .setCommit(true)
                .build());

        addUser(true, "", w + "b");
        // slurmdbd's 219: 7, 8, 9 after six wckeys were added and deleted.
        assertThat(wckeys.list(ListWckeysRequest.newBuilder().addNames(w + "b").build())
                        .getWckeys(0)
                        .getId())
                .isGreaterThan(first);
    }

    @Test
    void theControllerIsGivenItsClustersWckeysWithEachUsersDefault() throws Exception {
        addUser(true, w + "b", w + "a", w + "b");

        var snapshot = new PolicyStore(fixture.db.dataSource())
                .snapshot(dev.sluice.protocol.v1.PolicyRequest.newBuilder()
                        .setClusterName(cluster)
                        .build());
        assertThat(snapshot.getWckeysList())
                .extracting(WckeyEntry::getName, WckeyEntry::getUser, WckeyEntry::getIsDefault)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(w + "a", user, false),
                        org.assertj.core.groups.Tuple.tuple(w + "b", user, true));
        assertThat(new PolicyStore(fixture.db.dataSource())
                        .snapshot(dev.sluice.protocol.v1.PolicyRequest.newBuilder()
                                .setClusterName("elsewhere")
                                .build())
                        .getWckeysList())
                .extracting(WckeyEntry::getUser)
                .doesNotContain(user);
    }

    @Test
    void theConditionsNarrowTheListing() throws Exception {
        addUser(true, "", w + "a", w + "b");

        assertThat(listed(ListWckeysRequest.newBuilder().addNames((w + "B").toUpperCase(java.util.Locale.ROOT))))
                .containsExactly(w + "b|true|" + user);
        assertThat(listed(ListWckeysRequest.newBuilder().addUsers("nobody"))).isEmpty();
        assertThat(wckeys.list(ListWckeysRequest.newBuilder()
                                .addNames(w + "a")
                                .addClusters("elsewhere")
                                .build())
                        .getWckeysList())
                .isEmpty();
        int id = wckeys.list(ListWckeysRequest.newBuilder().addNames(w + "b").build())
                .getWckeys(0)
                .getId();
        assertThat(listed(ListWckeysRequest.newBuilder().addIds(id))).containsExactly(w + "b|true|" + user);
    }

    @Test
    void deletingAUsersWckeyKeepsTheUserAndDeletingTheUserTakesTheRest() throws Exception {
        addUser(true, "", w + "a", w + "b");

        DeleteAssocResult one = store.delete(DeleteAssocRequest.newBuilder()
                .setEntity(AssocEntity.USERS)
                .addNames(user)
                .addWckeys(w + "a")
                .setCommit(true)
                .build());
        assertThat(one.getDeletedList()).isEmpty();
        assertThat(one.getWckeysList()).extracting(WckeyEntry::getName).containsExactly(w + "a");
        assertThat(listed(ListWckeysRequest.newBuilder().setWithDeleted(true))).containsExactly(w + "b|true|" + user);

        store.delete(DeleteAssocRequest.newBuilder()
                .setEntity(AssocEntity.USERS)
                .addNames(user)
                .setCommit(true)
                .build());
        assertThat(listed(ListWckeysRequest.newBuilder().setWithDeleted(true))).isEmpty();
    }
}
