package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.protocol.v1.JobAction;
import dev.sluice.protocol.v1.JobChanges;
import dev.sluice.protocol.v1.UpdateJobRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads the {@code job_desc_msg} of {@code POST job/{id}} into the changes scontrol update
 * JobId= sends: only the fields present change. Fields the controller cannot change yet are
 * named back as warnings, never silently dropped.
 */
final class JobUpdate {
    private static final Set<String> HANDLED = Set.of(
            "time_limit",
            "name",
            "comment",
            "nice",
            "priority",
            "minimum_nodes",
            "maximum_nodes",
            "tasks",
            "partition",
            "licenses",
            "hold");

    private JobUpdate() {}

    /**
     * @param changes the fields to change, or empty when only a hold or release was asked
     * @param hold {@code Boolean.TRUE} to hold, {@code FALSE} to release, null for neither
     */
    record Parsed(JobChanges changes, Boolean hold, List<String> ignored) {
        /** The controller requests, changes first: one job's update as scontrol sends it. */
        List<UpdateJobRequest.Builder> requests(String jobId) {
            List<UpdateJobRequest.Builder> out = new ArrayList<>();
            if (!changes.equals(JobChanges.getDefaultInstance())) {
                out.add(UpdateJobRequest.newBuilder().addJobIds(jobId).setChanges(changes));
            }
            if (hold != null) {
                out.add(UpdateJobRequest.newBuilder()
                        .addJobIds(jobId)
                        .setAction(hold ? JobAction.JOB_ACTION_HOLD : JobAction.JOB_ACTION_RELEASE));
            }
            return out;
        }
    }

    /**
     * @throws IllegalArgumentException when a field has the wrong type, or nothing to change is named
     */
    static Parsed read(JsonNode body) {
        // As with submit, the description may stand alone or under "job".
        JsonNode job = body.has("job") && body.get("job").isObject() ? body.get("job") : body;
        if (!job.isObject()) {
            throw new IllegalArgumentException("the job description must be a JSON object");
        }
        JobChanges.Builder c = JobChanges.newBuilder();
        OptionalLong limit = Numbers.read(job.get("time_limit"), "time_limit");
        limit.ifPresent(n -> c.setTimeLimit((int) n));
        if (job.has("name")) {
            c.setName(Fields.text(job, "name"));
        }
        if (job.has("comment")) {
            c.setComment(Fields.text(job, "comment"));
        }
        Fields.intField(job, "nice").ifPresent(n -> c.setNice((int) n));
        Fields.intField(job, "priority").ifPresent(n -> c.setPriority((int) n));
        Fields.intField(job, "minimum_nodes").ifPresent(n -> c.setMinNodes((int) n));
        Fields.intField(job, "maximum_nodes").ifPresent(n -> c.setMaxNodes((int) n));
        Fields.intField(job, "tasks").ifPresent(n -> c.setNumTasks((int) n));
        if (job.has("partition")) {
            c.setPartition(Fields.text(job, "partition"));
        }
        if (job.has("licenses")) {
            c.setLicenses(Fields.csv(job, "licenses"));
        }
        Boolean hold = null;
        JsonNode h = job.get("hold");
        if (h != null && !h.isNull()) {
            if (!h.isBoolean()) {
                throw new IllegalArgumentException("hold must be true or false");
            }
            hold = h.asBoolean();
        }
        List<String> ignored = new ArrayList<>();
        job.fieldNames().forEachRemaining(f -> {
            if (!HANDLED.contains(f)) {
                ignored.add(f);
            }
        });
        Parsed parsed = new Parsed(c.build(), hold, List.copyOf(ignored));
        if (parsed.requests("0").isEmpty()) {
            throw new IllegalArgumentException("the job description names nothing this daemon can change");
        }
        return parsed;
    }
}
