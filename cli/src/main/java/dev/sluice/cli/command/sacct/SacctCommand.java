package dev.sluice.cli.command.sacct;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.format.FieldTable;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.cli.view.JobStates;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.JobState;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code sacct}: jobs and steps from sluice-dbd. As in Slurm 22.05: a user sees their own jobs
 * unless {@code -a}, {@code -u}, {@code -j} or they are root; the window is today from midnight
 * to now, from the epoch with {@code -j}, and "now" alone with {@code -s} but no {@code -j};
 * without {@code AccountingStorageType=accounting_storage/slurmdbd} it says accounting is
 * disabled and exits 1.
 */
public final class SacctCommand implements Command {
    private static final String PROG = "sacct";

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, SacctOptions.TABLE, inv, err);
        if (line.isEmpty()) {
            return 1;
        }
        Getopt.Result parsed = line.get();
        Request r = new Request();
        String format = inv.env().get("SACCT_FORMAT");
        try {
            for (ParsedOption o : parsed.options()) {
                switch (o.key()) {
                    case "help" -> {
                        out.print(SacctOptions.HELP);
                        return 0;
                    }
                    case "usage" -> {
                        out.print(SacctOptions.USAGE);
                        return 0;
                    }
                    case "version" -> {
                        out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                        return 0;
                    }
                    case "helpformat" -> {
                        helpFormat(out);
                        return 0;
                    }
                    case "allusers" -> r.allUsers = true;
                    case "accounts" -> r.query.addAllAccounts(CommandSupport.commaList(o.value()));
                    case "brief" -> format = names(SacctField.BRIEF);
                    case "delimiter" -> r.delimiter = o.value();
                    case "endtime" -> r.end = time(o.value(), inv);
                    case "jobs" -> r.jobs.addAll(CommandSupport.commaList(o.value()));
                    case "allclusters" -> r.allClusters = true;
                    case "clusters" -> {
                        // Slurm: "all" (or the old -1) is -L; any other list undoes it.
                        r.allClusters =
                                o.value().equalsIgnoreCase("all") || o.value().equals("-1");
                        if (!r.allClusters) {
                            r.clusters.addAll(CommandSupport.commaList(o.value()));
                        }
                    }
                    case "noheader" -> r.header = false;
                    case "name" -> r.query.addAllJobNames(CommandSupport.commaList(o.value()));
                    case "parsable" -> r.mode = FieldTable.Mode.PARSABLE;
                    case "parsable2" -> r.mode = FieldTable.Mode.PARSABLE2;
                    case "json" -> r.json = true;
                    case "partition" -> r.query.addAllPartitions(CommandSupport.commaList(o.value()));
                    case "state" -> r.states.addAll(CommandSupport.commaList(o.value()));
                    case "starttime" -> r.start = time(o.value(), inv);
                    case "user" -> {
                        // Slurm: -u -1 is -a; any other list undoes it.
                        r.allUsers = o.value().equals("-1");
                        if (!r.allUsers) {
                            r.users.addAll(CommandSupport.commaList(o.value()));
                        }
                    }
                    case "allocations" -> r.query.setAllocationsOnly(true);
                    case "units" -> {
                        // Only the first letter counts, in either case (--units=KM is K).
                        String v = o.value();
                        char u = v.isEmpty() ? 0 : Character.toUpperCase(v.charAt(0));
                        if (u == 0 || "KMGTP".indexOf(u) < 0) {
                            // Slurm prints the letter with %c: an empty value, a NUL, ends the line there.
                            err.println(PROG + ": error: Invalid unit type '"
                                    + (v.isEmpty() ? "" : v.charAt(0) + "'. Possible options are 'KMGTP'"));
                            err.println(PROG + ": fatal: Invalid unit type");
                            return 1;
                        }
                        r.unit = u;
                    }
                    case "noconvert" -> r.noConvert = true;
                    case "long" -> {
                        format = names(SacctField.LONG);
                        r.longFormat = true;
                    }
                    case "format" -> {
                        // Slurm adds every -o to one list.
                        format = r.fieldList == null ? o.value() : r.fieldList + "," + o.value();
                        r.fieldList = format;
                    }
                    case "yaml" -> r.yaml = true;
                    case "batch-script" -> r.script = true;
                    case "env-vars" -> r.environment = true;
                    case "completion" -> r.completion = true;
                    case "qos" -> r.qos = o.value();
                    case "file",
                            "flags",
                            "gid",
                            "nnodes",
                            "ncpus",
                            "timelimit-min",
                            "timelimit-max",
                            "nodelist",
                            "reason",
                            "wckeys",
                            "associations",
                            "constraints",
                            "whole-hetjob" -> {
                        if (!r.filters.apply(o.key(), o.value(), inv, err)) {
                            return 1;
                        }
                    }
                    // Every run of a requeued job, not only its latest.
                    case "duplicates" -> r.query.setDuplicates(true);
                    // One cluster and no federation: --local and --federation select the same
                    // jobs. Sluice's records carry names, not local uids; -T: Sluice keeps every
                    // job's own times (nothing to truncate to the window). No het jobs for
                    // --whole-hetjob to gather.
                    case "verbose", "federation", "local", "use-local-uid", "truncate" -> {}
                    default -> throw new IllegalStateException("unhandled sacct option " + o.key());
                }
            }
        } catch (BadTime e) {
            err.println("Invalid time specification (pos=0): " + e.getMessage());
            return 1;
        }
        if ((r.script || r.environment) && r.jobs.isEmpty()) {
            err.println(PROG + ": fatal: When requesting " + (r.environment ? "job environment" : "job scripts")
                    + " you must also request specific jobs with the '-j' option.");
            return 1;
        }
        if (r.script && r.environment) {
            err.println(PROG + ": fatal: Options --batch-script and --env-vars are mutually exclusive");
            return 1;
        }
        if (r.longFormat && r.fieldList != null) {
            err.println(PROG + ": fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove"
                    + " one and retry.");
            return 1;
        }
        if (r.completion) {
            // Sluice has no job completion plugin: JobCompType is always jobcomp/none.
            err.println("Slurm job completion is disabled");
            return 1;
        }
        List<SacctColumn> columns = new ArrayList<>();
        try {
            for (String item : CommandSupport.commaList(format)) {
                columns.add(SacctColumn.parse(item));
            }
        } catch (IllegalArgumentException e) {
            err.println(PROG + ": error: " + e.getMessage());
            return 1;
        }
        if (columns.isEmpty()) {
            SacctField.DEFAULTS.forEach(f -> columns.add(SacctColumn.of(f)));
        }
        return query(inv, r, columns, out, err);
    }

    private int query(Invocation inv, Request r, List<SacctColumn> columns, PrintStream out, PrintStream err) {
        JobSelection selection;
        try {
            selection = JobSelection.parse(r.jobs);
        } catch (IllegalArgumentException e) {
            err.println(PROG + ": fatal: Bad job/step specified: " + e.getMessage());
            return 1;
        }
        for (String s : r.states) {
            Optional<JobState> state = JobStates.parseAccounted(s);
            if (state.isEmpty()) {
                err.println(PROG + ": fatal: unrecognized job state value '" + s + "'");
                return 1;
            }
            r.query.addStates(state.get());
        }
        for (String u : r.users) {
            if (u.chars().allMatch(Character::isDigit) && !u.isEmpty()) {
                r.query.addUids((int) Long.parseLong(u));
            } else if (inv.users().uid(u).isPresent() || u.equals(inv.caller().userName())) {
                r.query.addUsers(u);
                inv.users().uid(u).ifPresent(id -> r.query.addUids(id.intValue()));
            } else {
                err.println(PROG + ": error: Invalid user id: " + u);
                return 1;
            }
        }
        // Named jobs are shown whoever owns them (without PrivateData), as Slurm 22.05 does.
        if (r.users.isEmpty() && !r.allUsers && inv.caller().uid() != 0 && selection.isEmpty()) {
            r.query.addUids((int) inv.caller().uid());
        }
        ZonedDateTime now = ZonedDateTime.now(inv.clock());
        long end = r.end != null ? r.end.getEpochSecond() : now.toEpochSecond();
        long start;
        if (r.start != null) {
            start = r.start.getEpochSecond();
        } else if (!selection.isEmpty()) {
            // Named jobs are looked for since the epoch, with -s too (-j J -s CD finds a job
            // that completed an hour ago; without -j it would not).
            start = 0;
        } else if (!r.states.isEmpty()) {
            start = now.toEpochSecond();
        } else {
            start = now.toLocalDate().atStartOfDay(now.getZone()).toEpochSecond();
        }
        if (start > end) {
            err.println(
                    PROG + ": error: Start time (" + SlurmTimestamp.format(Instant.ofEpochSecond(start), now.getZone())
                            + ") requested is after end time ("
                            + SlurmTimestamp.format(Instant.ofEpochSecond(end), now.getZone()) + ").");
            return 1;
        }
        r.query.setWindowStart(start).setWindowEnd(end).addAllJobIds(selection.jobIds());

        dev.sluice.cli.client.ClusterAccess access;
        try {
            access = inv.setup().access(ControllerLocator.confPath(inv.env(), inv.cwd()));
        } catch (ConfigException e) {
            err.println(PROG + ": error: " + e.getMessage());
            err.println(PROG + ": fatal: Unable to process configuration file");
            return 1;
        }
        if (!r.allClusters) {
            r.query.addAllClusters(r.clusters.isEmpty() ? List.of(access.conf().clusterName()) : r.clusters);
        }
        Optional<AccountingClient> client = AccountingClient.of(
                access.conf(),
                inv.caller(),
                dev.sluice.cli.client.ClientAuth.forCaller(
                        access, inv.env(), inv.caller(), java.time.Clock.systemUTC(), inv.onBehalf()));
        if (client.isEmpty()) {
            err.println("Slurm accounting storage is disabled");
            return 1;
        }
        List<AccountedJob> jobs;
        try {
            if (r.qos != null && !knownQos(client.get(), r, err)) {
                return 1;
            }
            jobs = client.get().jobs(r.query.build()).stream()
                    .filter(r.filters.predicate())
                    .toList();
        } catch (AccountingClient.AccountingException e) {
            err.println(PROG + ": error: " + e.getMessage());
            return 1;
        }
        if (r.script || r.environment) {
            // Sluice's accounting keeps neither scripts nor environments (as a slurmdbd without
            // AccountingStoreFlags=job_script,job_env): Slurm prints NONE for each job then.
            for (SacctRow row : selection.rows(jobs, true)) {
                out.println(
                        r.script
                                ? "Batch Script for " + row.jobId()
                                : "Environment used for " + row.jobId() + " (must be batch to display)");
                out.println("-".repeat(80));
                out.println("NONE");
                out.println();
            }
            return 0;
        }
        if (r.json || r.yaml) {
            List<AccountedJob> selected = selection.rows(jobs, true).stream()
                    .filter(row -> !row.isStep())
                    .map(SacctRow::job)
                    .toList();
            String document = SacctJson.document(selected, now.toEpochSecond(), inv.users());
            out.print(r.yaml ? dev.sluice.cli.json.SlurmYaml.fromJson(document) : document);
            return 0;
        }
        SacctPrinter printer = new SacctPrinter(
                columns,
                r.mode,
                r.delimiter,
                new SacctContext(now.getZone(), now.toEpochSecond(), inv.users(), r.unit()));
        if (r.header) {
            printer.header(out);
        }
        for (SacctRow row : selection.rows(jobs, r.query.getAllocationsOnly())) {
            printer.row(row, out);
        }
        return 0;
    }

    /** {@code -q}: every name must be a QOS the database knows (Slurm's messages otherwise). */
    private static boolean knownQos(AccountingClient client, Request r, PrintStream err)
            throws AccountingClient.AccountingException {
        List<String> known = client
                .call(dev.sluice.protocol.v1.DbdRequest.newBuilder()
                        .setListQos(dev.sluice.protocol.v1.ListQosRequest.getDefaultInstance()))
                .getListedQos()
                .getQosList()
                .stream()
                .map(dev.sluice.protocol.v1.QosEntry::getName)
                .toList();
        for (String q : CommandSupport.commaList(r.qos)) {
            if (known.stream().noneMatch(q::equalsIgnoreCase)) {
                err.println(
                        PROG + ": error: You gave a bad qos '" + q + "'. Valid QOS's are " + String.join(",", known));
                err.println(PROG + ": fatal: problem processing qos list");
                return false;
            }
            r.filters.qos.add(q.toLowerCase(java.util.Locale.ROOT));
        }
        return true;
    }

    private static void helpFormat(PrintStream out) {
        List<String> titles = SacctField.titles();
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < titles.size(); i++) {
            line.append(String.format("%-19s", titles.get(i)));
            if ((i + 1) % 4 == 0 || i == titles.size() - 1) {
                out.println(line);
                line.setLength(0);
            } else {
                line.append(' ');
            }
        }
    }

    private static String names(List<SacctField> fields) {
        return String.join(",", fields.stream().map(f -> f.title).toList());
    }

    private static Instant time(String text, Invocation inv) throws BadTime {
        try {
            return SacctTimes.parsePast(text, ZonedDateTime.now(inv.clock()));
        } catch (IllegalArgumentException e) {
            throw new BadTime(text);
        }
    }

    private static final class BadTime extends Exception {
        BadTime(String text) {
            super(text);
        }
    }

    /** What the command line asked for. */
    private static final class Request {
        final JobQuery.Builder query = JobQuery.newBuilder();
        final List<String> jobs = new ArrayList<>();
        final List<String> states = new ArrayList<>();
        final List<String> users = new ArrayList<>();
        final List<String> clusters = new ArrayList<>();
        boolean allUsers;
        boolean allClusters;
        boolean header = true;
        boolean json;
        boolean yaml;
        boolean longFormat;
        /** Every -o so far, joined; null when none was given. */
        String fieldList;

        boolean script;
        boolean environment;
        boolean completion;
        String qos;
        final SacctFilters filters = new SacctFilters();
        FieldTable.Mode mode = FieldTable.Mode.FIXED;
        String delimiter = "|";
        char unit;
        boolean noConvert;
        Instant start;
        Instant end;

        /** --units wins over --noconvert, which keeps memory in M, the unit it is kept in. */
        char unit() {
            return unit != 0 ? unit : noConvert ? 'M' : 0;
        }
    }
}
