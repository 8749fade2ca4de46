package dev.sluice.cli.command.scancel;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignalJobResponse;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code scancel}. Behaviour observed in Slurm 22.05: cancelling an unknown or finished job is
 * silent and exits 0 unless {@code -v}; other refusals print
 * {@code scancel: error: Kill job error on job id N: TEXT} and exit with Slurm's errno modulo
 * 256 (access denied exits 210); sending a signal ({@code -s}) reports unknown jobs too and
 * exits 1 for them; an unreachable controller exits 8.
 */
public final class ScancelCommand implements Command {
    private static final String PROG = "scancel";
    // 12, 12_3, 12_[1,3-5] (a task list the controller expands), 12.0 (a step).
    private static final Pattern JOB_ID =
            Pattern.compile("[0-9]{1,10}(_([0-9]{1,10}|\\[[0-9][0-9,-]*]))?(\\.[0-9]{1,10})?");
    // What scancel 22.05 exits with when no controller answers (observed; not errno-derived).
    private static final int EXIT_NO_CONTROLLER = 8;

    static final OptionTable TABLE = OptionTable.builder()
            .unsupported('A', "account", ArgKind.REQUIRED)
            .add('b', "batch", ArgKind.NONE)
            .unsupported('M', "clusters", ArgKind.REQUIRED)
            .add('f', "full", ArgKind.NONE)
            .add((char) 0, "help", ArgKind.NONE)
            .add('H', "hurry", ArgKind.NONE)
            .unsupported('i', "interactive", ArgKind.NONE)
            .add('n', "name", ArgKind.REQUIRED)
            .add('w', "nodelist", ArgKind.REQUIRED)
            .add('p', "partition", ArgKind.REQUIRED)
            .unsupported('q', "qos", ArgKind.REQUIRED)
            .add('Q', "quiet", ArgKind.NONE)
            .unsupported('R', "reservation", ArgKind.REQUIRED)
            .unsupported((char) 0, "sibling", ArgKind.REQUIRED)
            .add('s', "signal", ArgKind.REQUIRED)
            .add('t', "state", ArgKind.REQUIRED)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('u', "user", ArgKind.REQUIRED)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .unsupported((char) 0, "wckey", ArgKind.REQUIRED)
            .build();

    private static final String USAGE = """
            Usage: scancel [-n job_name] [-u user] [-p partition] [-t PENDING | RUNNING | SUSPENDED]
                           [--batch] [-w hosts...] [--quiet] [-s signal | integer] [--verbose]
                           [job_id[_array_id][.step_id]]
            """;

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, TABLE, inv, err);
        if (line.isEmpty()) {
            return 1;
        }
        Getopt.Result parsed = line.get();
        String name = inv.env().get("SCANCEL_NAME");
        String partition = inv.env().get("SCANCEL_PARTITION");
        String state = inv.env().get("SCANCEL_STATE");
        String user = inv.env().get("SCANCEL_USER");
        String nodes = null;
        String signal = null;
        boolean batch = inv.env().containsKey("SCANCEL_BATCH");
        boolean full = inv.env().containsKey("SCANCEL_FULL");
        boolean quiet = false;
        int verbose = inv.env().containsKey("SCANCEL_VERBOSE") ? 1 : 0;
        for (ParsedOption o : parsed.options()) {
            switch (o.key()) {
                case "help", "usage" -> {
                    out.print(USAGE);
                    return 0;
                }
                case "version" -> {
                    out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                    return 0;
                }
                case "batch" -> batch = true;
                case "full" -> full = true;
                case "name" -> name = o.value();
                case "nodelist" -> nodes = o.value();
                case "partition" -> partition = o.value();
                case "quiet" -> quiet = true;
                case "signal" -> signal = o.value();
                case "state" -> state = o.value();
                case "user" -> user = o.value();
                case "verbose" -> verbose++;
                // Burst buffers do not exist in Sluice: there is no stage-out to skip.
                case "hurry" -> {}
                default -> throw new IllegalStateException("unhandled scancel option " + o.key());
            }
        }
        List<String> ids = new ArrayList<>();
        for (String id : parsed.operands()) {
            if (!JOB_ID.matcher(id).matches()) {
                err.println(PROG + ": error: Invalid job id " + id);
                return 1;
            }
            ids.add(id);
        }
        Integer signo = null;
        if (signal != null) {
            Optional<Integer> s = Signals.parse(signal);
            if (s.isEmpty()) {
                err.println("Unknown job signal: " + signal);
                return 1;
            }
            signo = s.get();
        }
        List<String> states = new ArrayList<>();
        for (String s : CommandSupport.commaList(state)) {
            String u = s.toUpperCase(Locale.ROOT);
            String longName = switch (u) {
                case "PD", "PENDING" -> "PENDING";
                case "R", "RUNNING" -> "RUNNING";
                case "S", "SUSPENDED" -> "SUSPENDED";
                default -> null;
            };
            if (longName == null) {
                err.println("Invalid job state specified: " + s);
                err.println("Valid job states are PENDING, RUNNING, and SUSPENDED");
                return 1;
            }
            states.add(longName);
        }
        if (user != null
                && !user.chars().allMatch(Character::isDigit)
                && inv.users().uid(user).isEmpty()
                && !user.equals(inv.caller().userName())) {
            err.println(PROG + ": error: Invalid user name: " + user);
            return 1;
        }
        boolean filtered = name != null || partition != null || !states.isEmpty() || user != null || nodes != null;
        if (ids.isEmpty() && !filtered) {
            err.println(PROG + ": error: No job identification provided");
            return 1;
        }

        SignalJobRequest.Builder req = SignalJobRequest.newBuilder()
                .addAllJobIds(ids)
                .setBatchOnly(batch)
                .setFull(full);
        if (signo == null) {
            req.setCancel(true);
        } else {
            req.setSignal(signo);
        }
        if (name != null) {
            req.setNameFilter(name);
        }
        if (partition != null) {
            req.setPartitionFilter(partition);
        }
        if (!states.isEmpty()) {
            req.setStateFilter(String.join(",", states));
        }
        if (user != null) {
            // The controller matches user names; a uid is translated here when it is known.
            String u = user;
            if (u.chars().allMatch(Character::isDigit) && !u.isEmpty()) {
                long uid = Long.parseLong(u);
                u = uid == inv.caller().uid()
                        ? inv.caller().userName()
                        : inv.users().userName(uid).orElse(u);
            }
            req.setUserFilter(u);
        }
        if (nodes != null) {
            req.setNodesFilter(nodes);
        }

        if (verbose > 0) {
            for (String id : ids) {
                err.println(PROG + ": " + action(id, signo, batch));
            }
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        SignalJobResponse response;
        try {
            response = client.get()
                    .call(ClientRequest.newBuilder().setSignalJob(req))
                    .getSignalJob();
        } catch (ControllerException e) {
            if (ids.isEmpty()) {
                err.println("slurm_load_jobs error: " + e.getMessage());
                return 1;
            }
            ids.forEach(id -> err.println(PROG + ": error: Kill job error on " + what(id) + ": " + e.getMessage()));
            return e.code() == ErrorCode.CONNECTION_REFUSED ? EXIT_NO_CONTROLLER : e.number() & 0xff;
        }
        if (ids.isEmpty() && response.getResultsCount() == 0) {
            if (verbose > 0) {
                err.println(PROG + ": error: No active jobs match ALL job filters, including: "
                        + describe(name, partition, states, user, nodes));
            }
            return 0;
        }
        int rc = 0;
        for (SignalJobResponse.Result r : response.getResultsList()) {
            if (ids.isEmpty() && verbose > 0) {
                err.println(PROG + ": " + action(r.getJobId(), signo, batch));
            }
            if (!r.hasError() || r.getError().getCode() == 0) {
                continue;
            }
            int code = r.getError().getCode();
            ErrorCode ec = ErrorCode.fromNumber(code);
            String text = r.getError().getMessage().isEmpty()
                    ? ec.text()
                    : r.getError().getMessage();
            boolean benign = ec == ErrorCode.INVALID_JOB_ID || ec == ErrorCode.ALREADY_DONE;
            if (signo == null && benign) {
                if (verbose > 0) {
                    err.println(PROG + ": error: Kill job error on " + what(r.getJobId()) + ": " + text);
                }
                continue;
            }
            if (!quiet || !benign) {
                err.println(PROG + ": error: Kill job error on " + what(r.getJobId()) + ": " + text);
            }
            rc = Math.max(rc, ec == ErrorCode.INVALID_JOB_ID ? 1 : code & 0xff);
        }
        return rc;
    }

    private static String what(String id) {
        return (id.contains(".") ? "job step id " : "job id ") + id;
    }

    private static String action(String id, Integer signo, boolean batch) {
        if (signo == null) {
            return "Terminating job " + id;
        }
        return "Signal " + signo + " to " + (batch ? "batch job " : "job ") + id;
    }

    // The filter summary of scancel -v, keys in Slurm's order, each followed by a space.
    private static String describe(String name, String partition, List<String> states, String user, String nodes) {
        StringBuilder s = new StringBuilder();
        if (name != null) {
            s.append("job_name=").append(name).append(' ');
        }
        if (partition != null) {
            s.append("partition=").append(partition).append(' ');
        }
        if (!states.isEmpty()) {
            s.append("state=").append(String.join(",", states)).append(' ');
        }
        if (user != null) {
            s.append("user_name=").append(user).append(' ');
        }
        if (nodes != null) {
            s.append("nodelist=").append(nodes).append(' ');
        }
        return s.toString();
    }
}
