package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.restd.RestFixture.Answer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * {@code /slurmdb/v0.0.38/} in front of a stand-in sluice-dbd: how queries are read and what
 * each answer holds where 22.05 differs from the later parsers. The whole answers are compared
 * with slurmrestd 22.05's by compat 152 to 154.
 */
class TestDb38Endpoints {
    private static final String DB = "/slurmdb/v0.0.38/";

    @AutoClose
    private final RestFixture rest = RestFixture.started();

    private JobQuery lastJobQuery() {
        return rest.controller.accounting.seen.stream()
                .filter(r -> r.getBodyCase() == DbdRequest.BodyCase.QUERY_JOBS)
                .reduce((a, b) -> b)
                .orElseThrow()
                .getQueryJobs();
    }

    @Test
    void diagIsTheDaemonsStatisticsInTheirOrderAndAPlainUsersIsRefused() {
        Answer root = rest.send("GET", DB + "diag", null, "root", rest.token("root"));
        assertThat(root.status()).as(root.body().toString()).isEqualTo(200);
        JsonNode s = root.body().get("statistics");
        assertThat(s.get("time_start").asLong()).isEqualTo(1_800_000_000L);
        assertThat(s.at("/RPCs/0/rpc").asText()).isEqualTo("DBD_CLEAR_STATS");
        assertThat(s.at("/RPCs/1/count").asInt()).isEqualTo(3);
        assertThat(s.at("/RPCs/1/time/average").asInt()).isEqualTo(33);
        assertThat(s.at("/RPCs/1/time/total").asInt()).isEqualTo(100);
        assertThat(s.at("/users/0/user").asText()).isEqualTo("root");
        assertThat(s.at("/rollups/0/type").asText()).isEqualTo("internal");
        assertThat(s.at("/rollups/0/mean_cycles").asInt()).isEqualTo(600);
        assertThat(s.at("/rollups/0/total_cycles").asInt()).isEqualTo(2);

        Answer alice = rest.as("GET", DB + "diag", null);
        assertThat(alice.status()).isEqualTo(500);
        assertThat(alice.body().has("statistics")).isFalse();
        assertThat(alice.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(alice.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_get_stats");
    }

    @Test
    void aJobsWckeyTakenByDefaultIsFlaggedAndShownWithoutItsMark() {
        JsonNode jobs = rest.as("GET", DB + "jobs", null).body().get("jobs");
        assertThat(jobs.get(0).at("/wckey/wckey").asText()).isEqualTo("w7");
        assertThat(jobs.get(0).at("/wckey/flags").toString()).isEqualTo("[\"ASSIGNED_DEFAULT\"]");
        assertThat(jobs.get(1).at("/wckey/wckey").asText()).isEmpty();
        assertThat(jobs.get(1).at("/wckey/flags")).isEmpty();
    }

    @Test
    void jobsAreChosenByTheFieldsOf2205AndOthersRefuseTheQuery() {
        Answer a = rest.as("GET", DB + "jobs?job_name=train%2Coops&partition=debug&skip_steps=true", null);
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        assertThat(a.body().at("/meta/plugin/type").asText()).isEqualTo("openapi/dbv0.0.38");
        JobQuery q = lastJobQuery();
        assertThat(q.getJobNamesList()).containsExactly("train", "oops");
        assertThat(q.getPartitionsList()).containsExactly("debug");
        assertThat(q.getAllocationsOnly()).isTrue();
        assertThat(q.getWindowStart()).isZero();

        Answer users = rest.as("GET", DB + "jobs?users=alice", null);
        assertThat(users.status()).isEqualTo(500);
        assertThat(users.body().has("jobs")).isFalse();
        assertThat(users.body().at("/errors/0/error_number").asInt()).isEqualTo(9000);
        assertThat(users.body().at("/errors/0/description").asText()).isEqualTo("Unknown Query field");
    }

    @Test
    void aStepChoosesOneJobAndOneOfItsStepsAndABareCommaIsRefused() {
        JsonNode batch = rest.as("GET", DB + "jobs?step=7.batch", null).body().at("/jobs/0");
        assertThat(lastJobQuery().getJobIdsList()).containsExactly(7);
        assertThat(batch.get("steps")).hasSize(1);
        JsonNode none = rest.as("GET", DB + "jobs?step=7.0", null).body().at("/jobs/0");
        assertThat(none.get("steps")).isEmpty();

        int asked = rest.controller.accounting.seen.size();
        Answer comma = rest.as("GET", DB + "jobs?job_name=a,b", null);
        assertThat(comma.status()).isEqualTo(400);
        assertThat(comma.body().get("text").asText()).isEqualTo("Unable to parse query.");
        assertThat(rest.controller.accounting.seen).hasSize(asked);
        Answer encoded = rest.as("GET", DB + "jobs?job_name=a%2Cb", null);
        assertThat(encoded.status()).isEqualTo(200);
        assertThat(lastJobQuery().getJobNamesList()).containsExactly("a", "b");
    }

    @Test
    void aStateIsTheStateAtTheMomentOfTheQueryAndQosAreNumbers() {
        long before = System.currentTimeMillis() / 1000;
        rest.as("GET", DB + "jobs?state=FAILED", null);
        JobQuery q = lastJobQuery();
        assertThat(q.getStatesList()).containsExactly(JobState.FAILED);
        assertThat(q.getWindowStart()).isGreaterThanOrEqualTo(before).isEqualTo(q.getWindowEnd());

        // QOS are chosen by number: a name finds no job.
        Answer named = rest.as("GET", DB + "jobs?qos=normal", null);
        assertThat(named.body().get("jobs")).isEmpty();
        assertThat(named.body().at("/errors/0/error_number").asInt()).isEqualTo(9003);
        Answer numbered = rest.as("GET", DB + "jobs?qos=1", null);
        assertThat(numbered.body().get("jobs")).isEmpty();
        assertThat(numbered.status()).isEqualTo(200);
    }

    @Test
    void aJobHasItsAssociationNamesNullsWhere2205HasNoneAndItsSteps() {
        Answer a = rest.as("GET", DB + "job/7", null);
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        JsonNode j = a.body().at("/jobs/0");
        assertThat(j.at("/association/account").asText()).isEqualTo("physics");
        assertThat(j.at("/association/partition").isNull()).isTrue();
        assertThat(j.at("/user").asText()).isEqualTo("alice");
        assertThat(j.at("/group").asText()).isEqualTo("alice");
        assertThat(j.at("/state/current").asText()).isEqualTo("COMPLETED");
        assertThat(j.at("/time/elapsed").asInt()).isEqualTo(60);
        // Allocated TRES in id order, with the energy slurmdbd keeps (unknown: null).
        assertThat(j.at("/tres/allocated").findValuesAsText("type"))
                .containsExactly("cpu", "mem", "node", "billing", "gres");
        assertThat(j.at("/steps/0/step/id").asText()).isEqualTo("batch");
        assertThat(j.at("/steps/0/nodes/list/0").asText()).isEqualTo("n1");
        assertThat(j.at("/steps/0/tres/allocated/0/count").asInt()).isEqualTo(2);

        // Job 8 has no association in the database: no account, association or user.
        JsonNode oops = rest.as("GET", DB + "job/8", null).body().at("/jobs/0");
        assertThat(oops.get("account").isNull()).isTrue();
        assertThat(oops.get("association").isNull()).isTrue();
        assertThat(oops.get("user").isNull()).isTrue();
        // 22.05 prints an exit status of 3 as success (compat 154 recorded it so).
        assertThat(oops.at("/exit_code/status").asText()).isEqualTo("SUCCESS");

        Answer none = rest.as("GET", DB + "job/77", null);
        assertThat(none.status()).isEqualTo(200);
        assertThat(none.body().get("jobs")).isEmpty();
        assertThat(none.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_jobs_get");
    }

    @Test
    void accountsUsersAndAssociationsNameTheirTreeAndAnUnknownNameIsAnError() {
        Answer accounts = rest.as("GET", DB + "accounts", null);
        assertThat(accounts.status()).isEqualTo(200);
        JsonNode physics = accounts.body().at("/accounts/0");
        assertThat(physics.get("name").asText()).isEqualTo("physics");
        // The account's own association first, then its users'.
        assertThat(physics.at("/associations/0/user").isNull()).isTrue();
        assertThat(physics.at("/associations/1/user").asText()).isEqualTo("alice");

        Answer nope = rest.as("GET", DB + "account/nope", null);
        assertThat(nope.status()).isEqualTo(500);
        assertThat(nope.body().at("/errors/0/error_number").asInt()).isEqualTo(9003);
        assertThat(nope.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_accounts_get");

        Answer users = rest.as("GET", DB + "users", null);
        assertThat(users.body().at("/users/0/administrator_level").asText()).isEqualTo("None");
        assertThat(users.body().at("/users/0/default/account").asText()).isEqualTo("physics");

        JsonNode assocs = rest.as("GET", DB + "associations", null).body().get("associations");
        JsonNode alice = null;
        for (JsonNode e : assocs) {
            if ("alice".equals(e.path("user").asText())) {
                alice = e;
            }
        }
        assertThat(alice).isNotNull();
        assertThat(alice.get("is_default").asInt()).isEqualTo(1);
        assertThat(alice.at("/flags/0").asText()).isEqualTo("DEFAULT");
        assertThat(alice.at("/max/jobs/active").asInt()).isEqualTo(4);
        assertThat(alice.at("/max/jobs/total").isNull()).isTrue();
        assertThat(alice.get("qos").toString()).isEqualTo("[\"normal\",\"high\"]");
        assertThat(alice.at("/default/qos").asText()).isEqualTo("normal");
        assertThat(alice.get("parent_account").isNull()).isTrue();
        // The account's own: GrpTRES with the database's ids, MaxWall where 22.05 puts it.
        JsonNode own = null;
        for (JsonNode e : assocs) {
            if ("physics".equals(e.path("account").asText()) && e.get("user").isNull()) {
                own = e;
            }
        }
        assertThat(own).isNotNull();
        assertThat(own.at("/max/tres/total/1/id").asInt()).isEqualTo(1001);
        assertThat(own.at("/max/tres/total/1/count").asInt()).isEqualTo(2);
        assertThat(own.at("/max/jobs/per/wall_clock").asInt()).isEqualTo(30);
        assertThat(own.get("parent_account").asText()).isEqualTo("root");
        assertThat(own.get("shares_raw").asInt()).isEqualTo(10);
        // A Max limit of the account is in force for its user; a Grp limit is the account's alone.
        assertThat(alice.at("/max/jobs/per/wall_clock").asInt()).isEqualTo(30);
        assertThat(alice.at("/max/tres/total")).isEmpty();
    }

    @Test
    void qosTresAndConfigAsSlurmdbdListsThem() {
        Answer none = rest.as("GET", DB + "qos/nope", null);
        assertThat(none.status()).isEqualTo(200);
        assertThat(none.body().get("QOS")).isEmpty();
        assertThat(none.body().get("errors")).isEmpty();
        JsonNode high = rest.as("GET", DB + "qos/high", null).body().at("/QOS/0");
        assertThat(high.at("/limits/max/tres/total/0/count").asInt()).isEqualTo(8);
        // MaxTRESPerNode in 22.05's shape (compat 249): a TRES by type and name, with its id.
        assertThat(high.at("/limits/max/tres/per/node").toString())
                .isEqualTo("[{\"count\":2,\"id\":1,\"name\":null,\"type\":\"cpu\"},"
                        + "{\"count\":1,\"id\":1001,\"name\":\"gpu\",\"type\":\"gres\"}]");
        JsonNode normal = rest.as("GET", DB + "qos/normal", null).body().at("/QOS/0");
        assertThat(normal.at("/limits/max/tres/per/node")).isEmpty();
        assertThat(high.at("/limits/max/wall_clock/per/job").asInt()).isEqualTo(60);
        assertThat(high.at("/preempt/mode/0").asText()).isEqualTo("REQUEUE");
        assertThat(high.at("/preempt/exempt_time").asInt()).isEqualTo(300);

        JsonNode tres = rest.as("GET", DB + "tres", null).body().get("TRES");
        assertThat(tres.findValuesAsText("type")).contains("dynamic_offset");

        // wckeys are an operator's to list: a plain user's config carries the refusal.
        Answer config = rest.as("GET", DB + "config", null);
        assertThat(config.status()).isEqualTo(500);
        assertThat(config.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(config.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_wckeys_get");
        assertThat(config.body().get("accounts")).hasSize(1);
        Answer root = rest.send("GET", DB + "config", null, "root", rest.token("root"));
        assertThat(root.status()).isEqualTo(200);
        assertThat(root.body().get("errors")).isEmpty();
    }
}
