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
import dev.sluice.protocol.v1.UsageQuery;
import java.io.PrintStream;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

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
    record Connection(dev.sluice.cli.client.ClusterAccess access, AccountingClient client) {}

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
        List<String> clusters = new ArrayList<>();
        if (!o.allClusters && !c.scope().allClusters()) {
            clusters.addAll(o.clusters);
            clusters.addAll(c.scope().clusters());
            if (clusters.isEmpty()) {
                clusters.add(conn.get().access().conf().clusterName());
            }
        }
        ReportWindow window = ReportWindow.of(c.start(), c.end(), now);
        ReportContext ctx = new ReportContext(
                window,
                now.getZone(),
                o.time,
                new ReportPrinter(o.mode, o.time),
                o.header,
                o.tres == null ? List.of("cpu") : expand(o.tres, List.of()),
                o.tres != null,
                user -> null);
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
        Optional<Connection> conn = connect(inv, err);
        if (conn.isEmpty()) {
            return 1;
        }
        dev.sluice.cli.client.ClusterAccess access = conn.get().access();
        Optional<AccountingClient> client = Optional.of(conn.get().client());
        ReportWindow window = ReportWindow.of(c.start, c.end, now);
        UsageQuery.Builder q = UsageQuery.newBuilder().setStart(window.start()).setEnd(window.end());
        if (!o.allClusters && !c.allClusters) {
            List<String> clusters = new ArrayList<>(o.clusters);
            clusters.addAll(c.clusters);
            q.addAllClusters(clusters.isEmpty() ? List.of(access.conf().clusterName()) : clusters);
        }
        List<ClusterUsage> usage;
        try {
            usage = client.get()
                    .call(DbdRequest.newBuilder().setQueryUsage(q))
                    .getUsage()
                    .getClustersList();
        } catch (AccountingClient.AccountingException e) {
            err.println(PROG + ": error: " + e.getMessage());
            return 1;
        }
        boolean tresGiven = o.tres != null;
        List<String> tres = tresGiven ? expand(o.tres, usage) : List.of("cpu");
        ReportContext ctx = new ReportContext(
                window,
                now.getZone(),
                o.time,
                new ReportPrinter(o.mode, o.time),
                o.header,
                tres,
                tresGiven,
                user -> inv.users().properName(user).orElse(null));
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
        List<ReportField.Chosen> cols =
                ReportField.choose(CommandSupport.commaList(format), kind == Kind.TOP_USAGE, o.time, unknown);
        for (String u : unknown) {
            err.println(" Unknown field '" + u + "'");
        }
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
    }
}
