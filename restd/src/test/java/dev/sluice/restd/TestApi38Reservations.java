package dev.sluice.restd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.restd.RestFixture.Answer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** v0.0.38's reservations: flat text lists and plain numbers (compared whole by compat 155). */
class TestApi38Reservations {
    private static final String V = "/slurm/v0.0.38/";

    @AutoClose
    private final RestFixture rest = RestFixture.started();

    @Test
    void aReservationIsListedAndShownByName() {
        Answer all = rest.as("GET", V + "reservations", null);
        assertThat(all.status()).as(all.body().toString()).isEqualTo(200);
        JsonNode r = all.body().at("/reservations/0");
        assertThat(r.get("name").asText()).isEqualTo("maint");
        assertThat(r.get("node_list").asText()).isEqualTo("n[1-2]");
        assertThat(r.get("users").asText()).isEqualTo("-alice");
        assertThat(r.get("start_time").asLong()).isEqualTo(1_700_003_600L);
        assertThat(r.get("tres").asText()).isEqualTo("cpu=8");
        assertThat(r.get("watts").asLong()).isEqualTo(4294967294L);
        assertThat(rest.as("GET", V + "reservation/maint", null).body().get("reservations"))
                .hasSize(1);
    }

    @Test
    void anUnknownNameIsTheControllersError() {
        Answer a = rest.as("GET", V + "reservation/nope", null);
        assertThat(a.status()).isEqualTo(500);
        assertThat(a.body().get("reservations")).isEmpty();
        assertThat(a.body().at("/errors/0/errno").asInt()).isEqualTo(2053);
        assertThat(a.body().at("/errors/0/error").asText()).isEqualTo("Requested reservation is invalid");
    }
}
