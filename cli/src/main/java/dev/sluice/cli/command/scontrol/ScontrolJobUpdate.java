package dev.sluice.cli.command.scontrol;

import static dev.sluice.cli.command.scontrol.ScontrolCommand.PROG;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.UpdateJobRequest;
import dev.sluice.protocol.v1.UpdateJobResponse;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code scontrol hold|uhold|release JOBS} and {@code scontrol update JobId=N Key=Value...}
 * (TimeLimit, JobName/Name, Comment, Priority, Nice). Messages as Slurm 22.05's: each refused
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
                UpdateJobRequest.newBuilder().addAllJobIds(ids).setAction(action);
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
        return send(inv, UpdateJobRequest.newBuilder().addAllJobIds(ids).setAction(action), err, Style.RUN);
    }

    /** How Slurm words a failure: hold/release add a summary line, update and run actions do not. */
    private enum Style {
        HOLD,
        UPDATE,
        RUN
    }

    static int update(Invocation inv, List<String> args, PrintStream err) {
        String jobId = null;
        Map<String, String> fields = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String key = eq > 0 ? arg.substring(0, eq) : arg;
            String value = eq > 0 ? arg.substring(eq + 1) : "";
            switch (key.toLowerCase(Locale.ROOT)) {
                case "jobid" -> jobId = value;
                case "timelimit" -> {
                    try {
                        TimeLimit.parseMinutes(value);
                    } catch (IllegalArgumentException e) {
                        err.println(PROG + ": error: Invalid TimeLimit value");
                        return 1;
                    }
                    fields.put(key, value);
                }
                case "priority", "nice" -> {
                    if (!value.matches("-?[0-9]{1,10}")) {
                        err.println(PROG + ": error: Invalid " + (key.equalsIgnoreCase("nice") ? "Nice" : "Priority")
                                + " value: " + value);
                        return 1;
                    }
                    fields.put(key, value);
                }
                case "name", "jobname", "comment" -> fields.put(key, value);
                default -> {
                    err.println("Update of this parameter is not supported: " + arg);
                    err.println("Request aborted");
                    return 1;
                }
            }
        }
        UpdateJobRequest.Builder req = UpdateJobRequest.newBuilder()
                .addAllJobIds(CommandSupport.commaList(jobId))
                .putAllFields(fields);
        return send(inv, req, err, Style.UPDATE);
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
        for (SignalJobResponse.Result r : response.getResultsList()) {
            if (r.hasError() && r.getError().getCode() != 0) {
                String text = r.getError().getMessage().isEmpty()
                        ? ErrorCode.fromNumber(r.getError().getCode()).text()
                        : r.getError().getMessage();
                err.println(text + " for job " + r.getJobId());
                lastError = text;
            }
        }
        if (lastError == null) {
            return 0;
        }
        if (style == Style.HOLD) {
            err.println("slurm_suspend error: " + lastError);
        }
        return 1;
    }
}
