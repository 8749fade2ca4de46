package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.restd.RestFixture.Answer;
import dev.sluice.restd.slurm.ApiVersion;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code POST job/{job_id}} and {@code POST jobs/} (v0.0.44 and later) in front of a stand-in
 * sluice-dbd: a job's owner changes its comment and derived exit code, an operator the admin and
 * system comments of several jobs; another's job, or an admin comment by its owner, is the
 * daemon's 2002; fields not kept are refused by name (9001); an unknown job changes nothing.
 * Every body sent and answer got is checked against that version's schema from Slurm.
 */
@ParameterizedClass
@EnumSource(
        value = ApiVersion.class,
        names = {"V0044", "V0045"})
class TestSlurmdbJobChanges {
    @Parameter
    ApiVersion version;

    private String db;
    private OpenApiDocs docs;
    private RestFixture rest;

    @BeforeEach
    void start() throws IOException {
        docs = OpenApiDocs.of(version);
        db = version.slurmdbPrefix();
        rest = new RestFixture();
    }

    @AfterEach
    void stop() {
        if (rest != null) {
            rest.close();
        }
    }

    private List<DbdRequest> jobChangesSince(int mark) {
        var seen = rest.controller.accounting.seen;
        return seen.subList(mark, seen.size()).stream()
                .filter(DbdRequest::hasModifyJobs)
                .toList();
    }

    @Test
    void theOwnerChangesItsJobsCommentAndDerivedExitCode() {
        String body = """
                {"comment": {"job": "looks fine"},
                 "derived_exit_code": {"return_code": {"set": true, "number": 2},
                                       "signal": {"id": {"set": true, "number": 1}}}}""";
        docs.assertValidFor("job_modify", OpenApiDocs.parse(body));
        int mark = rest.controller.accounting.seen.size();
        Answer done = rest.as("POST", db + "job/7", body);
        assertThat(done.status()).as(done.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_job_modify_resp", done.body());
        assertThat(done.body().get("results").get(0).asText()).matches("7 submitted at \\d{4}-\\d\\d-\\d\\dT[0-9:]{8}");
        List<DbdRequest> asked = jobChangesSince(mark);
        assertThat(asked).extracting(r -> r.getModifyJobs().getCommit()).containsExactly(false, true);
        assertThat(asked.get(1).getModifyJobs().getJobIdsList()).containsExactly(7);
        assertThat(asked.get(1).getModifyJobs().getDerivedExitStatus()).isEqualTo(2 << 8 | 1);

        Answer job = rest.as("GET", db + "job/7", null);
        docs.assertValidFor("openapi_slurmdbd_jobs_resp", job.body());
        assertThat(job.body().at("/jobs/0/comment/job").asText()).isEqualTo("looks fine");
        assertThat(job.body().at("/jobs/0/derived_exit_code/return_code/number").asInt())
                .isEqualTo(2);
    }

    @Test
    void anotherUsersJobAndTheAdminCommentAreTheDaemons2002() {
        for (String[] refused : new String[][] {
            {"job/8", "{\"comment\": {\"job\": \"not mine\"}}"}, {"job/7", "{\"comment\": {\"administrator\": \"x\"}}"}
        }) {
            int mark = rest.controller.accounting.seen.size();
            Answer a = rest.as("POST", db + refused[0], refused[1]);
            assertThat(a.status()).as(a.body().toString()).isEqualTo(500);
            docs.assertValidFor("openapi_job_modify_resp", a.body());
            assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
            assertThat(jobChangesSince(mark))
                    .extracting(r -> r.getModifyJobs().getCommit())
                    .doesNotContain(true);
        }
    }

    @Test
    void anOperatorChangesSeveralJobsAtOnce() {
        String body = """
                {"job_id_list": ["7", "8"],
                 "job_rec": {"comment": {"administrator": "adm", "system": "sys"}}}""";
        docs.assertValidFor("openapi_job_modify_req", OpenApiDocs.parse(body));
        Answer done = rest.asRoot("POST", db + "jobs/", body);
        assertThat(done.status()).as(done.body().toString()).isEqualTo(200);
        docs.assertValidFor("openapi_job_modify_resp", done.body());
        assertThat(done.body().get("results")).hasSize(2);
        Answer jobs = rest.asRoot("GET", db + "jobs/", null);
        assertThat(jobs.body().get("jobs").findValuesAsText("administrator")).containsExactly("adm", "adm");
        assertThat(jobs.body().get("jobs").findValuesAsText("system")).containsExactly("sys", "sys");
    }

    @Test
    void fieldsNotKeptAreRefusedByNameAndAnUnknownJobChangesNothing() {
        int mark = rest.controller.accounting.seen.size();
        for (String[] bad : new String[][] {
            {"{\"extra\": \"x\"}", "'extra'"},
            {"{\"tres\": {\"allocated\": [{\"type\": \"cpu\", \"count\": 2}]}}", "'tres/allocated'"},
            {"{}", "changes nothing"},
            {"{\"derived_exit_code\": {\"return_code\": {\"set\": true, \"number\": 300}}}", "up to 255"}
        }) {
            docs.assertValidFor("job_modify", OpenApiDocs.parse(bad[0]));
            Answer a = rest.asRoot("POST", db + "job/7", bad[0]);
            assertThat(a.status()).as(a.body().toString()).isEqualTo(400);
            docs.assertValidFor("openapi_job_modify_resp", a.body());
            assertThat(a.body().at("/errors/0/error_number").asInt()).isEqualTo(9001);
            assertThat(a.body().at("/errors/0/description").asText()).contains(bad[1]);
        }
        assertThat(jobChangesSince(mark)).isEmpty();

        Answer none = rest.asRoot("POST", db + "job/99", "{\"comment\": {\"job\": \"x\"}}");
        docs.assertValidFor("openapi_job_modify_resp", none.body());
        assertThat(none.body().get("results")).isEmpty();
        assertThat(none.body().at("/errors/0/description").asText()).isEqualTo("Request didn't affect anything");
        assertThat(jobChangesSince(mark))
                .extracting(r -> r.getModifyJobs().getCommit())
                .containsExactly(false);
    }

    @Test
    void earlierVersionsHaveNoJobChanges() {
        for (ApiVersion older : new ApiVersion[] {ApiVersion.V0042, ApiVersion.V0043}) {
            Answer a = rest.asRoot("POST", older.slurmdbPrefix() + "job/7", "{\"comment\": {\"job\": \"x\"}}");
            assertThat(a.status()).isEqualTo(404);
        }
    }
}
