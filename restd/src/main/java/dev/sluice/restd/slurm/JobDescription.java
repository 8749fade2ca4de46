package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import dev.sluice.protocol.v1.JobSpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads v0.0.44's {@code job_submit_req} into the controller's {@link JobSpec}. Fields this
 * slice does not carry to the controller are not silently dropped: each becomes a warning.
 */
public final class JobDescription {
    private static final Set<String> HANDLED = Set.of(
            "script",
            "name",
            "partition",
            "tasks",
            "nodes",
            "minimum_nodes",
            "maximum_nodes",
            "cpus_per_task",
            "time_limit",
            "environment",
            "current_working_directory",
            "standard_output",
            "standard_error",
            "standard_input",
            "account",
            "qos",
            "comment",
            "hold",
            "requeue",
            "constraints",
            "memory_per_cpu",
            "memory_per_node",
            "array",
            "dependency",
            "nice",
            "tasks_per_node",
            "required_nodes",
            "excluded_nodes",
            "argv",
            "mail_user");

    /** What was read, and the fields that were ignored. */
    public record Parsed(JobSpec spec, List<String> ignored) {}

    private JobDescription() {}

    /** @throws IllegalArgumentException with Slurm-style wording when the body is unusable */
    public static Parsed read(JsonNode body) {
        return read(body, true);
    }

    /**
     * A {@code job_alloc_req}: the same description without a script, as salloc sends one (a
     * script given is ignored, with a warning).
     *
     * @throws IllegalArgumentException with Slurm-style wording when the body is unusable
     */
    public static Parsed readAllocation(JsonNode body) {
        return read(body, false);
    }

    private static Parsed read(JsonNode body, boolean batch) {
        if (body == null || !body.isObject()) {
            throw new IllegalArgumentException("job submission must be a JSON object");
        }
        JsonNode job = body.get("job");
        if (job == null || !job.isObject()) {
            throw new IllegalArgumentException(
                    body.has("jobs") ? "heterogeneous jobs (\"jobs\") are not supported" : "no \"job\" description");
        }
        JobSpec.Builder spec = JobSpec.newBuilder();
        List<String> ignored = new ArrayList<>();
        String script = Fields.text(body, "script");
        if (script.isEmpty()) {
            script = Fields.text(job, "script");
        }
        if (batch && script.isEmpty()) {
            throw new IllegalArgumentException("Job script not specified");
        }
        if (batch) {
            spec.setScript(ByteString.copyFrom(script, StandardCharsets.UTF_8));
        } else if (!script.isEmpty()) {
            ignored.add("script");
        }
        spec.setName(Fields.text(job, "name"));
        spec.setPartition(Fields.text(job, "partition"));
        spec.setAccount(Fields.text(job, "account"));
        spec.setQos(Fields.text(job, "qos"));
        spec.setComment(Fields.text(job, "comment"));
        spec.setConstraint(Fields.text(job, "constraints"));
        spec.setWorkDir(Fields.text(job, "current_working_directory"));
        spec.setStdOut(Fields.text(job, "standard_output"));
        spec.setStdErr(Fields.text(job, "standard_error"));
        spec.setStdIn(Fields.text(job, "standard_input"));
        spec.setArray(Fields.text(job, "array"));
        spec.setDependency(Fields.text(job, "dependency"));
        spec.setMailUser(Fields.text(job, "mail_user"));
        spec.setReqNodes(Fields.csv(job, "required_nodes"));
        spec.setExcludeNodes(Fields.csv(job, "excluded_nodes"));
        spec.setHold(job.path("hold").asBoolean(false));
        if (job.has("requeue")) {
            spec.setRequeue(job.get("requeue").asBoolean()).setRequeueSet(true);
        } else {
            spec.setRequeue(true); // as sbatch without --requeue: the cluster's JobRequeue decides
        }
        Fields.intField(job, "tasks").ifPresent(n -> spec.setNumTasks((int) n));
        Fields.intField(job, "cpus_per_task").ifPresent(n -> spec.setCpusPerTask((int) n));
        Fields.intField(job, "tasks_per_node").ifPresent(n -> spec.setNtasksPerNode((int) n));
        Fields.intField(job, "minimum_nodes").ifPresent(n -> spec.setMinNodes((int) n));
        Fields.intField(job, "maximum_nodes").ifPresent(n -> spec.setMaxNodes((int) n));
        Fields.intField(job, "nice").ifPresent(n -> spec.setNice((int) n));
        // "N" or "N-M"; v0.0.38 clients send a plain number.
        JsonNode nodes = job.get("nodes");
        nodes(nodes != null && nodes.isIntegralNumber() ? nodes.asText() : Fields.text(job, "nodes"), spec);
        Numbers.read(job.get("time_limit"), "time_limit").ifPresent(n -> spec.setTimeLimitMinutes((int) n));
        Numbers.read(job.get("memory_per_cpu"), "memory_per_cpu").ifPresent(spec::setMemPerCpuMb);
        Numbers.read(job.get("memory_per_node"), "memory_per_node").ifPresent(spec::setMemPerNodeMb);
        environment(job.get("environment"), spec);
        JsonNode argv = job.get("argv");
        if (argv != null && argv.isArray()) {
            argv.forEach(a -> spec.addScriptArgs(a.asText()));
        }
        for (Iterator<String> names = job.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!HANDLED.contains(name)) {
                ignored.add(name);
            }
        }
        return new Parsed(spec.build(), List.copyOf(ignored));
    }

    /** {@code nodes}: "N" or "N-M", as sbatch -N. */
    private static void nodes(String nodes, JobSpec.Builder spec) {
        if (nodes.isEmpty()) {
            return;
        }
        String[] range = nodes.split("-", 2);
        try {
            spec.setMinNodes(Integer.parseInt(range[0].strip()));
            if (range.length == 2) {
                spec.setMaxNodes(Integer.parseInt(range[1].strip()));
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("nodes must be N or N-M, not " + nodes);
        }
    }

    /** {@code environment}: an array of NAME=value strings (or, leniently, an object). */
    private static void environment(JsonNode env, JobSpec.Builder spec) {
        if (env == null || env.isNull()) {
            return;
        }
        if (env.isArray()) {
            for (JsonNode item : env) {
                String kv = item.asText();
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("environment entry is not NAME=value: " + kv);
                }
                spec.putEnvironment(
                        kv.substring(0, eq), ByteString.copyFrom(kv.substring(eq + 1), StandardCharsets.UTF_8));
            }
        } else if (env.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = env.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                spec.putEnvironment(e.getKey(), ByteString.copyFrom(e.getValue().asText(), StandardCharsets.UTF_8));
            }
        } else {
            throw new IllegalArgumentException("environment must be an array of NAME=value strings");
        }
    }
}
