package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.JobAction;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import dev.sluice.protocol.v1.UpdateJobRequest;
import dev.sluice.protocol.v1.UpdateJobResponse;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import dev.sluice.restd.slurm.SlurmApi.Call;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** POST job/allocate, GET job/{id}/requeue and POST jobs/requeue: as salloc and scontrol requeue ask. */
final class JobActions {
    private JobActions() {}

    /** The states Slurm's Incomplete flag requeues: jobs that have not completed. */
    private static final Set<JobState> INCOMPLETE = EnumSet.of(JobState.RUNNING, JobState.SUSPENDED);

    /** Slurm's requeue flags ({@code Incomplete}, {@code Hold}, {@code SpecialExit}) as read. */
    private record Flags(boolean incomplete, boolean hold, boolean specialExit) {}

    /**
     * POST job/allocate: an allocation without a script, the request salloc sends; it holds its
     * nodes until its time limit, or until it is cancelled (nothing runs in it but what srun
     * starts).
     */
    static Reply allocate(Call call, Envelope out) throws ControllerException, BadRequest {
        JsonNode body = call.body().orElseThrow(() -> new BadRequest(RestErrors.INVALID_JOBS_DESC, "empty body"));
        JobDescription.Parsed parsed;
        try {
            parsed = JobDescription.readAllocation(body);
        } catch (IllegalArgumentException e) {
            throw new BadRequest(RestErrors.INVALID_JOBS_DESC, e.getMessage());
        }
        parsed.ignored().forEach(f -> out.warning("field " + f + " is not supported yet and was ignored", "job"));
        SubmitBatchJobResponse answer = call.controller()
                .call(ClientRequest.newBuilder()
                        .setSubmitBatchJob(SubmitBatchJobRequest.newBuilder()
                                .setSpec(parsed.spec())
                                .setAllocation(true)))
                .getSubmitBatchJob();
        out.body().put("job_id", answer.getJobId());
        out.body().put("job_submit_user_msg", "");
        return out.reply(200);
    }

    /** GET job/{id}/requeue[?Hold&Incomplete&SpecialExit]: as scontrol requeue[hold] ID. */
    static Reply requeueOne(Call call, Envelope out, String id) throws ControllerException, BadRequest {
        JobEndpoints.jobId(id);
        Flags flags = new Flags(queryFlag(call, "Incomplete"), queryFlag(call, "Hold"), queryFlag(call, "SpecialExit"));
        ArrayNode status = out.body().putArray("status");
        return out.reply(requeue(call, out, List.of(id), flags, status) ? 500 : 200);
    }

    /** POST jobs/requeue: {@code jobs} (ids) requeued with {@code flags}, one result list for them. */
    static Reply requeueMany(Call call, Envelope out) throws ControllerException, BadRequest {
        JsonNode body = call.body().orElseThrow(() -> new BadRequest(RestErrors.FAIL_PARSING, "empty body"));
        ArrayNode status = out.body().putArray("status");
        List<String> ids = new ArrayList<>();
        for (JsonNode j : body.path("jobs")) {
            if (!j.isTextual() && !j.isIntegralNumber()) {
                throw new BadRequest(RestErrors.FAIL_PARSING, "jobs must be a list of job ids");
            }
            JobEndpoints.jobId(j.asText());
            ids.add(j.asText());
        }
        if (ids.isEmpty()) {
            throw new BadRequest(RestErrors.INVALID_QUERY, "no jobs to requeue");
        }
        List<String> named = new ArrayList<>();
        for (JsonNode f : body.path("flags")) {
            String flag = f.asText().toLowerCase(Locale.ROOT);
            if (!Set.of("incomplete", "hold", "specialexit").contains(flag)) {
                throw new BadRequest(RestErrors.FAIL_PARSING, "unknown requeue flag " + f.asText());
            }
            named.add(flag);
        }
        Flags flags = new Flags(named.contains("incomplete"), named.contains("hold"), named.contains("specialexit"));
        boolean failed = requeue(call, out, ids, flags, status.addArray());
        return out.reply(failed ? 500 : 200);
    }

    /** Present without a value, or with one other than false/0: set, as slurmrestd reads flags. */
    private static boolean queryFlag(Call call, String name) {
        String v = call.query().get(name);
        return v != null && !v.equalsIgnoreCase("false") && !v.equals("0");
    }

    /**
     * One UpdateJobRequest of the requeue action for {@code ids}, each job's result appended to
     * {@code into}; true when any failed.
     */
    private static boolean requeue(Call call, Envelope out, List<String> ids, Flags flags, ArrayNode into)
            throws ControllerException, BadRequest {
        if (flags.specialExit() && !flags.hold()) {
            throw new BadRequest(RestErrors.INVALID_QUERY, "SpecialExit requires the Hold flag");
        }
        if (flags.specialExit()) {
            out.warning("SpecialExit is not supported yet: the job is requeued held, not in SPECIAL_EXIT", "job");
        }
        List<String> asked = flags.incomplete() ? incomplete(call, ids) : ids;
        if (asked.isEmpty()) {
            return false;
        }
        UpdateJobResponse answer = call.controller()
                .call(ClientRequest.newBuilder()
                        .setUpdateJob(UpdateJobRequest.newBuilder()
                                .addAllJobIds(asked)
                                .setAction(
                                        flags.hold()
                                                ? JobAction.JOB_ACTION_REQUEUEHOLD
                                                : JobAction.JOB_ACTION_REQUEUE)))
                .getUpdateJob();
        boolean failed = false;
        for (SignalJobResponse.Result r : answer.getResultsList()) {
            int code = r.getError().getCode();
            into.addObject()
                    .put("job_id", Integer.parseInt(r.getJobId().split("_", 2)[0]))
                    .put("step_id", "")
                    .put("error", code == 0 ? "No error" : r.getError().getMessage())
                    .put("error_code", code)
                    .put("why", r.getError().getUserMessage());
            if (code != 0) {
                failed = true;
                out.error(code, r.getError().getMessage(), "job " + r.getJobId(), "slurmctld");
            }
        }
        return failed;
    }

    /** Incomplete: only the jobs (or array tasks) of {@code ids} still running or suspended. */
    private static List<String> incomplete(Call call, List<String> ids) throws ControllerException, BadRequest {
        GetJobsRequest.Builder req = GetJobsRequest.newBuilder();
        for (String id : ids) {
            req.addFamilyIds(JobEndpoints.jobId(id));
        }
        List<JobInfo> jobs = call.controller()
                .call(ClientRequest.newBuilder().setGetJobs(req))
                .getGetJobs()
                .getJobsList();
        List<String> out = new ArrayList<>();
        for (String id : ids) {
            String[] parts = id.split("_", 2);
            int job = Integer.parseInt(parts[0]);
            for (JobInfo j : jobs) {
                boolean named = parts.length == 1
                        ? j.getJobId() == job || j.getArrayJobId() == job
                        : j.getArrayJobId() == job
                                && String.valueOf(j.getArrayTaskId()).equals(parts[1]);
                if (named && INCOMPLETE.contains(j.getState())) {
                    String one = j.getArrayJobId() == 0
                            ? String.valueOf(j.getJobId())
                            : j.getArrayJobId() + "_" + j.getArrayTaskId();
                    if (!out.contains(one)) {
                        out.add(one);
                    }
                }
            }
        }
        return out;
    }
}
