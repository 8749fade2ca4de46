package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import dev.sluice.restd.slurm.SlurmApi.Call;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code DELETE jobs} (v0.0.42 and later; slurmrestd 22.05 has none): a {@code kill_jobs_msg}
 * names jobs and filters, as {@code scancel [-s SIGNAL] [-A -n -p -q -R -t -u -w --wckey] [JOB...]}
 * sends them, and the answer has one status per job signalled, as {@code DELETE job/{id}}'s.
 * A body that selects nothing (no job and no filter) is refused rather than taken to mean every
 * job, and so is a field the controller cannot filter by (reported, not ignored).
 */
final class KillJobs {
    /** The filters sent on, and the fields read otherwise; any other field is refused. */
    private static final Set<String> FIELDS = Set.of(
            "jobs",
            "signal",
            "flags",
            "account",
            "job_name",
            "partition",
            "qos",
            "reservation",
            "job_state",
            "user_name",
            "wckey",
            "nodes");

    private KillJobs() {}

    static Reply kill(Call call, Envelope out) throws ControllerException, BadRequest {
        JsonNode body = call.body().orElseThrow(() -> new BadRequest(RestErrors.INVALID_QUERY, "empty body"));
        if (!body.isObject()) {
            throw new BadRequest(RestErrors.FAIL_PARSING, "kill_jobs_msg is not an object");
        }
        List<String> unknown = new ArrayList<>();
        body.fieldNames().forEachRemaining(f -> {
            if (!FIELDS.contains(f)) {
                unknown.add(f);
            }
        });
        if (!unknown.isEmpty()) {
            throw new BadRequest(RestErrors.INVALID_QUERY, "fields not supported: " + String.join(", ", unknown));
        }
        SignalJobRequest.Builder req = SignalJobRequest.newBuilder();
        for (JsonNode job : body.path("jobs")) {
            req.addJobIds(job.asText());
        }
        req.setAccountFilter(body.path("account").asText(""))
                .setNameFilter(body.path("job_name").asText(""))
                .setPartitionFilter(body.path("partition").asText(""))
                .setQosFilter(body.path("qos").asText(""))
                .setReservationFilter(body.path("reservation").asText(""))
                .setUserFilter(body.path("user_name").asText(""))
                .setWckeyFilter(body.path("wckey").asText(""))
                .setNodesFilter(list(body.path("nodes")))
                .setStateFilter(list(body.path("job_state")));
        for (JsonNode flag : body.path("flags")) {
            switch (flag.asText()) {
                case "BATCH_JOB" -> req.setBatchOnly(true);
                case "FULL_JOB" -> req.setFull(true);
                default -> throw new BadRequest(RestErrors.INVALID_QUERY, "flag not supported: " + flag.asText());
            }
        }
        JobEndpoints.signalOrCancel(req, body.path("signal").asText(""));
        SignalJobRequest ask = req.build();
        boolean filtered = !ask.getAccountFilter().isEmpty()
                || !ask.getNameFilter().isEmpty()
                || !ask.getPartitionFilter().isEmpty()
                || !ask.getQosFilter().isEmpty()
                || !ask.getReservationFilter().isEmpty()
                || !ask.getUserFilter().isEmpty()
                || !ask.getWckeyFilter().isEmpty()
                || !ask.getNodesFilter().isEmpty()
                || !ask.getStateFilter().isEmpty();
        if (ask.getJobIdsCount() == 0 && !filtered) {
            throw new BadRequest(RestErrors.INVALID_QUERY, "no jobs and no filter: nothing selected");
        }
        SignalJobResponse answer = call.controller()
                .call(ClientRequest.newBuilder().setSignalJob(ask))
                .getSignalJob();
        return statuses(answer, out);
    }

    /** One status per job, as {@code kill_jobs_resp_msg}; 500 when any failed, each also an error. */
    static Reply statuses(SignalJobResponse answer, Envelope out) {
        ArrayNode status = out.body().putArray("status");
        boolean failed = false;
        for (SignalJobResponse.Result r : answer.getResultsList()) {
            ObjectNode item = status.addObject();
            ObjectNode error = item.putObject("error");
            error.put(
                    "string",
                    r.getError().getMessage().isEmpty()
                            ? "No error"
                            : r.getError().getMessage());
            error.put("code", r.getError().getCode());
            error.put("message", r.getError().getUserMessage());
            item.put("step_id", "");
            item.set("job_id", Numbers.set(Long.parseLong(r.getJobId().split("_", 2)[0])));
            item.putObject("federation").put("sibling", "");
            if (r.getError().getCode() != 0) {
                failed = true;
                out.error(r.getError().getCode(), r.getError().getMessage(), "job " + r.getJobId(), "slurmctld");
            }
        }
        return out.reply(failed ? 500 : 200);
    }

    /** A string or a list of strings, as one comma-separated value (the filters' form). */
    private static String list(JsonNode value) {
        if (value.isArray()) {
            List<String> items = new ArrayList<>();
            value.forEach(v -> items.add(v.asText()));
            return String.join(",", items);
        }
        return value.asText("");
    }
}
