package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.restd.RestFixture.Answer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * dbv0.0.38's deletions and wckeys in front of a stand-in sluice-dbd: what each answers, that a
 * plain user's request changes nothing, and the shapes 22.05 gives each outcome. The whole
 * answers are compared with slurmrestd 22.05's by compat 156 and 157.
 */
class TestDb38Writes {
    private static final String DB = "/slurmdb/v0.0.38/";

    @AutoClose
    private final RestFixture rest = RestFixture.started();

    private Answer asRoot(String method, String path) {
        return rest.send(method, path, null, "root", rest.token("root"));
    }

    @Test
    void anOperatorDeletesAnAccountAndAMissingOneIsError1900WithStatus200() {
        Answer gone = asRoot("DELETE", DB + "account/physics");
        assertThat(gone.status()).as(gone.body().toString()).isEqualTo(200);
        assertThat(gone.body().get("removed_associations").toString()).isEqualTo("[\"physics\"]");
        assertThat(gone.body().get("errors")).isEmpty();
        assertThat(rest.as("GET", DB + "account/physics", null).status()).isEqualTo(500);

        Answer again = asRoot("DELETE", DB + "account/physics");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.body().has("removed_associations")).isFalse();
        assertThat(again.body().at("/errors/0/error_number").asInt()).isEqualTo(1900);
        assertThat(again.body().at("/errors/0/error").asText()).isEqualTo("Data has not changed since time specified");
        assertThat(again.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_accounts_remove");
    }

    @Test
    void aPlainUserDeletesNothingAndGetsSlurmdbdsRefusal() {
        Answer account = rest.as("DELETE", DB + "account/physics", null);
        assertThat(account.status()).isEqualTo(500);
        assertThat(account.body().get("errors")).hasSize(2);
        assertThat(account.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(account.body().at("/errors/1/source").asText()).isEqualTo("slurmdb_connection_commit");

        Answer user = rest.as("DELETE", DB + "user/alice", null);
        assertThat(user.status()).isEqualTo(500);
        assertThat(user.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_users_remove");
        assertThat(user.body().has("removed_users")).isFalse();

        Answer assoc = rest.as("DELETE", DB + "association?account=physics&user=alice", null);
        assertThat(assoc.status()).isEqualTo(500);
        assertThat(assoc.body().get("removed_associations")).isEmpty();
        assertThat(assoc.body().at("/errors/1/description").asText()).isEqualTo("unable to query associations");

        assertThat(rest.as("GET", DB + "account/physics", null).status()).isEqualTo(200);
        assertThat(rest.as("GET", DB + "user/alice", null).status()).isEqualTo(200);
    }

    @Test
    void aUsersAssociationGoesByAccountAndUserAndIsNamedAsSlurmdbdNamesIt() {
        Answer gone = asRoot("DELETE", DB + "association?account=physics&user=alice&cluster=test");
        assertThat(gone.status()).as(gone.body().toString()).isEqualTo(200);
        assertThat(gone.body().get("removed_associations").get(0).asText())
                .isEqualTo("C = test       A = physics    U = alice    ");
        DbdRequest asked = rest.controller.accounting.seen.stream()
                .filter(r -> r.getBodyCase() == DbdRequest.BodyCase.DELETE_ASSOC)
                .reduce((a, b) -> b)
                .orElseThrow();
        assertThat(asked.getDeleteAssoc().getEntity()).isEqualTo(AssocEntity.USERS);
        assertThat(asked.getDeleteAssoc().getAccountsList()).containsExactly("physics");
        assertThat(asked.getDeleteAssoc().getCommit()).isTrue();

        // Gone, or on another cluster: nothing to delete is a 304 without a body.
        assertThat(asRoot("DELETE", DB + "association?account=physics&user=alice")
                        .status())
                .isEqualTo(304);
        assertThat(asRoot("DELETE", DB + "association?account=physics&user=alice&cluster=other")
                        .status())
                .isEqualTo(304);
    }

    @Test
    void anAssociationRequestMatchingSeveralIsAmbiguousAndAnAccountsOwnIsRefused() {
        // physics has its own association and alice's: 22.05 refuses to remove both at once.
        Answer both = asRoot("DELETE", DB + "association?account=physics");
        assertThat(both.status()).isEqualTo(400);
        assertThat(both.body().at("/errors/0/error_number").asInt()).isEqualTo(9000);
        assertThat(both.body().at("/errors/0/description").asText()).startsWith("ambiguous request");
        assertThat(both.body().get("removed_associations")).isEmpty();
        assertThat(asRoot("DELETE", DB + "association").status()).isEqualTo(400);
        assertThat(rest.controller.accounting.seen).noneMatch(r -> r.getBodyCase() == DbdRequest.BodyCase.DELETE_ASSOC);

        asRoot("DELETE", DB + "association?account=physics&user=alice");
        Answer own = asRoot("DELETE", DB + "association?account=physics");
        assertThat(own.status()).isEqualTo(500);
        assertThat(own.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_associations_remove");
        assertThat(rest.as("GET", DB + "account/physics", null).status()).isEqualTo(200);
    }

    @Test
    void anOperatorDeletesAUserOnceAndThenGets304() {
        Answer gone = asRoot("DELETE", DB + "user/alice");
        assertThat(gone.status()).isEqualTo(200);
        assertThat(gone.body().get("removed_users").toString()).isEqualTo("[\"alice\"]");
        Answer again = asRoot("DELETE", DB + "user/alice");
        assertThat(again.status()).isEqualTo(304);
    }

    @Test
    void aUserIsDeletedByItsNameInLowerCaseAsSlurmrestdAsksForIt() {
        // 22.05 lists "restuser" for DELETE user/RestUser (compat 149).
        Answer gone = asRoot("DELETE", DB + "user/Alice");
        assertThat(gone.status()).isEqualTo(200);
        assertThat(gone.body().get("removed_users").toString()).isEqualTo("[\"alice\"]");
    }

    @Test
    void aQosIsDeletedByAnOperatorOnceAndRefusedToAPlainUser() {
        Answer alice = rest.as("DELETE", DB + "qos/high", null);
        assertThat(alice.status()).isEqualTo(500);
        assertThat(alice.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(alice.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_qos_remove");
        Answer gone = asRoot("DELETE", DB + "qos/high");
        assertThat(gone.status()).as(gone.body().toString()).isEqualTo(200);
        assertThat(gone.body().get("removed_qos").toString()).isEqualTo("[\"high\"]");
        Answer again = asRoot("DELETE", DB + "qos/high");
        assertThat(again.status()).isEqualTo(500);
        assertThat(again.body().at("/errors/0/error_number").asInt()).isEqualTo(9003);
        assertThat(again.body().has("removed_qos")).isFalse();
    }

    @Test
    void wckeysAreNothingFoundForAnOperatorAndRefusedToAPlainUser() {
        Answer delete = asRoot("DELETE", DB + "wckey/w");
        assertThat(delete.status()).isEqualTo(500);
        assertThat(delete.body().get("deleted_wckeys")).isEmpty();
        assertThat(delete.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_wckeys_remove");
        assertThat(delete.body().at("/errors/0/error_number").asInt()).isEqualTo(9003);
        assertThat(rest.as("DELETE", DB + "wckey/w", null)
                        .body()
                        .at("/errors/0/error_number")
                        .asInt())
                .isEqualTo(2002);
        for (String path : new String[] {"wckeys", "wckey/w"}) {
            Answer root = asRoot("GET", DB + path);
            assertThat(root.status()).isEqualTo(500);
            assertThat(root.body().get("wckeys")).isEmpty();
            assertThat(root.body().at("/errors/0/error_number").asInt()).isEqualTo(9003);
            assertThat(root.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_wckeys_get");
            Answer alice = rest.as("GET", DB + path, null);
            assertThat(alice.status()).isEqualTo(500);
            assertThat(alice.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        }
    }

    @Test
    void anOperatorAddsAUsersWckeyAndDeletesItFromEveryUserWhoHasIt() {
        String body = "{\"wckeys\":[{\"id\":0,\"name\":\"w219\",\"cluster\":\"test\",\"user\":\"alice\"},"
                + "{\"id\":0,\"name\":\"w219\",\"cluster\":\"test\",\"user\":\"bob\",\"flags\":[\"DEFAULT\"]}]}";
        Answer refused = rest.as("POST", DB + "wckeys", body);
        assertThat(refused.status()).isEqualTo(500);
        assertThat(refused.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(refused.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_wckeys_add");
        assertThat(asRoot("GET", DB + "wckeys").status()).isEqualTo(500);

        Answer added = rest.send("POST", DB + "wckeys", body, "root", rest.token("root"));
        assertThat(added.status()).as(added.body().toString()).isEqualTo(200);
        assertThat(added.body().get("errors")).isEmpty();
        Answer listed = asRoot("GET", DB + "wckey/w219");
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body().get("wckeys").findValuesAsText("user")).containsExactly("alice", "bob");
        assertThat(listed.body().at("/wckeys/1/flags/0").asText()).isEqualTo("DEFAULT");

        assertThat(rest.as("DELETE", DB + "wckey/w219", null)
                        .body()
                        .at("/errors/0/error_number")
                        .asInt())
                .isEqualTo(2002);
        Answer deleted = asRoot("DELETE", DB + "wckey/w219");
        assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
        assertThat(deleted.body().get("deleted_wckeys").toString())
                .isEqualTo("[\"C = test       W = w219                 U = alice    \","
                        + "\"C = test       W = w219                 U = bob      \"]");
        assertThat(asRoot("GET", DB + "wckey/w219").status()).isEqualTo(500);
    }
}
