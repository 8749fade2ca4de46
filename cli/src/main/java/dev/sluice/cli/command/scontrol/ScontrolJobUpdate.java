package dev.sluice.cli.command.scontrol;

import static dev.sluice.cli.command.scontrol.ScontrolCommand.PROG;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.JobAction;
import dev.sluice.protocol.v1.JobChanges;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.UpdateJobRequest;
import dev.sluice.protocol.v1.UpdateJobResponse;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code scontrol hold|uhold|release JOBS} and {@code scontrol update JobId=N Key=Value...}
 * (or {@code job N Key Value}: a tag without '=' takes the next word)
 * (TimeLimit, with {@code +N}/{@code -N}; JobName/Name, Comment, Priority, Nice, NumNodes,
 * NumTasks, Partition), each value parsed here into the request's typed fields. Messages as Slurm 22.05's: each refused
 * job prints {@code TEXT for job N}; hold and release add Slurm's
 * {@code slurm_suspend error: TEXT} line; exit status 1 on any refusal.
 */
final class ScontrolJobUpdate {
    private ScontrolJobUpdate() {}

    static int holdOrRelease(Invocation inv, String action, List<String> args, PrintStream err) {
        List<String> ids = new ArrayList<>();
        for (String a : args) {
            ids.addAll(CommandSupport.commaList(a));
        }
        if (ids.isEmpty()) {
            err.println("too few arguments for keyword:" + action);
            return 1;
        }
        UpdateJobRequest.Builder req =
                UpdateJobRequest.newBuilder().addAllJobIds(ids).setAction(jobAction(action));
        return send(inv, req, err, Style.HOLD);
    }

    /**
     * {@code scontrol requeue|requeuehold|suspend|resume JOBS}: comma-separated ids, each refused
     * one printing {@code TEXT for job N} (Slurm 22.05 adds no summary line for these).
     */
    static int requeueOrSuspend(Invocation inv, String action, List<String> args, PrintStream err) {
        List<String> ids = new ArrayList<>();
        for (String a : args) {
            ids.addAll(CommandSupport.commaList(a));
        }
        if (ids.isEmpty()) {
            err.println("too few arguments for keyword:" + action);
            return 1;
        }
        return send(inv, UpdateJobRequest.newBuilder().addAllJobIds(ids).setAction(jobAction(action)), err, Style.RUN);
    }

    /**
     * {@code scontrol top JOB[,JOB...]}: the list as typed is decided as one by the controller,
     * a refusal printing {@code TEXT for job LIST} (compat 306, 307).
     */
    static int top(Invocation inv, List<String> args, PrintStream err) {
        if (args.isEmpty()) {
            err.println("too few arguments for keyword:top");
            return 1;
        }
        UpdateJobRequest.Builder req =
                UpdateJobRequest.newBuilder().addJobIds(String.join(",", args)).setAction(JobAction.JOB_ACTION_TOP);
        return send(inv, req, err, Style.RUN);
    }

    /** The request's action for scontrol's keyword ({@code requeuehold}: JOB_ACTION_REQUEUEHOLD). */
    private static JobAction jobAction(String keyword) {
        return JobAction.valueOf("JOB_ACTION_" + keyword.toUpperCase(Locale.ROOT));
    }

    /** How Slurm words a failure: hold/release add a summary line, update and run actions do not. */
    private enum Style {
        HOLD,
        UPDATE,
        RUN
    }

    /** @param quiet {@code -Q}: the controller's refusals are not printed, bad values still are */
    static int update(Invocation inv, List<String> args, PrintStream err, boolean quiet) {
        String jobId = null;
        JobChanges.Builder changes = JobChanges.newBuilder();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            int eq = arg.indexOf('=');
            String key = eq > 0 ? arg.substring(0, eq) : arg;
            String value = eq > 0 ? arg.substring(eq + 1) : "";
            if (eq < 0 && i + 1 < args.size()) {
                // Slurm's scontrol takes a tag without '=' with the next word as its value:
                // scontrol update job 12 Licenses=foo
                value = args.get(++i);
                arg = arg + "=" + value;
            }
            String k = key.toLowerCase(Locale.ROOT);
            // Slurm takes ArrayTaskThrottle from its first 10 letters on.
            if (k.length() >= 10 && "arraytaskthrottle".startsWith(k)) {
                long throttle;
                try {
                    throttle = Long.parseLong(value.strip());
                } catch (NumberFormatException e) {
                    throttle = 0; // strtoll's answer to what is not a number
                }
                if (throttle < 0) {
                    err.println(PROG + ": error: Invalid ArrayTaskThrottle value");
                    return 1;
                }
                changes.setArrayTaskThrottle((int) Math.min(throttle, SlurmLimits.INFINITE));
                continue;
            }
            // JobId from its first three letters on (job, jobi), as Slurm's scontrol takes it.
            if (k.length() >= 3 && "jobid".startsWith(k)) {
                jobId = value;
                continue;
            }
            switch (k) {
                case "timelimit" -> {
                    OptionalLong minutes = timeLimit(inv, jobId, value, err);
                    if (minutes.isEmpty()) {
                        return 1;
                    }
                    changes.setTimeLimit((int) minutes.getAsLong());
                }
                case "priority" -> {
                    OptionalLong p = uint32(value);
                    if (p.isEmpty()) {
                        err.println(PROG + ": error: Invalid Priority value: " + value);
                        return 1;
                    }
                    changes.setPriority((int) p.getAsLong());
                }
                case "nice" -> {
                    long nice;
                    try {
                        nice = Long.parseLong(value.strip());
                    } catch (NumberFormatException e) {
                        nice = 0; // strtoll's answer to what is not a number
                    }
                    if (Math.abs(nice) > NICE_LIMIT) {
                        err.println(PROG + ": error: Nice value out of range (+/- " + NICE_LIMIT + "). Value ignored");
                        return 1;
                    }
                    changes.setNice((int) nice);
                }
                case "numnodes", "reqnodes" -> {
                    if (!nodeCount(value, changes)) {
                        err.println(
                                PROG + ": error: Invalid numeric value \"" + value + "\" for requested node count.");
                        return 1;
                    }
                }
                case "numtasks", "reqprocs" -> {
                    OptionalLong n = uint32(value);
                    if (n.isEmpty()) {
                        err.println(PROG + ": error: Invalid NumTasks value: " + value);
                        return 1;
                    }
                    changes.setNumTasks((int) n.getAsLong());
                }
                case "partition" -> changes.setPartition(value);
                case "name", "jobname" -> changes.setName(value);
                case "comment" -> changes.setComment(value);
                case "licenses" -> changes.setLicenses(value);
                case "wckey" -> changes.setWckey(value);
                default -> {
                    err.println("Update of this parameter is not supported: " + arg);
                    err.println("Request aborted");
                    return 1;
                }
            }
        }
        if (changes.build().equals(JobChanges.getDefaultInstance())) {
            err.println("No changes specified");
            return 1;
        }
        UpdateJobRequest.Builder req = UpdateJobRequest.newBuilder()
                .addAllJobIds(CommandSupport.commaList(jobId))
                .setChanges(changes);
        return send(inv, req, QuietErrors.of(err, quiet), Style.UPDATE);
    }

    /** Slurm's NICE_OFFSET - 3: the most a nice value may be either way. */
    static final long NICE_LIMIT = 2147483645L;

    /**
     * {@code TimeLimit=}: a limit in minutes (INFINITE for UNLIMITED), or, with a leading
     * {@code +} or {@code -}, the job's limit moved by that much: scontrol asks the controller
     * for the job's limit first, as Slurm's does.
     */
    private static OptionalLong timeLimit(Invocation inv, String jobId, String value, PrintStream err) {
        boolean relative = value.startsWith("+") || value.startsWith("-");
        long minutes;
        try {
            minutes = TimeLimit.parseMinutes(relative ? value.substring(1) : value);
        } catch (IllegalArgumentException e) {
            err.println(PROG + ": error: Invalid TimeLimit value");
            return OptionalLong.empty();
        }
        long limit = SlurmLimits.toUint32(minutes);
        if (!relative) {
            return OptionalLong.of(limit);
        }
        if (jobId == null) {
            err.println(PROG + ": error: JobId must precede TimeLimit increment or decrement");
            return OptionalLong.empty();
        }
        OptionalLong current = currentLimit(inv, jobId, err);
        if (current.isEmpty()) {
            return current;
        }
        long now = current.getAsLong();
        if (value.startsWith("+")) {
            // UNLIMITED stays so; a sum past uint32 is kept below Slurm's sentinels.
            boolean unlimited = now == SlurmLimits.INFINITE || limit == SlurmLimits.INFINITE;
            return OptionalLong.of(unlimited ? SlurmLimits.INFINITE : Math.min(now + limit, SlurmLimits.NO_VAL - 1));
        }
        if (limit > now) {
            err.println(
                    PROG + ": error: TimeLimit decrement larger than current time limit (" + limit + " > " + now + ")");
            return OptionalLong.empty();
        }
        return OptionalLong.of(now - limit);
    }

    /** The job's time limit in minutes, as Slurm's scontrol finds it (a single job only). */
    private static OptionalLong currentLimit(Invocation inv, String jobId, PrintStream err) {
        int id;
        try {
            id = Integer.parseInt(jobId.strip());
        } catch (NumberFormatException e) {
            err.println(PROG + ": error: Invalid job ID " + jobId);
            return OptionalLong.empty();
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return OptionalLong.empty();
        }
        Optional<JobInfo> job;
        try {
            job = client
                    .get()
                    .call(ClientRequest.newBuilder()
                            .setGetJobs(GetJobsRequest.newBuilder().addJobIds(id)))
                    .getGetJobs()
                    .getJobsList()
                    .stream()
                    .filter(j -> j.getJobId() == id)
                    .findFirst();
        } catch (ControllerException e) {
            err.println(PROG + ": error: " + e.getMessage());
            return OptionalLong.empty();
        }
        if (job.isEmpty()) {
            err.println(PROG + ": error: Job ID " + jobId + " not found");
            return OptionalLong.empty();
        }
        return OptionalLong.of(Integer.toUnsignedLong(job.get().getTimeLimitMinutes()));
    }

    /**
     * {@code NumNodes=N} (the least count) or {@code N-M} (both), as Slurm's
     * get_resource_arg_range reads it; {@code 0} as itself.
     */
    static boolean nodeCount(String value, JobChanges.Builder changes) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("([0-9]+)(?:-([0-9]+))?").matcher(value.strip());
        if (!m.matches()) {
            return false;
        }
        try {
            changes.setMinNodes(Math.toIntExact(Long.parseLong(m.group(1))));
            if (m.group(2) != null) {
                int max = Math.toIntExact(Long.parseLong(m.group(2)));
                if (max <= 0) {
                    return false;
                }
                changes.setMaxNodes(max);
            }
        } catch (ArithmeticException | NumberFormatException e) {
            return false;
        }
        return true;
    }

    /** A uint32 as Slurm's parse_uint32 takes it. */
    private static OptionalLong uint32(String value) {
        if (!value.strip().matches("[0-9]{1,10}")) {
            return OptionalLong.empty();
        }
        long v = Long.parseLong(value.strip());
        return v > SlurmLimits.INFINITE ? OptionalLong.empty() : OptionalLong.of(v);
    }

    private static String text(SignalJobResponse.Result r) {
        return r.getError().getMessage().isEmpty()
                ? ErrorCode.fromNumber(r.getError().getCode()).text()
                : r.getError().getMessage();
    }

    private static int send(Invocation inv, UpdateJobRequest.Builder req, PrintStream err, Style style) {
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        UpdateJobResponse response;
        try {
            response = client.get()
                    .call(ClientRequest.newBuilder().setUpdateJob(req))
                    .getUpdateJob();
        } catch (ControllerException e) {
            err.println((style == Style.UPDATE ? "slurm_update error: " : "slurm_suspend error: ") + e.getMessage());
            return 1;
        }
        String lastError = null;
        boolean failed = false;
        for (SignalJobResponse.Result r : response.getResultsList()) {
            // A whole array answers per group of tasks; more than one group is a failure to
            // scontrol 22.05 even when every group says "No error".
            for (SignalJobResponse.Result t : r.getTasksList()) {
                boolean ok = !t.hasError() || t.getError().getCode() == 0;
                if (ok && r.getTasksCount() == 1) {
                    continue;
                }
                failed = true;
                err.println(t.getJobId() + ": " + (ok ? ErrorCode.SUCCESS.text() : text(t)));
            }
            if (r.hasError() && r.getError().getCode() != 0) {
                String text = text(r);
                err.println(text + " for job " + r.getJobId());
                lastError = text;
            }
        }
        if (lastError == null) {
            return failed ? 1 : 0;
        }
        if (style == Style.HOLD) {
            err.println("slurm_suspend error: " + lastError);
        }
        return 1;
    }
}
