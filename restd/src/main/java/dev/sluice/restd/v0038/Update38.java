package dev.sluice.restd.v0038;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.JobAction;
import dev.sluice.protocol.v1.JobChanges;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.UpdateJobRequest;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.http.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@code POST job/{id}} of slurmrestd 22.05: the body is a flat job description
 * ({@code v0.0.38_job_properties}), and what it changes and how it refuses is what compat 150
 * recorded. {@code time_limit} (minutes, or a time as sbatch takes it), {@code comment},
 * {@code nice} and {@code partition} change the job, {@code hold} holds or releases it, as
 * scontrol update does. Any other key of the job description is accepted and not applied, as
 * 22.05 does with {@code name} and {@code account} (compat 150); a key outside it refuses the whole
 * body with HTTP 200 and parser errors, and nothing changes. A controller refusal is HTTP 500.
 */
final class Update38 {
    /** The keys of v0.0.38's job description (Slurm 22.05's published {@code job_properties}). */
    private static final Set<String> KNOWN = Set.of(
            "account",
            "account_gather_frequency",
            "argv",
            "array",
            "batch_features",
            "begin_time",
            "burst_buffer",
            "cluster_constraint",
            "comment",
            "constraints",
            "container",
            "core_specification",
            "cores_per_socket",
            "cpu_binding",
            "cpu_binding_hint",
            "cpu_frequency",
            "cpus_per_gpu",
            "cpus_per_task",
            "current_working_directory",
            "deadline",
            "delay_boot",
            "dependency",
            "distribution",
            "environment",
            "exclusive",
            "get_user_environment",
            "gres",
            "gres_flags",
            "gpu_binding",
            "gpu_frequency",
            "gpus",
            "gpus_per_node",
            "gpus_per_socket",
            "gpus_per_task",
            "hold",
            "kill_on_invalid_dependency",
            "licenses",
            "mail_type",
            "mail_user",
            "mcs_label",
            "memory_binding",
            "memory_per_cpu",
            "memory_per_gpu",
            "memory_per_node",
            "minimum_cpus_per_node",
            "minimum_nodes",
            "name",
            "nice",
            "no_kill",
            "nodes",
            "open_mode",
            "partition",
            "priority",
            "qos",
            "requeue",
            "reservation",
            "signal",
            "sockets_per_node",
            "spread_job",
            "standard_error",
            "standard_input",
            "standard_output",
            "tasks",
            "tasks_per_core",
            "tasks_per_node",
            "tasks_per_socket",
            "thread_specification",
            "threads_per_core",
            "time_limit",
            "time_minimum",
            "wait_all_nodes",
            "wckey");

    private Update38() {}

    /** @param client the client as slurmrestd names it in errors, {@code [HOST]:PORT} (looked up when shown) */
    static Reply update(ControllerSession controller, String id, Optional<JsonNode> body, Supplier<String> client)
            throws ControllerException {
        Envelope38 out = new Envelope38();
        if (body.isEmpty()) {
            return out.reply(200);
        }
        JsonNode job = body.get();
        if (!job.isObject()) {
            return parseFailed(out, client);
        }
        List<String> unknown = new ArrayList<>();
        job.fieldNames().forEachRemaining(k -> {
            if (!KNOWN.contains(k)) {
                unknown.add(k);
            }
        });
        if (!unknown.isEmpty()) {
            unknown.forEach(k -> out.sourced("Unknown key \"" + k + "\"", "hsearch_r"));
            return parseFailed(out, client);
        }
        JobChanges.Builder changes = JobChanges.newBuilder();
        if (job.has("time_limit")) {
            Optional<Integer> minutes = minutes(job.get("time_limit"));
            if (minutes.isEmpty()) {
                out.errorCode(-1, "Invalid time specification");
                out.described(
                        "Unable to process key \"time_limit\"", -1, "Unspecified error", "slurm_process_option_data");
                return parseFailed(out, client);
            }
            changes.setTimeLimit(minutes.get());
        }
        if (job.has("comment")) {
            changes.setComment(job.get("comment").asText());
        }
        if (job.has("nice")) {
            changes.setNice(job.get("nice").asInt());
        }
        if (job.has("partition")) {
            changes.setPartition(job.get("partition").asText());
        }
        List<UpdateJobRequest.Builder> asks = new ArrayList<>();
        if (!changes.build().equals(JobChanges.getDefaultInstance())) {
            asks.add(UpdateJobRequest.newBuilder().addJobIds(id).setChanges(changes));
        }
        JsonNode hold = job.get("hold");
        if (hold != null && hold.isBoolean()) {
            asks.add(UpdateJobRequest.newBuilder()
                    .addJobIds(id)
                    .setAction(hold.asBoolean() ? JobAction.JOB_ACTION_HOLD : JobAction.JOB_ACTION_RELEASE));
        }
        for (UpdateJobRequest.Builder ask : asks) {
            int code;
            String text;
            try {
                SignalJobResponse.Result r = controller
                        .call(ClientRequest.newBuilder().setUpdateJob(ask))
                        .getUpdateJob()
                        .getResults(0);
                code = r.getError().getCode();
                text = r.getError().getMessage();
            } catch (ControllerException e) {
                code = e.number();
                text = e.getMessage();
            }
            if (code != 0) {
                return out.described("job update from " + client.get() + " failed", code, text, "_parse_job_list")
                        .reply(500);
            }
        }
        return out.reply(200);
    }

    private static Reply parseFailed(Envelope38 out, Supplier<String> client) {
        return out.described(
                        "job parsing failed for " + client.get(), 9001, "Failure during parsing", "_parse_job_list")
                .reply(200);
    }

    /** Minutes as a number, or a time as {@code sbatch -t} takes it; empty for anything else. */
    private static Optional<Integer> minutes(JsonNode value) {
        if (value.isIntegralNumber()) {
            return Optional.of(value.asInt());
        }
        if (value.isTextual()) {
            try {
                // As scontrol update TimeLimit= sends it: UNLIMITED as Slurm's INFINITE.
                return Optional.of((int) SlurmLimits.toUint32(TimeLimit.parseMinutes(value.asText())));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
