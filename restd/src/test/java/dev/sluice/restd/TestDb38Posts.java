package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.restd.RestFixture.Answer;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * dbv0.0.38's POST of accounts, users and associations in front of a stand-in sluice-dbd: what
 * is asked of the daemon, that every change is tried before any is committed, and that a
 * refused request changes nothing. The whole answers are compared with slurmrestd 22.05's by
 * compat 158 and 159.
 */
class TestDb38Posts {
    private static final String DB = "/slurmdb/v0.0.38/";

    @AutoClose
    private final RestFixture rest = RestFixture.started();

    private Answer asRoot(String method, String path, String body) {
        return rest.send(method, path, body, "root", rest.token("root"));
    }

    private List<DbdRequest> changes() {
        return rest.controller.accounting.seen.stream()
                .filter(r -> r.getBodyCase() != DbdRequest.BodyCase.LIST_ASSOC)
                .toList();
    }

    @Test
    void aNewAccountIsAddedWithoutAssociationsAndAnExistingOneChanged() {
        Answer a = asRoot(
                "POST",
                DB + "accounts",
                "{\"accounts\":[{\"name\":\"chem\",\"description\":\"chemistry\"},"
                        + "{\"name\":\"physics\",\"organization\":\"labs\"}]}");
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        assertThat(a.body().get("errors")).isEmpty();
        List<DbdRequest> asked = changes();
        // Tried, then committed.
        assertThat(asked).hasSize(4);
        assertThat(asked.get(0).getAddAccounts().getCommit()).isFalse();
        assertThat(asked.get(2).getAddAccounts().getCommit()).isTrue();
        assertThat(asked.get(2).getAddAccounts().getWithoutAssociations()).isTrue();
        assertThat(asked.get(2).getAddAccounts().getDescription()).isEqualTo("chemistry");
        assertThat(asked.get(3).getModifyAssoc().getOrganization()).isEqualTo("labs");
        assertThat(asked.get(3).getModifyAssoc().hasDescription()).isFalse();
        Answer chem = rest.as("GET", DB + "account/chem", null);
        assertThat(chem.body().at("/accounts/0/associations")).isEmpty();
    }

    @Test
    void namesAndTextsGoToTheDaemonInTheCaseTheyCameIn() {
        // slurmrestd 22.05 keeps the case (compat 149); only sacctmgr lowercases.
        Answer a = asRoot(
                "POST",
                DB + "accounts",
                "{\"accounts\":[{\"name\":\"RestCase\",\"description\":\"Rest Desc\",\"organization\":\"Rest Org\"}]}");
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        List<DbdRequest> asked = changes();
        assertThat(asked).hasSize(2);
        assertThat(asked.get(1).getAddAccounts().getNamesList()).containsExactly("RestCase");
        assertThat(asked.get(1).getAddAccounts().getDescription()).isEqualTo("Rest Desc");
        assertThat(asked.get(1).getAddAccounts().getOrganization()).isEqualTo("Rest Org");
    }

    @Test
    void aPlainUsersAdditionIsRefusedBeforeAnythingIsCommitted() {
        Answer a = rest.as("POST", DB + "accounts", "{\"accounts\":[{\"name\":\"chem\"}]}");
        assertThat(a.status()).isEqualTo(500);
        assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(a.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_accounts_add");
        assertThat(changes()).allMatch(r -> !r.getAddAccounts().getCommit());

        Answer assoc =
                rest.as("POST", DB + "associations", "{\"associations\":[{\"account\":\"physics\",\"user\":\"bob\"}]}");
        assertThat(assoc.status()).isEqualTo(400);
        assertThat(assoc.body().at("/errors/0/error_number").asInt()).isEqualTo(-1);
    }

    @Test
    void aBodyWithoutItsListOrANameIsRefusedAndNothingIsAsked() {
        Answer empty = asRoot("POST", DB + "accounts", "{}");
        assertThat(empty.status()).isEqualTo(200);
        assertThat(empty.body().at("/errors/0/error_number").asInt()).isEqualTo(9200);
        assertThat(empty.body().at("/errors/0/source").asText()).isEqualTo("accounts");

        Answer noName = asRoot("POST", DB + "accounts", "{\"accounts\":[{\"name\":\"chem\"},{\"description\":\"x\"}]}");
        assertThat(noName.status()).isEqualTo(500);
        assertThat(noName.body().at("/errors/0/error").asText()).isEqualTo("Unspecified error");

        Answer user = asRoot("POST", DB + "users", "{\"users\":[{\"administrator_level\":\"None\"}]}");
        assertThat(user.status()).isEqualTo(500);
        assertThat(user.body().at("/errors/0/description").asText()).isEqualTo("Missing required field 'name'");
        assertThat(user.body().at("/errors/1/source").asText()).isEqualTo("slurmdb_users_add");

        Answer level =
                asRoot("POST", DB + "users", "{\"users\":[{\"name\":\"bob\",\"administrator_level\":\"Boss\"}]}");
        assertThat(level.status()).isEqualTo(400);
        assertThat(level.body().at("/errors/0/error_number").asInt()).isEqualTo(9001);

        Answer limit = asRoot(
                "POST",
                DB + "associations",
                "{\"associations\":[{\"account\":\"physics\",\"user\":\"bob\",\"max\":{\"jobs\":{\"active\":3}}}]}");
        assertThat(limit.status()).isEqualTo(400);
        assertThat(limit.body().at("/errors/0/description").asText()).contains("'max'");
        assertThat(changes()).isEmpty();
    }

    @Test
    void aNewUserIsAddedAloneWithItsLevelAndShowsNoDefaultAccount() {
        Answer a = asRoot(
                "POST",
                DB + "users",
                "{\"users\":[{\"name\":\"bob\",\"administrator_level\":\"Operator\",\"default\":{\"account\":\"physics\"}}]}");
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        DbdRequest committed = changes().getLast();
        assertThat(committed.getAddUsers().getWithoutAssociations()).isTrue();
        assertThat(committed.getAddUsers().getAdminLevel()).isEqualTo("Operator");
        assertThat(committed.getAddUsers().getAccountsList()).isEmpty();
        // The stand-in lists every user whatever the name asked: bob is picked out here.
        JsonNode bob = java.util.stream.StreamSupport.stream(
                        rest.as("GET", DB + "user/bob", null)
                                .body()
                                .get("users")
                                .spliterator(),
                        false)
                .filter(u -> u.get("name").asText().equals("bob"))
                .findFirst()
                .orElseThrow();
        assertThat(bob.at("/default/account").isNull()).isTrue();
        assertThat(bob.get("administrator_level").asText()).isEqualTo("Operator");
    }

    @Test
    void aQosIsAddedOrChangedByNameDescriptionAndPriorityAndItsRefusalsAre400() {
        Answer a = asRoot(
                "POST",
                DB + "qos",
                "{\"QOS\":[{\"name\":\"q1\",\"description\":\"new\",\"priority\":5},"
                        + "{\"name\":\"normal\",\"priority\":7}]}");
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        List<DbdRequest> asked = qosChanges(changes());
        assertThat(asked).hasSize(4);
        assertThat(asked.get(2).getAddQos().getCommit()).isTrue();
        // Flags and preempt mode are always set: 22.05 resets them when a change leaves them out.
        assertThat(asked.get(2).getAddQos().getGivenList())
                .containsExactly("description", "priority", "flags", "preemptmode");
        assertThat(asked.get(3).getModifyQos().getGivenList()).containsExactly("priority", "flags", "preemptmode");
        assertThat(rest.as("GET", DB + "qos/q1", null)
                        .body()
                        .at("/QOS/0/priority")
                        .asInt())
                .isEqualTo(5);

        int before = changes().size();
        Answer alice = rest.as("POST", DB + "qos", "{\"QOS\":[{\"name\":\"q2\"}]}");
        assertThat(alice.status()).isEqualTo(400);
        assertThat(alice.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(alice.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_qos_add");
        Answer empty = asRoot("POST", DB + "qos", "{\"qos\":[]}");
        assertThat(empty.status()).isEqualTo(400);
        assertThat(empty.body().at("/errors/0/error_number").asInt()).isEqualTo(9200);
        Answer noName = asRoot("POST", DB + "qos", "{\"QOS\":[{\"description\":\"x\"}]}");
        assertThat(noName.status()).isEqualTo(400);
        assertThat(noName.body().at("/errors/0/description").asText()).isEqualTo("Cannot create a QOS without a name");
        Answer priority = asRoot("POST", DB + "qos", "{\"QOS\":[{\"name\":\"q3\",\"priority\":{\"number\":5}}]}");
        assertThat(priority.status()).isEqualTo(400);
        assertThat(priority.body().at("/errors/0/error_number").asInt()).isEqualTo(9202);
        // Only alice's try reached the daemon, and it committed nothing.
        assertThat(qosChanges(changes().subList(before, changes().size())))
                .allMatch(r -> !r.getAddQos().getCommit());
    }

    @Test
    void aQosMaxTresPerNodeIsSetAndAChangeMergesIntoWhatItHad() {
        Answer a = asRoot("POST", DB + "qos", """
                {"QOS": [{"name": "q11", "limits": {"max": {"tres": {"per": {"node":
                  [{"type": "gres", "name": "gpu", "count": 1}, {"type": "cpu", "count": 2}]}}}}}]}
                """);
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        var added = qosChanges(changes()).getLast().getAddQos();
        assertThat(added.getSettings().getMaxTresPerNode()).isEqualTo("cpu=2,gres/gpu=1");
        assertThat(added.getGivenList()).contains("maxtrespernode");

        // high holds cpu=2,gres/gpu=1: naming only the GPUs keeps its CPUs.
        Answer changed = asRoot(
                "POST",
                DB + "qos",
                "{\"QOS\":[{\"name\":\"high\",\"limits\":{\"max\":{\"tres\":"
                        + "{\"per\":{\"node\":[{\"type\":\"gres\",\"name\":\"gpu\",\"count\":3}]}}}}}]}");
        assertThat(changed.status()).as(changed.body().toString()).isEqualTo(200);
        var modified = qosChanges(changes()).getLast().getModifyQos();
        assertThat(modified.getSettings().getMaxTresPerNode()).isEqualTo("cpu=2,gres/gpu=3");
        assertThat(modified.getGivenList()).contains("maxtrespernode");

        int before = changes().size();
        Answer unknown = asRoot(
                "POST",
                DB + "qos",
                "{\"QOS\":[{\"name\":\"q12\",\"limits\":{\"max\":{\"tres\":"
                        + "{\"per\":{\"node\":[{\"type\":\"bogus\",\"count\":1}]}}}}}]}");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.body().at("/errors/1/description").asText())
                .isEqualTo("Failed to parse field 'limits/max/tres/per/node'");
        assertThat(qosChanges(changes().subList(before, changes().size()))).isEmpty();
    }

    private static List<DbdRequest> qosChanges(List<DbdRequest> seen) {
        return seen.stream()
                .filter(r -> r.getBodyCase() == DbdRequest.BodyCase.ADD_QOS
                        || r.getBodyCase() == DbdRequest.BodyCase.MODIFY_QOS)
                .toList();
    }

    @Test
    void aQosLimitsFlagsAndPreemptionAreReadAsSacctmgrKeepsThem() {
        Answer a = asRoot("POST", DB + "qos", """
                {"QOS": [{"name": "q9", "flags": ["NO_RESERVE", "DENY_LIMIT"], "usage_factor": 1.5,
                  "usage_threshold": 0.25,
                  "limits": {"grace_time": 120, "max": {"active_jobs": {"count": 10},
                    "jobs": {"active_jobs": {"per": {"user": 4}}, "per": {"user": 8}},
                    "tres": {"per": {"job": [{"type": "cpu", "count": 4}],
                                     "user": [{"type": "mem", "count": 4096}, {"type": "cpu", "count": 8}],
                                     "account": [{"type": "gres", "name": "gpu", "count": 2}]},
                             "total": [{"type": "cpu", "count": 32}]},
                    "wall_clock": {"per": {"job": 90}}}},
                  "preempt": {"list": ["Normal"], "mode": ["REQUEUE"], "exempt_time": 300}}]}
                """);
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        var s = qosChanges(changes()).getLast().getAddQos().getSettings();
        assertThat(s.getFlagsList()).containsExactly("DenyOnLimit", "NoReserve");
        assertThat(s.getMaxTresPerJob()).isEqualTo("cpu=4");
        assertThat(s.getMaxTresPerUser()).isEqualTo("cpu=8,mem=4G");
        assertThat(s.getMaxTresPerAccount()).isEqualTo("gres/gpu=2");
        assertThat(s.getGrpTres()).isEqualTo("cpu=32");
        assertThat(List.of(s.getGrpJobs(), s.getMaxJobsPerUser(), s.getMaxSubmitJobsPerUser(), s.getMaxWallMinutes()))
                .containsExactly(10, 4, 8, 90);
        assertThat(s.getGraceTimeSeconds()).isEqualTo(120);
        assertThat(s.getPreemptList()).containsExactly("normal");
        assertThat(s.getPreemptMode()).isEqualTo("requeue");
        assertThat(s.getPreemptExemptSeconds()).isEqualTo(300);
        assertThat(s.getUsageFactor()).isEqualTo(1.5);
        assertThat(s.getUsageThreshold()).isEqualTo(0.25);

        int before = changes().size();
        Answer unknown = asRoot(
                "POST",
                DB + "qos",
                "{\"QOS\":[{\"name\":\"q10\",\"limits\":{\"max\":{\"tres\":"
                        + "{\"per\":{\"job\":[{\"type\":\"bogus\",\"count\":1}]}}}}}]}");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.body().at("/errors/0/error_number").asInt()).isEqualTo(2115);
        assertThat(unknown.body().at("/errors/1/description").asText())
                .isEqualTo("Failed to parse field 'limits/max/tres/per/job'");
        Answer flag = asRoot("POST", DB + "qos", "{\"QOS\":[{\"name\":\"q10\",\"flags\":[\"NOPE\"]}]}");
        assertThat(flag.body().at("/errors/0/source").asText()).isEqualTo("flags");
        Answer list = asRoot("POST", DB + "qos", "{\"QOS\":[{\"name\":\"q10\",\"preempt\":{\"list\":[\"nosuch\"]}}]}");
        assertThat(list.body().at("/errors/0/source").asText()).isEqualTo("nosuch");
        Answer unkept = asRoot(
                "POST",
                DB + "qos",
                "{\"QOS\":[{\"name\":\"q10\",\"limits\":{\"max\":" + "{\"wall_clock\":{\"per\":{\"qos\":5}}}}}]}");
        assertThat(unkept.body().at("/errors/0/error_number").asInt()).isEqualTo(-1);
        assertThat(List.of(unknown.status(), flag.status(), list.status(), unkept.status()))
                .containsOnly(400);
        assertThat(qosChanges(changes().subList(before, changes().size()))).isEmpty();
    }

    @Test
    void anAssociationIsAUsersUnderItsAccountOrAnAccountsWithTheParsersRemark() {
        Answer user = asRoot(
                "POST",
                DB + "associations",
                "{\"associations\":[{\"account\":\"physics\",\"cluster\":\"test\",\"user\":\"bob\",\"shares_raw\":3}]}");
        assertThat(user.status()).as(user.body().toString()).isEqualTo(200);
        assertThat(user.body().get("errors")).isEmpty();
        DbdRequest added = changes().getLast();
        assertThat(added.getAddUsers().getAccountsList()).containsExactly("physics");
        assertThat(added.getAddUsers().getClustersList()).containsExactly("test");
        assertThat(added.getAddUsers().getLimits().getShares()).isEqualTo(3);

        Answer account = asRoot(
                "POST",
                DB + "associations",
                "{\"associations\":[{\"account\":\"chem\",\"cluster\":\"test\",\"parent_account\":\"physics\"}]}");
        assertThat(account.status()).isEqualTo(200);
        assertThat(account.body().at("/errors/0/description").asText()).isEqualTo("Missing required field 'user'");
        assertThat(account.body().at("/errors/0/error_number").isMissingNode()).isTrue();
        assertThat(changes().getLast().getAddAccounts().getParent()).isEqualTo("physics");

        Answer unknown = asRoot(
                "POST",
                DB + "associations",
                "{\"associations\":[{\"account\":\"nope\",\"cluster\":\"test\",\"user\":\"bob\"}]}");
        assertThat(unknown.status()).isEqualTo(400);
        Answer elsewhere = asRoot(
                "POST",
                DB + "associations",
                "{\"associations\":[{\"account\":\"physics\",\"cluster\":\"other\",\"user\":\"bob\"}]}");
        assertThat(elsewhere.status()).isEqualTo(400);
    }
}
