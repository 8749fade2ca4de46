package dev.sluice.cli.command.sreport;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.AccountedReservation;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.ReservationQuery;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code sreport reservation Utilization [Names=] [Ids=] [Nodes=] [Clusters=] [Start=] [End=]
 * [Format=]}: each reservation that was active at some time of the period, whole (the period
 * does not cut it), one line per TRES it holds ({@code -T} narrows them): what its jobs were
 * allocated and the rest of its TRES time, idle. As Slurm 22.05 prints it.
 */
final class ResvReport {
    private ResvReport() {}

    static int run(
            Invocation inv,
            SreportCommand.Options o,
            String report,
            List<String> words,
            PrintStream out,
            PrintStream err) {
        if (!TimeFormat.firstAgree(report, "Utilization", Math.max(report.length(), 1))) {
            err.println("Not valid report " + report);
            err.println("Valid reservation reports are, \"Utilization\"");
            return 1;
        }
        ZonedDateTime now = ZonedDateTime.now(inv.clock());
        Conditions c = new Conditions();
        for (String w : words) {
            if (!c.take(w, now, err)) {
                return 1;
            }
        }
        Optional<SreportCommand.Connection> conn = SreportCommand.connect(inv, err);
        if (conn.isEmpty()) {
            return 1;
        }
        ReportWindow window = ReportWindow.of(c.start, c.end, now);
        ReservationQuery.Builder q = ReservationQuery.newBuilder()
                .setStart(window.start())
                .setEnd(window.end())
                .addAllNames(c.names)
                .addAllClusters(conn.get().clusters(o, c.allClusters, c.clusters));
        Optional<DbdResponse> answer = conn.get().query(DbdRequest.newBuilder().setQueryReservations(q), err);
        if (answer.isEmpty()) {
            return 1;
        }
        List<AccountedReservation> rows = answer.get().getReservations().getReservationsList();
        ReportContext ctx = o.context(window, now.getZone(), o.tres == null ? List.of() : o.tres, true, user -> null);
        List<String> unknown = new ArrayList<>();
        List<ResvField.Chosen> cols = ResvField.choose(
                CommandSupport.commaList(c.format.isEmpty() ? ResvField.DEFAULT_FORMAT : String.join(",", c.format)),
                o.time,
                unknown);
        for (String u : unknown) {
            err.println(" Unknown field '" + u + "'");
        }
        StringBuilder text = new StringBuilder();
        ctx.banner("Reservation Utilization", false, text);
        ctx.columns(cols.stream().map(ResvField.Chosen::column).toList(), text);
        for (AccountedReservation r : rows) {
            if (c.selects(r)) {
                lines(ctx, r, cols, o.tres, text);
            }
        }
        out.print(text);
        return unknown.isEmpty() && !c.bad ? 0 : 1;
    }

    /** A reservation's lines, one per TRES shown. */
    private static void lines(
            ReportContext ctx,
            AccountedReservation r,
            List<ResvField.Chosen> cols,
            List<String> only,
            StringBuilder out) {
        Map<String, Long> counts = Tres.parse(r.getTres()).asMap();
        long seconds = Math.max(0, r.getEndTime() - r.getStartTime());
        for (var t : counts.entrySet()) {
            if (only != null && only.stream().noneMatch(n -> n.equalsIgnoreCase(t.getKey()))) {
                continue;
            }
            long total = t.getValue() * seconds;
            long alloc = r.getAllocSecsOrDefault(t.getKey(), 0L);
            long idle = Math.max(0, total - alloc);
            ReportPrinter p = ctx.printer();
            for (int i = 0; i < cols.size(); i++) {
                ReportPrinter.Column col = cols.get(i).column();
                boolean last = i == cols.size() - 1;
                switch (cols.get(i).field()) {
                    case ALLOCATED -> p.time(col, alloc, total, last, out);
                    case IDLE -> p.time(col, idle, total, last, out);
                    case ASSOCIATIONS ->
                        p.text(
                                col,
                                String.join(
                                        ",",
                                        r.getAssocIdsList().stream()
                                                .map(String::valueOf)
                                                .toList()),
                                last,
                                out);
                    case CLUSTER -> p.text(col, r.getCluster(), last, out);
                    case END -> p.text(col, ctx.stamp(r.getEndTime()), last, out);
                    case FLAGS -> p.text(col, r.getFlags(), last, out);
                    case NAME -> p.text(col, r.getName(), last, out);
                    case NODES -> p.text(col, r.getNodes(), last, out);
                    case ID -> p.number(col, Integer.toUnsignedLong(r.getId()), last, out);
                    case START -> p.text(col, ctx.stamp(r.getStartTime()), last, out);
                    case TOTAL_TIME -> p.text(col, duration(seconds), last, out);
                    case TRES_COUNT -> p.number(col, t.getValue(), last, out);
                    case TRES_NAME -> p.text(col, t.getKey(), last, out);
                    case TRES_TIME -> p.text(col, duration(total), last, out);
                }
            }
            out.append('\n');
        }
    }

    /** Slurm's secs2time_str: {@code HH:MM:SS}, {@code D-HH:MM:SS}. */
    static String duration(long seconds) {
        long days = seconds / 86_400;
        String hms = String.format("%02d:%02d:%02d", (seconds / 3600) % 24, (seconds / 60) % 60, seconds % 60);
        return days > 0 ? days + "-" + hms : hms;
    }

    /** The report's conditions, as sreport's reservation condition parser takes them. */
    private static final class Conditions {
        Instant start;
        Instant end;
        final List<String> clusters = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        final Set<Long> ids = new HashSet<>();
        final Set<String> nodes = new HashSet<>();
        final List<String> format = new ArrayList<>();
        boolean allClusters;
        boolean bad;

        /** False after printing the error when a time is malformed. */
        boolean take(String w, ZonedDateTime now, PrintStream err) {
            ConditionWord cw = ConditionWord.of(w);
            if (cw.bare() && TimeFormat.matches("all_clusters", cw.key(), 1)) {
                allClusters = true;
            } else if (cw.bare() || TimeFormat.matches("Names", cw.key(), 2)) {
                names.addAll(CommandSupport.commaList(cw.value()));
            } else if (TimeFormat.matches("Clusters", cw.key(), 1)) {
                clusters.addAll(CommandSupport.commaList(cw.value()));
            } else if (TimeFormat.matches("End", cw.key(), 1)) {
                end = ConditionWord.pastTimeAtZero(cw.value(), now, err);
                return end != null;
            } else if (TimeFormat.matches("Format", cw.key(), 1)) {
                format.addAll(CommandSupport.commaList(cw.value()));
            } else if (TimeFormat.matches("Ids", cw.key(), 1)) {
                for (String id : CommandSupport.commaList(cw.value())) {
                    try {
                        ids.add(Long.parseLong(id));
                    } catch (NumberFormatException e) {
                        bad = true;
                    }
                }
            } else if (TimeFormat.matches("Nodes", cw.key(), 2)) {
                nodes.addAll(HostList.expand(cw.value()));
            } else if (TimeFormat.matches("Start", cw.key(), 1)) {
                start = ConditionWord.pastTimeAtZero(cw.value(), now, err);
                return start != null;
            } else {
                err.println(" Unknown condition: " + w);
                err.println("Use keyword set to modify value");
                bad = true;
            }
            return true;
        }

        boolean selects(AccountedReservation r) {
            if (!ids.isEmpty() && !ids.contains(Integer.toUnsignedLong(r.getId()))) {
                return false;
            }
            if (nodes.isEmpty()) {
                return true;
            }
            return !r.getNodes().isEmpty()
                    && HostList.expand(r.getNodes()).stream().anyMatch(nodes::contains);
        }
    }
}
