package dev.sluice.cli.command.sinfo;

import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.format.Cell;
import dev.sluice.cli.format.FormatString;
import dev.sluice.cli.format.FormatToken;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Turns (partition, node) records into sinfo's lines. Pure.
 *
 * <pre>
 *   records --group by printed per-record columns--> lines --sort--> render through -o
 * </pre>
 *
 * In node-oriented mode ({@code -N}) every node keeps its own line. Sorting: {@link SinfoOrder},
 * with {@code -S} or sinfo(1)'s defaults.
 */
final class SinfoReport {
    private final List<FormatToken> tokens;
    private final String sort;
    private final boolean nodeOriented;
    private final Clock zone;
    private final UserDirectory users;

    SinfoReport(
            String format,
            String sort,
            boolean nodeOriented,
            Clock zone,
            UserDirectory users,
            Consumer<Character> invalid) {
        this(FormatString.parse(format, SinfoColumn.letters(), invalid), sort, nodeOriented, zone, users);
    }

    /** A report over already parsed fields ({@code -O}: {@link SinfoLongFormat}). */
    SinfoReport(List<FormatToken> tokens, String sort, boolean nodeOriented, Clock zone, UserDirectory users) {
        this.sort = sort;
        this.tokens = List.copyOf(tokens);
        this.nodeOriented = nodeOriented;
        this.zone = zone;
        this.users = users;
    }

    String header() {
        StringBuilder line = new StringBuilder();
        for (FormatToken token : tokens) {
            switch (token) {
                case FormatToken.Literal l -> line.append(l.text());
                case FormatToken.Field f ->
                    line.append(cell(f, SinfoColumn.of(f.letter()).header()));
            }
        }
        return line.toString();
    }

    List<String> lines(List<NodeRecord> records) {
        Map<List<String>, SinfoLine> groups = new LinkedHashMap<>();
        for (NodeRecord r : records) {
            SinfoLine probe = new SinfoLine(zone, users);
            probe.add(r);
            List<String> key = new ArrayList<>();
            if (nodeOriented && !r.empty()) {
                // One line per node and partition, whether or not the format shows the
                // partition (Slurm 22.05 prints a node of three partitions three times).
                key.add(r.node().getName());
                key.add(r.partition().getName());
            }
            for (FormatToken token : tokens) {
                if (token instanceof FormatToken.Field f) {
                    SinfoColumn c = SinfoColumn.of(f.letter());
                    if (!c.aggregate()) {
                        key.add(SinfoColumn.value(f.letter(), probe));
                    }
                }
            }
            if (r.empty()) {
                key.add("\0empty");
            }
            groups.computeIfAbsent(key, k -> new SinfoLine(zone, users)).add(r);
        }
        List<SinfoLine> sorted = new ArrayList<>(groups.values());
        sorted.sort(SinfoOrder.parse(sort != null ? sort : nodeOriented ? SinfoOrder.NODES : SinfoOrder.DEFAULT));
        List<String> out = new ArrayList<>();
        for (SinfoLine l : sorted) {
            out.add(render(l));
        }
        return out;
    }

    private String render(SinfoLine line) {
        StringBuilder s = new StringBuilder();
        for (FormatToken token : tokens) {
            switch (token) {
                case FormatToken.Literal l -> s.append(l.text());
                case FormatToken.Field f -> s.append(cell(f, SinfoColumn.value(f.letter(), line)));
            }
        }
        return s.toString();
    }

    /** sinfo cuts every field to its width; {@code %c} is always left-justified (observed in 22.05). */
    private static String cell(FormatToken.Field f, String value) {
        boolean right = f.rightJustify() && f.letter() != 'c';
        return Cell.fit(value, f.width(), right, true);
    }
}
