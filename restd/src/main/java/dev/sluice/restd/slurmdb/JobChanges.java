package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ModifiedJob;
import dev.sluice.protocol.v1.ModifyJobsRequest;
import dev.sluice.protocol.v1.ModifyResult;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code POST job/{job_id}} and {@code POST jobs/} of v0.0.44 and later: a job record's
 * comments and derived exit code changed as {@code sacctmgr modify job} changes them, over the
 * same sluice-dbd request (a job's owner its own job's comment and exit code, operators the
 * rest; the daemon's 2002 otherwise). slurmrestd answers {@code results}, slurmdbd's line per
 * job ({@code 5000000 submitted at 2026-12-06T18:55:26}). A field sluice-dbd keeps no changes of
 * ({@code extra}, {@code tres/allocated}) is refused by name; a {@code wckey} changes nothing on
 * jobs picked by id, as sacctmgr's NewWCKey did in Slurm 22.05 (compat 294).
 */
final class JobChanges {
    private static final Set<String> APPLIED = Set.of("comment", "derived_exit_code", "wckey");
    private static final Set<String> COMMENTS = Set.of("administrator", "job", "system");

    private JobChanges() {}

    /** {@code POST job/{job_id}}: the body is the job record's changes. */
    static Reply one(
            AccountingSession dbd, Envelope out, String id, Optional<JsonNode> body, String cluster, ZoneId zone)
            throws AccountingException, DbWrites.BadBody {
        JsonNode rec = body.orElseThrow(() -> new DbWrites.BadBody("a job update needs a body"));
        return modify(dbd, out, List.of(jobId(id)), rec, cluster, zone);
    }

    /** {@code POST jobs/}: {@code job_id_list} picks, {@code job_rec} changes. */
    static Reply many(AccountingSession dbd, Envelope out, Optional<JsonNode> body, String cluster, ZoneId zone)
            throws AccountingException, DbWrites.BadBody {
        JsonNode req = body.orElseThrow(() -> new DbWrites.BadBody("a job update needs a body"));
        DbWrites.onlyApplied(req, Set.of("job_id_list", "job_rec", "meta", "errors", "warnings"), "");
        List<String> ids = DbWrites.strings(req, "job_id_list");
        if (ids.isEmpty()) {
            throw new DbWrites.BadBody("job_id_list names no job");
        }
        JsonNode rec = req.path("job_rec");
        if (!rec.isObject()) {
            throw new DbWrites.BadBody("job_rec must be an object");
        }
        List<Integer> jobs = new java.util.ArrayList<>();
        for (String id : ids) {
            jobs.add(jobId(id));
        }
        return modify(dbd, out, jobs, rec, cluster, zone);
    }

    private static Reply modify(
            AccountingSession dbd, Envelope out, List<Integer> ids, JsonNode rec, String cluster, ZoneId zone)
            throws AccountingException, DbWrites.BadBody {
        ModifyJobsRequest.Builder r = read(rec).setCluster(cluster).addAllJobIds(ids);
        ModifyResult tried = dbd.call(
                        DbdRequest.newBuilder().setModifyJobs(r.clone().setCommit(false)))
                .getModified();
        ArrayNode results = out.body().putArray("results");
        if (tried.getJobsCount() == 0) {
            // slurmdbd's comment when nothing changed (an unknown job: compat 293).
            RestErrors none = RestErrors.INVALID_QUERY;
            out.error(none.number(), none.text(), tried.getNote(), "slurmdb_job_modify()");
            return out.reply(none.httpStatus());
        }
        ModifyResult done = dbd.call(DbdRequest.newBuilder().setModifyJobs(r.setCommit(true)))
                .getModified();
        for (ModifiedJob j : done.getJobsList()) {
            results.add(Integer.toUnsignedString(j.getJobId()) + " submitted at "
                    + SlurmTimestamp.format(Instant.ofEpochSecond(j.getSubmitTime()), zone));
        }
        return out.reply(200);
    }

    /** The request a {@code job_modify} record makes; a field not kept is refused by its path. */
    static ModifyJobsRequest.Builder read(JsonNode rec) throws DbWrites.BadBody {
        if (!rec.isObject()) {
            throw new DbWrites.BadBody("the job record must be an object");
        }
        DbWrites.refuseUnapplied(rec, "", APPLIED, Set.of(), "");
        ModifyJobsRequest.Builder r = ModifyJobsRequest.newBuilder();
        JsonNode comment = rec.path("comment");
        if (!comment.isMissingNode() && !comment.isNull()) {
            if (!comment.isObject()) {
                throw new DbWrites.BadBody("comment must be an object");
            }
            DbWrites.onlyApplied(comment, COMMENTS, "comment/");
            text(comment, "administrator").ifPresent(r::setAdminComment);
            text(comment, "job").ifPresent(r::setComment);
            text(comment, "system").ifPresent(r::setSystemComment);
        }
        JsonNode derived = rec.path("derived_exit_code");
        if (!derived.isMissingNode() && !derived.isNull()) {
            if (!derived.isObject()) {
                throw new DbWrites.BadBody("derived_exit_code must be an object");
            }
            Optional<Long> code = DbWrites.count(derived.path("return_code"), "derived_exit_code/return_code");
            Optional<Long> signal = DbWrites.count(derived.path("signal").path("id"), "derived_exit_code/signal/id");
            if (code.orElse(0L) > 255 || signal.orElse(0L) > 127) {
                throw new DbWrites.BadBody("derived_exit_code holds a return code up to 255 and a signal up to 127");
            }
            if (code.isPresent() || signal.isPresent()) {
                // A wait status, as sacct's DerivedExitCode reads it.
                r.setDerivedExitStatus((int) ((code.orElse(0L) << 8) | signal.orElse(0L)));
            }
        }
        text(rec, "wckey").ifPresent(r::setWckey);
        if (!r.hasDerivedExitStatus()
                && !r.hasComment()
                && !r.hasAdminComment()
                && !r.hasSystemComment()
                && !r.hasWckey()) {
            throw new DbWrites.BadBody("the job record changes nothing");
        }
        return r;
    }

    /** A string field as given (a comment keeps its spaces); absent or null: not changed. */
    private static Optional<String> text(JsonNode o, String field) throws DbWrites.BadBody {
        JsonNode v = o.path(field);
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            throw new DbWrites.BadBody(field + " must be a string");
        }
        return Optional.of(v.asText());
    }

    /** A job id of the path or job_id_list: a job (a step's job id is not taken). */
    private static int jobId(String id) throws DbWrites.BadBody {
        try {
            return QueryParams.jobId(id.strip());
        } catch (IllegalArgumentException e) {
            throw new DbWrites.BadBody("invalid job id " + id);
        }
    }
}
