package dev.sluice.cli.command.scancel;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.ClusterOption;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignalJobResponse;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
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

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, ScancelOptions.TABLE, inv, err);
        if (line.isEmpty()) {
            return 1;
        }
        Getopt.Result parsed = line.get();
        Filters f = Filters.fromEnv(inv);
        for (ParsedOption o : parsed.options()) {
            switch (o.key()) {
                case "help" -> {
                    out.print(ScancelOptions.HELP);
                    return 0;
                }
                case "usage" -> {
                    out.print(ScancelOptions.USAGE);
                    return 0;
                }
                case "version" -> {
                    out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                    return 0;
                }
                case "clusters" -> {
                    // One cluster: a name it knows selects this one, the request goes as usual.
                    if (ClusterOption.resolve(inv, PROG, o.value(), err).isEmpty()) {
                        return 1;
                    }
                }
                case "me" -> f.user = Long.toString(inv.caller().uid());
                default -> f.apply(o.key(), o.value());
            }
        }
        boolean batch = f.batch;
        boolean full = f.full;
        boolean quiet = f.quiet;
        int verbose = f.verbose;
        String name = f.name;
        String partition = f.partition;
        String user = f.user;
        String nodes = f.nodes;
        List<String> ids = new ArrayList<>();
        for (String id : parsed.operands()) {
            if (!JOB_ID.matcher(id).matches()) {
                err.println(PROG + ": error: Invalid job id " + id);
                return 1;
            }
            ids.add(id);
        }
        Integer signo = null;
        if (f.signal != null) {
            Optional<Integer> s = Signals.parse(f.signal);
            if (s.isEmpty()) {
                err.println("Unknown job signal: " + f.signal);
                return 1;
            }
            signo = s.get();
        }
        // One state, any of Slurm's names (-t CD is taken and matches no active job).
        List<String> states = new ArrayList<>();
        if (f.state != null) {
            Optional<String> st =
                    dev.sluice.common.slurm.JobState.parse(f.state).map(Enum::name);
            if (st.isEmpty()) {
                err.println((f.stateFromEnv ? "Unrecognized SCANCEL_STATE value: " : "Invalid job state specified: ")
                        + f.state);
                err.println("Valid job states are PENDING, RUNNING, and SUSPENDED");
                return 1;
            }
            states.add(st.get());
        }
        if (user != null
                && !user.chars().allMatch(Character::isDigit)
                && inv.users().uid(user).isEmpty()
                && !user.equals(inv.caller().userName())) {
            err.println(PROG + ": error: Invalid user name: " + user);
            return 1;
        }
        boolean filtered = f.selects();
        if (ids.isEmpty() && !filtered) {
            err.println(PROG + ": error: No job identification provided");
            return 1;
        }
        Optional<ControllerClient> early =
                f.sibling != null || f.interactive ? CommandSupport.connect(inv, PROG, err) : Optional.empty();
        if (f.sibling != null) {
            return early.map(c -> Interactive.noSibling(c, ids, err)).orElse(1);
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
        f.addTo(req);
        if (f.interactive) {
            if (early.isEmpty()) {
                return 1;
            }
            Optional<List<String>> confirmed = Interactive.confirm(early.get(), req, signo, inv.stdin(), out, err);
            if (confirmed.isEmpty()) {
                return 1;
            }
            if (confirmed.get().isEmpty()) {
                return 0;
            }
            ids.clear();
            ids.addAll(confirmed.get());
            req.clearJobIds().addAllJobIds(ids);
        }

        // Named jobs with filters: the controller drops those that do not match (22.05 filters
        // them too), so what is terminated is only known from its answer.
        boolean filterPath = filtered && !ids.isEmpty();
        if (verbose > 0 && !filterPath) {
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
                err.println(PROG + ": error: No active jobs match ALL job filters, including: " + f.describe(states));
            }
            return 0;
        }
        int rc = 0;
        int done = 0;
        for (SignalJobResponse.Result r : response.getResultsList()) {
            boolean ok = !r.hasError() || r.getError().getCode() == 0;
            done += ok ? 1 : 0;
            if ((ids.isEmpty() || (filterPath && ok)) && verbose > 0) {
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
            // After -i, an id that named no job was sent unasked and its answer is reported (22.05).
            // A step id is not: Slurm 22.05 reports a step it does not know, exit 225 (compat 101).
            boolean step = r.getJobId().contains(".");
            boolean benign =
                    !f.interactive && !step && (ec == ErrorCode.INVALID_JOB_ID || ec == ErrorCode.ALREADY_DONE);
            if (signo == null && benign) {
                if (verbose > 0) {
                    err.println(PROG + ": error: Kill job error on " + what(r.getJobId()) + ": " + text);
                }
                continue;
            }
            if (!quiet || !benign) {
                err.println(PROG + ": error: Kill job error on " + what(r.getJobId()) + ": " + text);
            }
            rc = Math.max(rc, ec == ErrorCode.INVALID_JOB_ID && !step ? 1 : code & 0xff);
        }
        if (filterPath && done == 0 && verbose > 0) {
            err.println(PROG + ": error: No active jobs match ALL job filters, including: " + f.describe(states));
        }
        return rc;
    }

    /** Slurm 22.05 names a step by its job's id alone in this line ({@code job step id 12}: compat 101). */
    private static String what(String id) {
        int dot = id.indexOf('.');
        return dot >= 0 ? "job step id " + id.substring(0, dot) : "job id " + id;
    }

    private static String action(String id, Integer signo, boolean batch) {
        if (signo == null) {
            return "Terminating job " + id;
        }
        return "Signal " + signo + " to " + (batch ? "batch job " : "job ") + id;
    }
}
