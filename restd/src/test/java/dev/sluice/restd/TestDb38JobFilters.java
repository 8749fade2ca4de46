package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.restd.RestFixture.Answer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The fields of {@code GET /slurmdb/v0.0.38/jobs} that choose jobs by what accounting kept of
 * them, as slurmrestd and slurmdbd 22.05 apply them (recorded by compat 180), against the
 * stand-in sluice-dbd's two jobs: 7 (train, 2 CPUs on n1) and 8 (oops, no CPUs counted, on n2,
 * exit 3).
 */
class TestDb38JobFilters {
    private static final String JOBS = "/slurmdb/v0.0.38/jobs?";

    @AutoClose
    private final RestFixture rest = RestFixture.started();

    private List<Integer> ids(String query) {
        Answer a = rest.as("GET", JOBS + query, null);
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        List<Integer> out = new ArrayList<>();
        a.body().get("jobs").forEach(j -> out.add(j.get("job_id").asInt()));
        if (out.isEmpty()) {
            assertThat(a.body().at("/errors/0/source").asText()).isEqualTo("slurmdb_jobs_get");
        }
        return out;
    }

    private JsonNode refused(String query, String description, String source) {
        int asked = rest.controller.accounting.seen.size();
        Answer a = rest.as("GET", JOBS + query, null);
        assertThat(a.status()).isEqualTo(500);
        assertThat(a.body().has("jobs")).isFalse();
        assertThat(a.body().at("/errors/0/description").asText()).isEqualTo(description);
        if (source == null) {
            assertThat(a.body().at("/errors/0/source").isMissingNode()
                            || a.body().at("/errors/0/source").isNull())
                    .isTrue();
        } else {
            assertThat(a.body().at("/errors/0/source").asText()).isEqualTo(source);
        }
        assertThat(rest.controller.accounting.seen).hasSize(asked);
        return a.body();
    }

    @Test
    void aCountsMaximumCountsOnlyBesideItsMinimumAndAMinimumAloneIsExact() {
        assertThat(ids("cpus_min=2")).containsExactly(7);
        assertThat(ids("cpus_min=1")).isEmpty();
        assertThat(ids("cpus_min=1&cpus_max=4")).containsExactly(7);
        assertThat(ids("cpus_max=1")).containsExactly(7, 8);
        assertThat(ids("nodes_min=1&nodes_max=1")).containsExactly(7, 8);
        assertThat(ids("nodes_min=2")).isEmpty();
        assertThat(ids("nodes_max=1")).containsExactly(7, 8);
    }

    @Test
    void aNodeChoosesTheJobsThatRanOnItAndTheExitCodeChoosesNone() {
        assertThat(ids("node=n2")).containsExactly(8);
        assertThat(ids("node=n%5B1-2%5D")).containsExactly(7, 8);
        assertThat(ids("node=n9")).isEmpty();
        // Read, but slurmdbd 22.05 chose every job with either value.
        assertThat(ids("exit_code=3")).containsExactly(7, 8);
        assertThat(ids("exit_code=768")).containsExactly(7, 8);
    }

    @Test
    void listsOfNumbersReadANameAsZeroAndListsOfTextCompareText() {
        // Both jobs have group id 0 and no reason; a reservation chooses none out (22.05's didn't).
        assertThat(ids("groups=0")).containsExactly(7, 8);
        assertThat(ids("groups=root")).containsExactly(7, 8);
        assertThat(ids("groups=5")).isEmpty();
        assertThat(ids("reservation=nope")).containsExactly(7, 8);
        assertThat(ids("reservation=2")).containsExactly(7, 8);
        assertThat(ids("reason=None")).containsExactly(7, 8);
        assertThat(ids("association=3")).containsExactly(7);
        assertThat(ids("constraints=nope")).isEmpty();
        assertThat(ids("wckey=nope")).isEmpty();
    }

    @Test
    void fieldsAreReadInTheQuerysOrderAndTheFirstBadOneRefusesIt() {
        refused("group=root", "Unknown Query field", null);
        refused("cpus_min=two", "must be an integer", "cpus_min");
        refused("exit_code=3.5&users=x", "must be an integer", "exit_code");
        refused("users=x&exit_code=3.5", "Unknown Query field", null);
        refused(
                "submit_time=now-1hours&start_time=now-1hours",
                "start_time and submit_time are mutually exclusive",
                "start_time");
        refused(
                "start_time=now-1hours&submit_time=now-1hours",
                "start_time and submit_time are mutually exclusive",
                "submit_time");
        assertThat(ids("submit_time=now-1hours&cpus_min=2")).containsExactly(7);
    }

    @Test
    void aStatesWindowHasSlurmdbdsDefaultsWhichSubmitTimeTurnsOff() {
        long before = System.currentTimeMillis() / 1000;
        rest.as("GET", JOBS + "state=COMPLETED&start_time=2023-11-14T22:00:00", null);
        // Without a job the window ends where it starts.
        assertThat(lastQuery().getWindowEnd()).isEqualTo(lastQuery().getWindowStart());
        rest.as("GET", JOBS + "state=COMPLETED&step=7", null);
        // With a job it runs from the epoch to now.
        assertThat(lastQuery().getWindowStart()).isZero();
        assertThat(lastQuery().getWindowEnd()).isGreaterThanOrEqualTo(before);
        rest.as("GET", JOBS + "state=COMPLETED&submit_time=now-1hours&end_time=now", null);
        assertThat(lastQuery().getWindowEnd()).isGreaterThanOrEqualTo(before);
        // submit_time without an end: a window that ends at 0, where no state is; nothing asked.
        int asked = rest.controller.accounting.seen.size();
        assertThat(ids("state=COMPLETED&submit_time=now-1hours")).isEmpty();
        assertThat(rest.controller.accounting.seen.stream()
                        .skip(asked)
                        .filter(r -> r.getBodyCase() == DbdRequest.BodyCase.QUERY_JOBS))
                .isEmpty();
    }

    @Test
    void aBooleanIsTrueUnlessItReadsAsFalse() {
        for (String yes : List.of("true", "YES", "y", "t", "1", "maybe")) {
            rest.as("GET", JOBS + "skip_steps=" + yes, null);
            assertThat(lastQuery().getAllocationsOnly()).as(yes).isTrue();
        }
        for (String no : List.of("false", "No", "n", "f", "0", "null", "~", "")) {
            rest.as("GET", JOBS + "skip_steps=" + no, null);
            assertThat(lastQuery().getAllocationsOnly()).as(no).isFalse();
        }
    }

    private dev.sluice.protocol.v1.JobQuery lastQuery() {
        return rest.controller.accounting.seen.stream()
                .filter(r -> r.getBodyCase() == DbdRequest.BodyCase.QUERY_JOBS)
                .reduce((a, b) -> b)
                .orElseThrow()
                .getQueryJobs();
    }
}
