package dev.sluice.cli.command.squeue;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.ClusterOption;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.Iteration;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.cli.view.JobSelector;
import dev.sluice.cli.view.JobStates;
import dev.sluice.cli.view.JobView;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * {@code squeue}. Precedence: command line over {@code SQUEUE_*} variables over defaults.
 * Exit status 1 for bad options and controller failures; an unknown user is reported but, as
 * in Slurm, only empties the listing.
 */
public final class SqueueCommand implements Command {
    private static final String PROG = "squeue";
    private final Iteration.Sleeper sleeper;

    public SqueueCommand() {
        this(Iteration.REAL);
    }

    /** A squeue whose {@code -i} waits through {@code sleeper}. */
    public SqueueCommand(Iteration.Sleeper sleeper) {
        this.sleeper = sleeper;
    }

    // ctime(3)'s layout, which squeue -l prints above the header.
    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US);

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, SqueueOptions.TABLE, inv, err);
        if (line.isEmpty()) {
            return 1;
        }
        Getopt.Result parsed = line.get();
        SqueueSettings s = new SqueueSettings();
        s.applyEnv(inv.env());
        for (ParsedOption o : parsed.options()) {
            switch (o.key()) {
                case "help" -> {
                    out.print(SqueueOptions.HELP);
                    return 0;
                }
                case "usage" -> {
                    out.print(SqueueOptions.USAGE);
                    return 0;
                }
                case "version" -> {
                    out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                    return 0;
                }
                case "iterate" -> {
                    OptionalLong n = Iteration.seconds(o.value());
                    if (n.isEmpty()) {
                        err.println(PROG + ": error: --iterate=" + o.value() + "\n");
                        return 1;
                    }
                    s.iterate = n.getAsLong();
                }
                default -> {
                    String refused = s.apply(o.key(), o.value(), inv);
                    if (refused != null) {
                        err.println(PROG + ": error: " + refused);
                        return 1;
                    }
                }
            }
        }
        if (s.clusters != null
                && ClusterOption.resolve(inv, PROG, s.clusters, err).isEmpty()) {
            return 1;
        }
        if (s.longFormat && s.format != null) {
            err.println(PROG + ": fatal: Options -o(--format) and -l(--long) are mutually exclusive."
                    + " Please remove one and retry.");
            return 1;
        }
        // Slurm's squeue: the first word left names the jobs of a bare -j, else the steps of a
        // bare -s (squeue -j 12, squeue -s 12.0); any other is refused with the usage.
        List<String> operands = new ArrayList<>(parsed.operands());
        if (!operands.isEmpty() && s.jobFlag) {
            s.jobs = operands.remove(0);
        } else if (!operands.isEmpty() && s.steps != null) {
            s.steps = operands.remove(0);
        }
        if (!operands.isEmpty()) {
            err.println(PROG + ": error: Unrecognized option: " + operands.get(0));
            out.print(SqueueOptions.USAGE);
            return 1;
        }
        if (s.jobFlag && s.steps != null) {
            if (s.jobs == null) {
                err.println(PROG + ": error: Incompatible options --jobs and --steps");
                return 1;
            }
            // Otherwise the steps of the named jobs (Slurm: "Printing job steps with job filter").
        }
        s.applyEnvDefaults(inv.env());

        List<JobSelector> jobIds = new ArrayList<>();
        for (String id : CommandSupport.commaList(s.jobs)) {
            // Slurm reads each id as strtol does: what follows a blank is not looked at.
            Optional<JobSelector> n = JobSelector.parse(id.strip().split("\\s", 2)[0]);
            if (n.isEmpty()) {
                err.println(PROG + ": error: Invalid job id: " + id);
                return 1;
            }
            jobIds.add(n.get());
        }
        Set<JobState> states = new LinkedHashSet<>();
        boolean allStates = false;
        boolean flagsOnly = false;
        boolean completing = false;
        for (String name : CommandSupport.commaList(s.states)) {
            if (name.equalsIgnoreCase("all")) {
                allStates = true;
                continue;
            }
            Optional<JobState> st = JobStates.parse(name);
            var flag = dev.sluice.common.slurm.JobStateFlag.parse(name);
            if (st.isEmpty() && flag.isPresent()) {
                // COMPLETING is the one flag Sluice's jobs carry; asked for, another matches none.
                completing |= flag.get() == dev.sluice.common.slurm.JobStateFlag.COMPLETING;
                flagsOnly = true;
                continue;
            }
            if (st.isEmpty()) {
                err.println(PROG + ": error: Invalid job state specified: " + name);
                err.println(PROG + ": error: Valid job states include: " + VALID_STATES + "\n");
                return 1;
            }
            states.add(st.get());
        }
        if (flagsOnly && states.isEmpty() && !allStates) {
            states.add(JobState.JOB_STATE_UNSPECIFIED);
        }
        if (s.start && states.isEmpty() && !allStates) {
            states.add(JobState.PENDING);
        }
        Set<String> users = new LinkedHashSet<>();
        for (String user : CommandSupport.commaList(s.users)) {
            if (!user.chars().allMatch(Character::isDigit)
                    && inv.users().uid(user).isEmpty()
                    && !user.equals(inv.caller().userName())) {
                err.println(PROG + ": error: Invalid user: " + user + "\n");
            }
            users.add(user);
        }
        Set<String> nodes = new LinkedHashSet<>();
        if (s.nodes != null) {
            try {
                nodes.addAll(HostList.expand(s.nodes));
            } catch (IllegalArgumentException e) {
                err.println(PROG + ": error: Invalid node name " + s.nodes);
                return 1;
            }
        }
        if (s.steps != null) {
            if (s.clusters != null && !s.noHeader) {
                out.println("CLUSTER: " + CommandSupport.clusterName(inv));
            }
            return StepReport.run(
                    inv,
                    s.steps,
                    new StepReport.Filter(
                            jobIds.stream().map(j -> (int) j.id()).toList(),
                            users,
                            Set.copyOf(CommandSupport.commaList(s.partitions)),
                            nodes),
                    s.format,
                    s.noHeader,
                    out,
                    err);
        }
        JobFilter filter = new JobFilter(
                jobIds,
                users,
                Set.copyOf(CommandSupport.commaList(s.partitions)),
                states,
                completing,
                allStates,
                Set.copyOf(CommandSupport.commaList(s.names)),
                Set.copyOf(CommandSupport.commaList(s.accounts)),
                Set.copyOf(CommandSupport.commaList(s.qos)),
                nodes,
                Set.copyOf(CommandSupport.commaList(s.licenses)),
                s.reservation);

        String format = s.format != null
                ? s.format
                : s.start
                        ? JobFormatter.START_FORMAT
                        : s.longFormat ? JobFormatter.LONG_FORMAT : JobFormatter.DEFAULT_FORMAT;
        JobFormatter formatter = s.fieldNames != null
                ? JobFormatter.ofNames(
                        s.fieldNames, n -> err.println(PROG + ": error: Invalid job format specification: " + n))
                : JobFormatter.of(format, c -> err.println(PROG + ": error: Invalid job format specification: " + c));

        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        String cluster = s.json || s.yaml || s.clusters != null ? CommandSupport.clusterName(inv) : "";
        IntSupplier report = () -> report(inv, out, err, client.get(), s, jobIds, filter, formatter, cluster);
        if (s.iterate == null) {
            return report.getAsInt();
        }
        return Iteration.repeat(report, Duration.ofSeconds(s.iterate), sleeper, out);
    }

    private static int report(
            Invocation inv,
            PrintStream out,
            PrintStream err,
            ControllerClient client,
            SqueueSettings s,
            List<JobSelector> jobIds,
            JobFilter filter,
            JobFormatter formatter,
            String cluster) {
        if (s.json || s.yaml) {
            return JobJson.report(inv, out, err, client, s.yaml, cluster);
        }
        Instant now = inv.clock().instant();
        List<JobInfo> jobs;
        try {
            // Filtered here too: a job id also names its array's tasks, which are records of
            // their own, and a task id narrows what the controller sends.
            GetJobsRequest.Builder req = GetJobsRequest.newBuilder().setActiveOnly(filter.activeOnly());
            jobIds.forEach(sel -> req.addFamilyIds((int) sel.id()));
            jobs = client.call(ClientRequest.newBuilder().setGetJobs(req))
                    .getGetJobs()
                    .getJobsList();
        } catch (ControllerException e) {
            err.println("slurm_load_jobs error: " + e.getMessage());
            return 1;
        }
        // Slurm loads a single named job by id, which fails when it is unknown; a list of ids
        // is a filter over all jobs and may simply match nothing. A task of a known job that is
        // not there (J_0 of a job that is no array) is loaded and filtered away: no error.
        JobSelector wholeJob =
                jobIds.size() == 1 ? new JobSelector(jobIds.get(0).id(), -1) : null;
        if (wholeJob != null
                && jobs.stream().noneMatch(j -> wholeJob.matches(new JobView(j, now, inv.clock(), inv.users())))) {
            err.println("slurm_load_jobs error: Invalid job id specified");
            return 1;
        }

        if (s.oneLinePerTask) {
            jobs = JobSelector.oneLinePerTask(jobs);
        }
        jobs = JobSelector.narrow(jobs, jobIds);
        if (!s.noHeader) {
            // The time stamp of -l, and of every -i report (observed: 22.05 prints it once
            // when both are given).
            if (s.longFormat || s.iterate != null) {
                out.println(
                        CTIME.format(ZonedDateTime.ofInstant(now, inv.clock().getZone())));
            }
            // -M names the cluster each listing comes from (observed, after the time stamp).
            if (s.clusters != null) {
                out.println("CLUSTER: " + cluster);
            }
            out.println(formatter.header());
        }
        // The controller answers in Slurm's list order; every line of a record keeps its place.
        Map<Integer, Integer> position = new HashMap<>();
        for (JobInfo j : jobs) {
            position.putIfAbsent(j.getJobId(), position.size());
        }
        JobOrder.Result order = JobOrder.parse(
                s.sort != null ? s.sort : s.start ? JobOrder.START : JobOrder.DEFAULT,
                v -> position.getOrDefault(v.info().getJobId(), 0));
        if (!order.ok()) {
            err.println(PROG + ": error: Invalid sort specification: " + order.invalid());
            return 1;
        }
        List<JobView> views = new ArrayList<>();
        for (JobInfo j : jobs) {
            JobView v = new JobView(j, now, inv.clock(), inv.users());
            if (filter.test(v)) {
                views.add(v);
            }
        }
        views.sort(order.comparator());
        for (JobView v : views) {
            out.println(formatter.row(v));
        }
        return 0;
    }

    private static final String VALID_STATES = dev.sluice.common.slurm.JobStateFlag.allStateNames();
}
