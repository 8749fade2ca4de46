package dev.sluice.restd.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A route table that dispatches and documents from one list. */
class TestEndpoints {
    private final Endpoints<String> table = Endpoints.<String>builder()
            .get("jobs/", "every job", "jobs_resp", (who, arg) -> Reply.text(200, who + " lists"))
            .post("job/submit", "submit", "submit_resp", "submit_req", (who, arg) -> Reply.text(200, "submitted"))
            .get("job/{job_id}", "one job", "jobs_resp", (who, arg) -> Reply.text(200, "job " + arg))
            .delete("job/{job_id}", "cancel", "resp", (who, arg) -> Reply.text(200, "cancel " + arg))
            .build();

    private String serve(String method, String rest) throws Exception {
        Endpoints.Bound<String> bound = table.match(method, rest).orElseThrow();
        return bound.key() + " -> "
                + bound.handler().serve("alice", bound.arg()).text().orElseThrow();
    }

    @Test
    void eachRequestReachesTheHandlerOfItsRoute() throws Exception {
        assertThat(serve("GET", "jobs/")).isEqualTo("GET jobs -> alice lists");
        assertThat(serve("GET", "job/12")).isEqualTo("GET job/* -> job 12");
        assertThat(serve("DELETE", "job/12")).isEqualTo("DELETE job/* -> cancel 12");
        // A fixed segment wins over the parameter: not the job called "submit".
        assertThat(serve("POST", "job/submit")).isEqualTo("POST job/submit -> submitted");
        assertThat(table.match("POST", "job/12")).isEmpty();
        assertThat(table.match("GET", "nodes/")).isEmpty();
    }

    @Test
    void theDocumentedRoutesAreTheServedOnesInOrder() {
        assertThat(table.routes())
                .extracting(Route::key)
                .containsExactly("GET jobs", "POST job/submit", "GET job/*", "DELETE job/*");
        Endpoints<String> reads = table.only(r -> r.method().equals("GET"));
        assertThat(reads.routes()).extracting(Route::key).containsExactly("GET jobs", "GET job/*");
        assertThat(reads.match("DELETE", "job/12")).isEmpty();
        assertThat(reads.match("GET", "job/12")).isPresent();
    }

    @Test
    void aRouteServedTwiceIsRefusedWhenTheTableIsBuilt() {
        assertThatThrownBy(() -> Endpoints.<String>builder()
                        .get("job/{job_id}", "one job", "r", (who, arg) -> Reply.text(200, ""))
                        .get("job/{id}", "the same", "r", (who, arg) -> Reply.text(200, "")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("GET job/*");
    }
}
