package dev.sluice.cli.command.sreport;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.cli.format.FieldTable;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.protocol.v1.ClusterUsage;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.UsageQuery;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code sreport [-a] [-M clusters] [-n] [-p|-P] [-t format] [-T tres] cluster Utilization|
 * AccountUtilizationByUser|UserUtilizationByAccount ...}, the wckey reports ({@link WckeyReport}),
 * {@code sreport job SizesByAccount|SizesByWckey}, {@code sreport user TopUsage ...} and
 * {@code sreport reservation Utilization} ({@link ResvReport}): usage from sluice-dbd's
 * hourly rollups, as Slurm 22.05's sreport reports it. Conditions as sreport takes them:
 * {@code Start= End= Clusters= Users= Accounts= Format= TopCount= Group Tree All_Clusters}.
 */
public final class SreportCommand implements Command {
    private static final String PROG = "sreport";

    static final OptionTable TABLE = OptionTable.builder()
            .add('a', "all_clusters", ArgKind.NONE)
            .add('M', "cluster", ArgKind.REQUIRED)
            .add('h', "help", ArgKind.NONE)
            .add('n', "noheader", ArgKind.NONE)
            .add('p', "parsable", ArgKind.NONE)
            .add('P', "parsable2", ArgKind.NONE)
            .add('Q', "quiet", ArgKind.NONE)
            .add('t', null, ArgKind.REQUIRED, "time")
            .add('T', "tres", ArgKind.REQUIRED)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .unsupported('s', "sort", ArgKind.REQUIRED)
            .build();

    static final String USAGE = "sreport [<OPTION>] [<COMMAND>]\n"
            + "    Valid <COMMAND> values: cluster, job, reservation, user\n"
            + "    cluster - AccountUtilizationByUser, UserUtilizationByAccount, UserUtilizationByWckey,\n"
            + "              Utilization, WCKeyUtilizationByUser\n"
            + "    job     - SizesByAccount, SizesByWckey\n"
            + "    reservation - Utilization\n"
            + "    user    - TopUsage\n";

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, TABLE, inv, err);
        if (line.isEmpty()) {
            return 1;
        }
        Getopt.Result parsed = line.get();
        Options o = new Options();
        String tresEnv = inv.env().get("SREPORT_TRES");
        if (tresEnv != null && !tresEnv.isBlank()) {
            o.tres = CommandSupport.commaList(tresEnv);
        }
        for (ParsedOption p : parsed.options()) {
            switch (p.key()) {
                case "help" -> {
                    out.print(USAGE);
                    return 0;
                }
                case "version" -> {
                    out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                    return 0;
                }
                case "all_clusters" -> o.allClusters = true;
                case "cluster" -> o.clusters.addAll(CommandSupport.commaList(p.value()));
                case "noheader" -> o.header = false;
                case "parsable" -> o.mode = FieldTable.Mode.PARSABLE;
                case "parsable2" -> o.mode = FieldTable.Mode.PARSABLE2;
                case "time" -> {
                    try {
                        o.time = TimeFormat.parse(p.value());
                    } catch (IllegalArgumentException e) {
                        // sreport prints this without a newline and goes on in minutes.
                        err.print("unknown time format " + p.value());
                    }
                }
                case "tres" -> o.tres = CommandSupport.commaList(p.value());
                case "quiet", "verbose" -> {}
                default -> throw new IllegalStateException("unhandled sreport option " + p.key());
            }
        }
        List<String> words = parsed.operands();
        if (words.isEmpty()) {
            err.print(USAGE);
            return 1;
        }
        if (words.size() < 2) {
            err.println("too few arguments for keyword:" + words.get(0));
            return 1;
        }
        String entity = words.get(0);
        String report = words.get(1);
        Kind kind;
        if (TimeFormat.matches("cluster", entity, 2)) {
            // As sreport: report names are told apart by their first letters only, in this order.
            if (TimeFormat.firstAgree(report, "AccountUtilizationByUser", 1)) {
                kind = Kind.ACCOUNT_BY_USER;
            } else if (TimeFormat.firstAgree(report, "UserUtilizationByAccount", 18)
                    || TimeFormat.firstAgree(report, "UA", 2)) {
                kind = Kind.USER_BY_ACCOUNT;
            } else if (TimeFormat.firstAgree(report, "UserUtilizationByWckey", 18)
                    || TimeFormat.firstAgree(report, "UW", 2)) {
                return WckeyReport.run(inv, o, true, words.subList(2, words.size()), out, err);
            } else if (TimeFormat.firstAgree(report, "Utilization", 2)) {
                kind = Kind.UTILIZATION;
            } else if (TimeFormat.firstAgree(report, "WCKeyUtilizationByUser", 1)) {
                return WckeyReport.run(inv, o, false, words.subList(2, words.size()), out, err);
            } else {
                err.println("Not valid report " + report);
                err.println("Valid cluster reports are, \"AccountUtilizationByUser\", \"UserUtilizationByAccount\","
                        + " \"UserUtilizationByWckey\", \"Utilization\", and \"WCKeyUtilizationByUser\"");
                return 1;
            }
        } else if (TimeFormat.matches("user", entity, 1)) {
            if (TimeFormat.firstAgree(report, "Top", 1)) {
                kind = Kind.TOP_USAGE;
            } else {
                err.println("Not valid report " + report);
                err.println("Valid user reports are, \"Top\"");
                return 1;
            }
        } else if (TimeFormat.matches("reservation", entity, 2)) {
            return ResvReport.run(inv, o, report, words.subList(2, words.size()), out, err);
        } else if (TimeFormat.matches("job", entity, 1)) {
            // sreport reads only as many letters as given: "s" is SizesByAccount; SizesByW at least.
            boolean byWckey;
            if (TimeFormat.firstAgree(report, "SizesByAccount", Math.max(report.length(), 1))) {
                byWckey = false;
            } else if (TimeFormat.firstAgree(report, "SizesByWcKey", Math.max(report.length(), 8))) {
                byWckey = true;
            } else {
                err.println("Not valid report " + report);
                err.println("Valid job reports are, \"SizesByAccount, SizesByAccountAndWcKey, and  SizesByWckey\"");
                return 1;
            }
            ZonedDateTime now = ZonedDateTime.now(inv.clock());
            JobReport.Conditions jc = JobReport.Conditions.parse(words.subList(2, words.size()), now, err);
            return jobSizes(inv, o, jc, byWckey, now, out, err);
        } else {
            err.println("invalid keyword: " + entity);
            return 1;
        }
        ZonedDateTime now = ZonedDateTime.now(inv.clock());
        ClusterConditions c = ClusterConditions.parse(words.subList(2, words.size()), kind, now, err);
        if (c == null) {
            return 1;
        }
        return report(inv, kind, o, c, now, out, err);
    }

    enum Kind {
        UTILIZATION,
        ACCOUNT_BY_USER,
        USER_BY_ACCOUNT,
        TOP_USAGE
    }

    /** The cluster's configuration and a client of its sluice-dbd; empty after saying why not. */
    record Connection(dev.sluice.cli.client.ClusterAccess access, AccountingClient client) {
        /** sluice-dbd's answer; empty after saying why there is none. */
        Optional<DbdResponse> query(DbdRequest.Builder request, PrintStream err) {
            try {
                return Optional.of(client.call(request));
            } catch (AccountingClient.AccountingException e) {
                err.println(PROG + ": error: " + e.getMessage());
                return Optional.empty();
            }
        }

        /**
         * The clusters a report covers: {@code -M} and the condition's, else this one; empty for
         * all of them ({@code -a} or {@code all_clusters}).
         */
        List<String> clusters(Options o, boolean allClusters, List<String> given) {
            if (o.allClusters || allClusters) {
                return List.of();
            }
            List<String> clusters = new ArrayList<>(o.clusters);
            clusters.addAll(given);
            return clusters.isEmpty() ? List.of(access.conf().clusterName()) : clusters;
        }
    }

    static Optional<Connection> connect(Invocation inv, PrintStream err) {
        dev.sluice.cli.client.ClusterAccess access;
        try {
            access = inv.setup().access(ControllerLocator.confPath(inv.env(), inv.cwd()));
        } catch (ConfigException e) {
            err.println(PROG + ": error: " + e.getMessage());
            err.println(PROG + ": fatal: Unable to process configuration file");
            return Optional.empty();
        }
        Optional<AccountingClient> client = AccountingClient.of(
                access.conf(),
                inv.caller(),
                dev.sluice.cli.client.ClientAuth.forCaller(
                        access, inv.env(), inv.caller(), java.time.Clock.systemUTC(), inv.onBehalf()));
        if (client.isEmpty()) {
            err.println("You are not running a supported accounting_storage plugin");
            err.println("Only 'accounting_storage/slurmdbd' is supported.");
            return Optional.empty();
        }
        return Optional.of(new Connection(access, client.get()));
    }

    /** What a usage report prints from: its context and the clusters' usage in its period. */
    record Usage(ReportContext ctx, List<ClusterUsage> clusters) {}

    /**
     * Reads the usage rolled up in the period on the clusters a report covers ({@code -T ALL}
     * takes the TRES found there); empty after saying why there is none.
     */
    static Optional<Usage> usage(
            Invocation inv,
            Options o,
            Instant start,
            Instant end,
            ZonedDateTime now,
            boolean allClusters,
            List<String> clusters,
            PrintStream err) {
        Optional<Connection> conn = connect(inv, err);
        if (conn.isEmpty()) {
            return Optional.empty();
        }
        ReportWindow window = ReportWindow.of(start, end, now);
        UsageQuery.Builder q = UsageQuery.newBuilder()
                .setStart(window.start())
                .setEnd(window.end())
                .addAllClusters(conn.get().clusters(o, allClusters, clusters));
        return conn.get()
                .query(DbdRequest.newBuilder().setQueryUsage(q), err)
                .map(answer -> answer.getUsage().getClustersList())
                .map(usage -> new Usage(
                        o.context(
                                window,
                                now.getZone(),
                                usage,
                                user -> inv.users().properName(user).orElse(null)),
                        usage));
    }

    /** The report's columns from its {@code Format=}; each unknown one is told and added to {@code unknown}. */
    static List<ReportField.Chosen> columns(
            String format, boolean userReport, TimeFormat time, List<String> unknown, PrintStream err) {
        List<ReportField.Chosen> cols = ReportField.choose(CommandSupport.commaList(format), userReport, time, unknown);
        for (String u : unknown) {
            err.println(" Unknown field '" + u + "'");
        }
        return cols;
    }

    private int jobSizes(
            Invocation inv,
            Options o,
            JobReport.Conditions c,
            boolean byWckey,
            ZonedDateTime now,
            PrintStream out,
            PrintStream err) {
        Optional<Connection> conn = connect(inv, err);
        if (conn.isEmpty()) {
            return 1;
        }
        List<String> clusters =
                conn.get().clusters(o, c.scope().allClusters(), c.scope().clusters());
        ReportWindow window = ReportWindow.of(c.start(), c.end(), now);
        ReportContext ctx = o.context(window, now.getZone(), List.of(), user -> null);
        StringBuilder text = new StringBuilder();
        try {
            int rc = JobReport.run(ctx, c, byWckey, conn.get().client(), clusters, now.toEpochSecond(), text, err);
            out.print(text);
            return rc;
        } catch (AccountingClient.AccountingException e) {
            err.println(PROG + ": error: " + e.getMessage());
            return 1;
        }
    }

    private int report(
            Invocation inv,
            Kind kind,
            Options o,
            ClusterConditions c,
            ZonedDateTime now,
            PrintStream out,
            PrintStream err) {
        Optional<Usage> found = usage(inv, o, c.start, c.end, now, c.allClusters, c.clusters, err);
        if (found.isEmpty()) {
            return 1;
        }
        ReportContext ctx = found.get().ctx();
        List<ClusterUsage> usage = found.get().clusters();
        boolean tresGiven = ctx.tresGiven();
        String format = c.format.isEmpty()
                ? switch (kind) {
                    case UTILIZATION ->
                        tresGiven ? ClusterReports.UTILIZATION_TRES_FORMAT : ClusterReports.UTILIZATION_FORMAT;
                    case ACCOUNT_BY_USER ->
                        tresGiven ? ClusterReports.ACCOUNT_BY_USER_TRES_FORMAT : ClusterReports.ACCOUNT_BY_USER_FORMAT;
                    case USER_BY_ACCOUNT ->
                        tresGiven ? UserReports.BY_ACCOUNT_TRES_FORMAT : UserReports.BY_ACCOUNT_FORMAT;
                    case TOP_USAGE -> tresGiven ? UserReports.TOP_TRES_FORMAT : UserReports.TOP_FORMAT;
                }
                : String.join(",", c.format);
        List<String> unknown = new ArrayList<>();
        List<ReportField.Chosen> cols = columns(format, kind == Kind.TOP_USAGE, o.time, unknown, err);
        out.print(
                switch (kind) {
                    case UTILIZATION -> ClusterReports.utilization(ctx, usage, cols);
                    case ACCOUNT_BY_USER -> ClusterReports.accountByUser(ctx, usage, cols, c.users, c.accounts);
                    case USER_BY_ACCOUNT -> UserReports.userByAccount(ctx, usage, cols, c.users, c.accounts);
                    case TOP_USAGE -> UserReports.topUsage(ctx, usage, cols, c.users, c.accounts, c.group, c.topCount);
                });
        return unknown.isEmpty() && !c.bad ? 0 : 1;
    }

    /** {@code -T}: names as given ({@code cpu}, {@code mem}, {@code gres/gpu}); ALL: every TRES reported. */
    static List<String> expand(List<String> names, List<ClusterUsage> usage) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (n.equalsIgnoreCase("ALL")) {
                List<String> all = new ArrayList<>();
                usage.forEach(cu -> cu.getTresList().forEach(t -> {
                    if (!all.contains(t.getTres())) {
                        all.add(t.getTres());
                    }
                }));
                return all;
            }
            String lower = n.toLowerCase(Locale.ROOT);
            if (!out.contains(lower)) {
                out.add(lower);
            }
        }
        return out;
    }

    /** The command-line options before the report. */
    static final class Options {
        boolean allClusters;
        final List<String> clusters = new ArrayList<>();
        boolean header = true;
        FieldTable.Mode mode = FieldTable.Mode.FIXED;
        TimeFormat time = TimeFormat.MINUTES;
        List<String> tres;

        /** The report's context, {@code -T}'s TRES ({@code ALL}: those in the usage) or else cpu. */
        ReportContext context(
                ReportWindow window, ZoneId zone, List<ClusterUsage> usage, Function<String, String> properName) {
            boolean given = tres != null;
            return context(window, zone, given ? expand(tres, usage) : List.of("cpu"), given, properName);
        }

        ReportContext context(
                ReportWindow window,
                ZoneId zone,
                List<String> reported,
                boolean tresGiven,
                Function<String, String> properName) {
            return new ReportContext(
                    window, zone, time, new ReportPrinter(mode, time), header, reported, tresGiven, properName);
        }
    }
}
