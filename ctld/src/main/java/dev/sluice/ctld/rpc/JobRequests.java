package dev.sluice.ctld.rpc;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.control.Caller;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.control.JobRunControl;
import dev.sluice.ctld.control.JobTop;
import dev.sluice.ctld.control.JobUpdate;
import dev.sluice.ctld.loop.Command;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.loop.LoopAnswers;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobChange;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.v1.JobAction;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.UpdateJobRequest;
import dev.sluice.protocol.v1.UpdateJobResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The requests that act on jobs by name or by filter (scancel, scontrol update, hold, release,
 * requeue, suspend, resume): which jobs they name, and one command per job queued on the loop
 * before any is awaited, so a request for many jobs shares the loop's batches.
 */
final class JobRequests {
    private final ControllerLoop loop;
    private final JobControl jobs;
    private final CtldConfig config;

    JobRequests(ControllerLoop loop, JobControl jobs, CtldConfig config) {
        this.loop = requireNonNull(loop, "loop is null");
        this.jobs = requireNonNull(jobs, "jobs is null");
        this.config = requireNonNull(config, "config is null");
    }

    SignalJobResponse signal(Caller caller, SignalJobRequest request) {
        List<String> targets = new ArrayList<>(request.getJobIdsList());
        if (targets.isEmpty()) {
            for (Job job : loop.image().jobs()) {
                if (!job.status().state().isFinished() && matches(job, request)) {
                    targets.add(Integer.toString(job.id()));
                }
            }
        }
        if (!request.getJobIdsList().isEmpty() && filtered(request)) {
            // scancel -p gpu 12: a named job that does not match the filters (or has finished)
            // is left alone, as Slurm's scancel filters named jobs too; an unknown id is still
            // sent and answered "Invalid job id".
            Map<Integer, Job> known = new HashMap<>();
            loop.image().jobs().forEach(j -> known.put(j.id(), j));
            targets.removeIf(t -> {
                Job job = known.get(leadingId(t.strip()));
                return job != null && (job.status().state().isFinished() || !matches(job, request));
            });
        }
        if (request.getListOnly()) {
            SignalJobResponse.Builder listed = SignalJobResponse.newBuilder();
            targets.forEach(
                    t -> listed.addResults(SignalJobResponse.Result.newBuilder().setJobId(t)));
            return listed.build();
        }
        // One command per job, queued as one group: the loop decides them in order as before,
        // but in shared batches (one sync, one pass) instead of one batch per job, so
        // `scancel -u` of 10,000 jobs takes a few batches rather than 10,000.
        JobControl.SignalScope scope = JobControl.SignalScope.of(request.getBatchOnly(), request.getFull());
        return SignalJobResponse.newBuilder()
                .addAllResults(eachJob(
                        targets,
                        target -> (state, now) -> jobs.signal(
                                state, caller, target, request.getSignal(), request.getCancel(), scope, now),
                        (result, none) -> {}))
                .build();
    }

    UpdateJobResponse update(Caller caller, UpdateJobRequest request) {
        if (request.getAction() == JobAction.JOB_ACTION_TOP) {
            return top(caller, request);
        }
        if (request.getAction() != JobAction.JOB_ACTION_UPDATE) {
            return act(caller, request);
        }
        // Parsed once, here; the loop decides on typed changes. One command per job, queued as
        // one group (one batch, one pass), as the actions below.
        List<JobChange> changes = WireMapper.changes(request.getChanges());
        return UpdateJobResponse.newBuilder()
                .addAllResults(eachJob(
                        request.getJobIdsList(),
                        target -> (state, now) -> {
                            // Each job's refusal, as Slurm's: "Invalid license specification for job N".
                            LicenseAnswers.checkUpdate(
                                    loop.scheduler().config().select().licenses(), changes);
                            return JobUpdate.update(state, caller, target, changes, now, jobs.limits());
                        },
                        JobRequests::addTaskOutcomes))
                .build();
    }

    /**
     * {@code scontrol hold|uhold|release|requeue|requeuehold|suspend|resume JOBS}: one command per
     * job, queued as one group, so the loop decides them in order in one batch and one pass
     * follows. Slurm starts released jobs at its next scheduling pass, all together; one batch per
     * job would let the first released end before the last is released and free the cores that
     * one then takes (compat 021 placed its fifth job on the first node under load).
     */
    private UpdateJobResponse act(Caller caller, UpdateJobRequest request) {
        JobAction action = request.getAction();
        Function<String, Command<Void>> command = target -> (state, now) -> switch (action) {
            case JOB_ACTION_HOLD -> jobs.hold(state, caller, target, Job.Hold.ADMIN, now);
            case JOB_ACTION_UHOLD -> jobs.hold(state, caller, target, Job.Hold.USER, now);
            case JOB_ACTION_RELEASE -> jobs.hold(state, caller, target, Job.Hold.NONE, now);
            case JOB_ACTION_REQUEUE -> JobRunControl.requeue(state, caller, target, false, requeueHoldBack(), now);
            case JOB_ACTION_REQUEUEHOLD -> JobRunControl.requeue(state, caller, target, true, requeueHoldBack(), now);
            case JOB_ACTION_SUSPEND -> JobRunControl.suspend(state, caller, target, true, now);
            case JOB_ACTION_RESUME -> JobRunControl.suspend(state, caller, target, false, now);
            case JOB_ACTION_UPDATE, JOB_ACTION_TOP, UNRECOGNIZED ->
                throw new SlurmException(ErrorCode.INVALID_ARGUMENT, "unknown action " + action);
        };
        return UpdateJobResponse.newBuilder()
                .addAllResults(eachJob(request.getJobIdsList(), command, (result, none) -> {}))
                .build();
    }

    /**
     * {@code scontrol top JOBS}: the list as typed is one target, decided as one command (the
     * jobs move together); its refusal answers for the list.
     */
    private UpdateJobResponse top(Caller caller, UpdateJobRequest request) {
        String typed = String.join(",", request.getJobIdsList());
        List<String> ids = List.of(typed.split(",", -1));
        return UpdateJobResponse.newBuilder()
                .addAllResults(eachJob(
                        List.of(typed),
                        target -> (state, now) -> JobTop.top(state, caller, ids, j -> state.priority(j.id()), now),
                        (result, none) -> {}))
                .build();
    }

    /**
     * One command per target, queued as one group (one batch, one pass), and each target's answer
     * in the order asked once its command is decided: its refusal, or what {@code outcome} adds
     * from the command's result (an array update's per-task answers).
     */
    private <T> List<SignalJobResponse.Result> eachJob(
            List<String> targets,
            Function<String, Command<T>> command,
            BiConsumer<SignalJobResponse.Result.Builder, T> outcome) {
        List<String> names = targets.stream().map(String::strip).toList();
        List<CompletableFuture<T>> pending =
                loop.submitAll(names.stream().map(command).toList());
        List<SignalJobResponse.Result> out = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            SignalJobResponse.Result.Builder r =
                    SignalJobResponse.Result.newBuilder().setJobId(names.get(i));
            try {
                outcome.accept(r, LoopAnswers.await(pending.get(i)));
            } catch (SlurmException e) {
                r.setError(LoopCalls.error(e));
            }
            out.add(r.build());
        }
        return out;
    }

    /** A whole array's update answers per group of tasks ({@code 5_0: ...}, {@code 5_1-3: ...}). */
    private static void addTaskOutcomes(SignalJobResponse.Result.Builder r, List<JobUpdate.TaskOutcome> outcomes) {
        String target = r.getJobId();
        if (outcomes == null) {
            return;
        }
        for (JobUpdate.TaskOutcome o : outcomes) {
            SignalJobResponse.Result.Builder t = SignalJobResponse.Result.newBuilder()
                    .setJobId(target + "_" + o.tasks().format());
            if (o.code() != ErrorCode.SUCCESS) {
                t.setError(LoopCalls.error(new SlurmException(o.code())));
            }
            r.addTasks(t);
        }
    }

    /** Slurm holds a requeued job back for its credential's lifetime and a second. */
    private long requeueHoldBack() {
        return config.credExpireSeconds() + 1;
    }

    private static boolean filtered(SignalJobRequest f) {
        return !f.getUserFilter().isEmpty()
                || !f.getPartitionFilter().isEmpty()
                || !f.getNameFilter().isEmpty()
                || !f.getStateFilter().isEmpty()
                || !f.getNodesFilter().isEmpty()
                || !f.getAccountFilter().isEmpty()
                || !f.getQosFilter().isEmpty()
                || !f.getReservationFilter().isEmpty()
                || !f.getWckeyFilter().isEmpty();
    }

    /** The job number a target starts with ({@code 12} of {@code 12_3.0}); -1 for none. */
    private static int leadingId(String target) {
        int end = 0;
        while (end < target.length() && Character.isDigit(target.charAt(end))) {
            end++;
        }
        try {
            return end == 0 ? -1 : Integer.parseUnsignedInt(target.substring(0, end));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean matches(Job job, SignalJobRequest f) {
        JobRequest r = job.request();
        if (!f.getUserFilter().isEmpty() && !f.getUserFilter().equals(r.owner().userName())) {
            return false;
        }
        if (!f.getPartitionFilter().isEmpty()
                && !f.getPartitionFilter().equals(job.terms().partition())) {
            return false;
        }
        if (!f.getNameFilter().isEmpty() && !f.getNameFilter().equals(r.name())) {
            return false;
        }
        if (!f.getAccountFilter().isEmpty() && !f.getAccountFilter().equalsIgnoreCase(r.account())) {
            return false;
        }
        if (!f.getQosFilter().isEmpty() && !f.getQosFilter().equalsIgnoreCase(r.qos())) {
            return false;
        }
        if (!f.getReservationFilter().isEmpty() && !f.getReservationFilter().equals(r.reservation())) {
            return false;
        }
        // scancel --wckey=NAME: a job that took NAME as its user's default (*NAME) has it too.
        if (!f.getWckeyFilter().isEmpty()
                && !f.getWckeyFilter().equals(r.wckey().name())) {
            return false;
        }
        // scancel -t PD,R: any of the listed states, long or compact names.
        if (!f.getStateFilter().isEmpty()
                && java.util.Arrays.stream(f.getStateFilter().split(","))
                        .noneMatch(st ->
                                JobState.parse(st).orElse(null) == job.status().state())) {
            return false;
        }
        if (!f.getNodesFilter().isEmpty()) {
            Set<String> wanted = new HashSet<>(HostList.expand(f.getNodesFilter()));
            return job.allocation() != null
                    && job.allocation().nodeNames().stream().anyMatch(wanted::contains);
        }
        return true;
    }
}
