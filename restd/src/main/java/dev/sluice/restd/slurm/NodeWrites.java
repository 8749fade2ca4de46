package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.NodeStateRequest;
import dev.sluice.protocol.WireStates;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.CreateNodeRequest;
import dev.sluice.protocol.v1.UpdateNodeRequest;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import dev.sluice.restd.slurm.SlurmApi.Call;
import java.util.ArrayList;
import java.util.List;

/**
 * POST node/{name}, POST nodes/ and POST new/node/: as scontrol update NodeName= and scontrol
 * create NodeName= ask the controller, which decides who may (operators only, answering anyone
 * else with Slurm's {@code Invalid user id}).
 */
final class NodeWrites {
    private NodeWrites() {}

    /**
     * POST node/{name}: {@code update_node_msg}'s state and reason for that node. A {@code name}
     * in the body is ignored with a warning, as slurmrestd ignores node_names for a singular update.
     */
    static Reply updateOne(Call call, Envelope out, String name) throws ControllerException, BadRequest {
        JsonNode body = object(call);
        if (body.has("name")) {
            out.warning("node_names field " + names(body) + " ignored for singular node update", "node");
        }
        call.controller()
                .call(ClientRequest.newBuilder().setUpdateNode(read(body, out).setNodeNames(name)));
        return out.reply(200);
    }

    /**
     * POST nodes/: the same change for every node of the body's {@code name} hostlist at once,
     * one controller request as {@code scontrol update NodeName=n[1-4]} sends. No name is Slurm's
     * invalid node name, asked of nobody.
     */
    static Reply updateMany(Call call, Envelope out) throws ControllerException, BadRequest {
        JsonNode body = object(call);
        String names = names(body);
        if (names.isEmpty()) {
            ErrorCode invalid = ErrorCode.INVALID_NODE_NAME;
            out.error(invalid.number(), invalid.text(), "no node names (\"name\") to update", "node");
            return out.reply(500);
        }
        call.controller()
                .call(ClientRequest.newBuilder().setUpdateNode(read(body, out).setNodeNames(names)));
        return out.reply(200);
    }

    /** POST new/node/: {@code node_conf} is the node line scontrol create takes ({@code NodeName=d1 CPUs=4 ...}). */
    static Reply create(Call call, Envelope out) throws ControllerException, BadRequest {
        JsonNode body = object(call);
        JsonNode conf = body.get("node_conf");
        if (conf == null || !conf.isTextual() || conf.asText().isBlank()) {
            throw new BadRequest(RestErrors.FAIL_PARSING, "node_conf must be a node configuration line");
        }
        call.controller()
                .call(ClientRequest.newBuilder()
                        .setCreateNode(CreateNodeRequest.newBuilder()
                                .setNodeLine(conf.asText().strip())));
        return out.reply(200);
    }

    private static JsonNode object(Call call) throws BadRequest {
        JsonNode body = call.body().orElseThrow(() -> new BadRequest(RestErrors.FAIL_PARSING, "empty body"));
        if (!body.isObject()) {
            throw new BadRequest(RestErrors.FAIL_PARSING, "node update must be a JSON object");
        }
        return body;
    }

    /** {@code name}: a hostlist_string, a list of hostlists (or one string, as clients also send it). */
    private static String names(JsonNode body) throws BadRequest {
        JsonNode name = body.get("name");
        if (name == null || name.isNull()) {
            return "";
        }
        if (name.isTextual()) {
            return name.asText().strip();
        }
        if (!name.isArray()) {
            throw new BadRequest(RestErrors.FAIL_PARSING, "name must be a list of node names");
        }
        List<String> all = new ArrayList<>();
        for (JsonNode n : name) {
            if (!n.isTextual()) {
                throw new BadRequest(RestErrors.FAIL_PARSING, "name must be a list of node names");
            }
            if (!n.asText().isBlank()) {
                all.add(n.asText().strip());
            }
        }
        return String.join(",", all);
    }

    /** The state and reason asked; every other field is warned about, not silently dropped. */
    private static UpdateNodeRequest.Builder read(JsonNode body, Envelope out) throws BadRequest {
        UpdateNodeRequest.Builder req = UpdateNodeRequest.newBuilder();
        JsonNode state = body.get("state");
        if (state != null && !state.isNull()) {
            if (!state.isArray() || state.size() != 1 || !state.get(0).isTextual()) {
                throw new BadRequest(RestErrors.FAIL_PARSING, "state must be an array of one state name");
            }
            // A state scontrol does not take travels as none, which the controller refuses alike.
            NodeStateRequest.parse(state.get(0).asText()).ifPresent(s -> req.setState(WireStates.toWire(s)));
        }
        JsonNode reason = body.get("reason");
        if (reason != null && !reason.isNull()) {
            if (!reason.isTextual()) {
                throw new BadRequest(RestErrors.FAIL_PARSING, "reason must be a string");
            }
            req.setReason(reason.asText());
        }
        body.fieldNames().forEachRemaining(f -> {
            if (!f.equals("state") && !f.equals("reason") && !f.equals("name")) {
                out.warning("field " + f + " is not supported yet and was ignored", "node");
            }
        });
        return req;
    }
}
