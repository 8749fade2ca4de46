package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.CreateReservationRequest;
import dev.sluice.protocol.v1.DeleteReservationRequest;
import dev.sluice.protocol.v1.GetReservationsRequest;
import dev.sluice.protocol.v1.ReservationInfo;
import dev.sluice.protocol.v1.ReservationSpec;
import dev.sluice.protocol.v1.UpdateReservationRequest;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import dev.sluice.restd.slurm.SlurmApi.Call;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * POST reservation, POST reservations, DELETE reservation/{name} (data parsers v0.0.43 on): a
 * {@code reservation_desc_msg} becomes the request {@code scontrol create reservation} (or {@code
 * update}, when a reservation of that name exists, as slurmrestd's "create or update") sends, so
 * the controller checks it exactly as it checks the command's.
 */
final class ReservationWrites {
    private ReservationWrites() {}

    /** The fields this daemon passes on; the others are answered with a warning, not silently dropped. */
    private static final Set<String> HANDLED = Set.of(
            "name",
            "start_time",
            "end_time",
            "duration",
            "node_list",
            "node_count",
            "core_count",
            "partition",
            "users",
            "accounts",
            "flags");

    /** POST reservation (one {@code reservation_desc_msg}) or POST reservations ({@code reservations: [...]}). */
    static Reply post(Call call, Envelope out, boolean many) throws ControllerException, BadRequest {
        JsonNode body = call.body().orElseThrow(() -> new BadRequest(RestErrors.FAIL_PARSING, "empty body"));
        List<JsonNode> descriptions = new ArrayList<>();
        if (many) {
            JsonNode list = body.get("reservations");
            if (list == null || !list.isArray() || list.isEmpty()) {
                throw new BadRequest(RestErrors.FAIL_PARSING, "reservations must be a non-empty array");
            }
            list.forEach(descriptions::add);
        } else {
            descriptions.add(body);
        }
        // Every description is read before any is sent: a bad one changes nothing.
        List<ReservationSpec> specs = new ArrayList<>();
        for (JsonNode d : descriptions) {
            specs.add(spec(d, out));
        }
        ArrayNode answered = out.body().putArray("reservations");
        for (int i = 0; i < specs.size(); i++) {
            ReservationSpec spec = specs.get(i);
            ObjectNode echo = echo((ObjectNode) descriptions.get(i));
            if (!spec.getName().isEmpty() && exists(call, spec.getName())) {
                call.controller()
                        .call(ClientRequest.newBuilder()
                                .setUpdateReservation(
                                        UpdateReservationRequest.newBuilder().setSpec(spec)));
            } else {
                String name = call.controller()
                        .call(ClientRequest.newBuilder()
                                .setCreateReservation(
                                        CreateReservationRequest.newBuilder().setSpec(spec)))
                        .getCreateReservation()
                        .getName();
                echo.put("name", name);
            }
            answered.add(echo);
        }
        return out.reply(200);
    }

    /**
     * The description as the answer's schema writes it: numbers as {@code {set, infinite, number}}
     * and lists as arrays, whichever way the client sent them.
     */
    private static ObjectNode echo(ObjectNode given) {
        ObjectNode echo = given.deepCopy();
        for (String f : List.of("start_time", "end_time", "duration", "node_count", "core_count")) {
            JsonNode v = echo.get(f);
            if (v != null && v.isIntegralNumber()) {
                echo.set(f, Numbers.set(v.asLong()));
            }
        }
        JsonNode nodes = echo.get("node_list");
        if (nodes != null && nodes.isTextual()) {
            // One hostlist expression ("n[1,3]") is one item: its commas are not separators.
            echo.putArray("node_list").add(nodes.asText());
        }
        for (String f : List.of("users", "accounts")) {
            JsonNode v = echo.get(f);
            if (v != null && v.isTextual()) {
                ArrayNode items = echo.putArray(f);
                for (String item : v.asText().split(",")) {
                    if (!item.isEmpty()) {
                        items.add(item);
                    }
                }
            }
        }
        return echo;
    }

    /** DELETE reservation/{name}, as scontrol delete reservation. */
    static Reply delete(Call call, Envelope out, String name) throws ControllerException {
        call.controller()
                .call(ClientRequest.newBuilder()
                        .setDeleteReservation(
                                DeleteReservationRequest.newBuilder().setName(name)));
        return out.reply(200);
    }

    private static boolean exists(Call call, String name) throws ControllerException {
        return call
                .controller()
                .call(ClientRequest.newBuilder().setGetReservations(GetReservationsRequest.getDefaultInstance()))
                .getGetReservations()
                .getReservationsList()
                .stream()
                .map(ReservationInfo::getName)
                .anyMatch(name::equals);
    }

    /** One {@code reservation_desc_msg} as the reservation request scontrol would send. */
    static ReservationSpec spec(JsonNode d, Envelope out) throws BadRequest {
        if (d == null || !d.isObject()) {
            throw new BadRequest(RestErrors.FAIL_PARSING, "a reservation description must be a JSON object");
        }
        ReservationSpec.Builder spec = ReservationSpec.newBuilder();
        try {
            spec.setName(Fields.text(d, "name"));
            number(d, "start_time").ifPresent(spec::setStartTime);
            number(d, "end_time").ifPresent(spec::setEndTime);
            number(d, "duration").ifPresent(n -> spec.setDurationMinutes((int) n));
            number(d, "node_count").ifPresent(n -> spec.setNodeCount((int) n));
            number(d, "core_count").ifPresent(n -> spec.setCoreCount((int) n));
            String nodes = Fields.csv(d, "node_list");
            if (!nodes.isEmpty()) {
                spec.setNodes(nodes);
            }
            String partition = Fields.text(d, "partition");
            if (!partition.isEmpty()) {
                spec.setPartition(partition);
            }
            String users = Fields.csv(d, "users");
            if (!users.isEmpty()) {
                spec.setUsers(users);
            }
            String accounts = Fields.csv(d, "accounts");
            if (!accounts.isEmpty()) {
                spec.setAccounts(accounts);
            }
            JsonNode flags = d.get("flags");
            if (flags != null && !flags.isNull()) {
                if (!flags.isArray()) {
                    throw new IllegalArgumentException("flags must be an array of flag names");
                }
                // The document's NO_X removes X, as scontrol's -X does.
                flags.forEach(f -> spec.addFlags(
                        f.asText().startsWith("NO_") ? "-" + f.asText().substring(3) : f.asText()));
            }
        } catch (IllegalArgumentException e) {
            throw new BadRequest(RestErrors.FAIL_PARSING, e.getMessage());
        }
        d.fieldNames().forEachRemaining(f -> {
            if (!HANDLED.contains(f) && !d.get(f).isNull()) {
                out.warning("field " + f + " is not supported yet and was ignored", "reservation");
            }
        });
        return spec.build();
    }

    private static OptionalLong number(JsonNode d, String field) {
        OptionalLong n = Numbers.read(d.get(field), field);
        if (n.isPresent() && n.getAsLong() < 0) {
            throw new IllegalArgumentException(field + " must not be negative");
        }
        return n;
    }
}
