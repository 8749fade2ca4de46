package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.scancel.Signals;
import dev.sluice.protocol.v1.*;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import dev.sluice.restd.slurm.SlurmApi.Call;
import java.util.List;

/** {@code jobs}, {@code job/{id}} and {@code job/submit}: as squeue, scontrol and sbatch ask the controller. */
final class JobEndpoints {
    private JobEndpoints() {}

    /** GET jobs: the whole queue, shared between pollers presenting the same token (JobListings). */
    static Reply all(Call call, Envelope out, JobListings listings) throws ControllerException {
        JobListings.Listing listing = listings.all(call.credential(), call.controller());
        out.body().putRawValue("jobs", listing.jobs());
        out.body().set("last_backfill", Numbers.unset());
        out.body().set("last_update", Numbers.set(listing.updateTime()));
        return out.reply(200);
    }

    static Reply jobs(Call call, Envelope out, List<Integer> ids) throws ControllerException {
        var answer = call.controller()
                .call(ClientRequest.newBuilder()
                        .setGetJobs(GetJobsRequest.newBuilder().addAllJobIds(ids)))
                .getGetJobs();
        ArrayNode jobs = out.body().putArray("jobs");
        answer.getJobsList().forEach(j -> jobs.add(JobJson.of(j)));
        out.body().set("last_backfill", Numbers.unset());
        out.body().set("last_update", Numbers.set(answer.getUpdateTime()));
        return out.reply(200);
    }

    static Reply submit(Call call, Envelope out) throws ControllerException, BadRequest {
        JsonNode body = call.body().orElseThrow(() -> new BadRequest(RestErrors.INVALID_JOBS_DESC, "empty body"));
        JobDescription.Parsed parsed;
        try {
            parsed = JobDescription.read(body);
        } catch (IllegalArgumentException e) {
            throw new BadRequest(RestErrors.INVALID_JOBS_DESC, e.getMessage());
        }
        parsed.ignored().forEach(f -> out.warning("field " + f + " is not supported yet and was ignored", "job"));
        SubmitBatchJobResponse answer = call.controller()
                .call(ClientRequest.newBuilder()
                        .setSubmitBatchJob(SubmitBatchJobRequest.newBuilder().setSpec(parsed.spec())))
                .getSubmitBatchJob();
        out.body().put("job_id", answer.getJobId());
        out.body().put("step_id", "batch");
        out.body().put("job_submit_user_msg", "");
        return out.reply(200);
    }

    /** DELETE job/{id}[?signal=S]: cancel it, or send it S, as scancel [-s S]. */
    /**
     * {@code signal} (a name or number) for the jobs, or their cancel when none is given; SIGKILL
     * cancels too, as scancel -s KILL does.
     */
    static void signalOrCancel(SignalJobRequest.Builder req, String signal) throws BadRequest {
        if (signal.isEmpty()) {
            req.setCancel(true);
            return;
        }
        int n = Signals.parse(signal)
                .orElseThrow(() -> new BadRequest(RestErrors.INVALID_QUERY, "unknown signal " + signal));
        req.setSignal(n).setCancel(n == 9);
    }

    static Reply cancel(Call call, Envelope out, String id) throws ControllerException, BadRequest {
        jobId(id);
        SignalJobRequest.Builder req = SignalJobRequest.newBuilder().addJobIds(id);
        signalOrCancel(req, call.query().getOrDefault("signal", ""));
        SignalJobResponse answer = call.controller()
                .call(ClientRequest.newBuilder().setSignalJob(req))
                .getSignalJob();
        return KillJobs.statuses(answer, out);
    }

    /** POST job/{id}: the changes of a {@code job_desc_msg}, as scontrol update JobId= sends them. */
    static Reply update(Call call, Envelope out, String id) throws ControllerException, BadRequest {
        jobId(id);
        JsonNode body = call.body().orElseThrow(() -> new BadRequest(RestErrors.INVALID_JOBS_DESC, "empty body"));
        JobUpdate.Parsed parsed;
        try {
            parsed = JobUpdate.read(body);
        } catch (IllegalArgumentException e) {
            throw new BadRequest(RestErrors.INVALID_JOBS_DESC, e.getMessage());
        }
        parsed.ignored().forEach(f -> out.warning("field " + f + " is not supported yet and was ignored", "job"));
        ArrayNode results = out.body().putArray("results");
        boolean failed = false;
        for (UpdateJobRequest.Builder req : parsed.requests(id)) {
            UpdateJobResponse answer = call.controller()
                    .call(ClientRequest.newBuilder().setUpdateJob(req))
                    .getUpdateJob();
            for (SignalJobResponse.Result r : answer.getResultsList()) {
                int code = r.getError().getCode();
                ObjectNode item = results.addObject();
                item.put("job_id", Integer.parseInt(r.getJobId().split("_", 2)[0]));
                item.put("step_id", "");
                item.put("error", code == 0 ? "No error" : r.getError().getMessage());
                item.put("error_code", code);
                item.put("why", r.getError().getUserMessage());
                if (code != 0) {
                    failed = true;
                    out.error(code, r.getError().getMessage(), "job " + r.getJobId(), "slurmctld");
                }
            }
        }
        return out.reply(failed ? 500 : 200);
    }

    static int jobId(String id) throws BadRequest {
        try {
            int n = Integer.parseInt(id.split("_", 2)[0]);
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new BadRequest(RestErrors.INVALID_QUERY, "invalid job id " + id);
        }
    }
}
