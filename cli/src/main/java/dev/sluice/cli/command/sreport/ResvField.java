package dev.sluice.cli.command.sreport;

import dev.sluice.cli.format.FormatItem;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns of sreport's reservation report ({@code format=}), in the order it matches them,
 * with the titles and widths Slurm 22.05 prints (read off the real cluster). Allocated and Idle
 * are usage columns, 9 wider when the time format has a percentage.
 */
enum ResvField {
    ALLOCATED("Allocated", 20, "Allocated", 2),
    ASSOCIATIONS("Associations", 15, "Associations", 2),
    CLUSTER("Cluster", 9, "Cluster", 1),
    END("End", 19, "End", 1),
    FLAGS("Flags", 20, "Flags", 1),
    IDLE("Idle", 20, "Idle", 1),
    NAME("Name", 9, "Name", 2),
    NODES("Nodes", 15, "Nodes", 2),
    ID("Id", 8, "ReservationId", 1),
    START("Start", 19, "Start", 1),
    TOTAL_TIME("TotalTime", 9, "TotalTime", 2),
    TRES_COUNT("TRES count", 10, "TresCount", 5),
    TRES_NAME("TRES Name", 14, "TresName", 5),
    TRES_TIME("TRES Time", 9, "TresTime", 5);

    /** sreport's default columns for this report. */
    static final String DEFAULT_FORMAT = "Cluster,Name,Start,End,TresName,Allocated,Idle";

    final String title;
    final int width;
    private final String spelling;
    private final int minLetters;

    ResvField(String title, int width, String spelling, int minLetters) {
        this.title = title;
        this.width = width;
        this.spelling = spelling;
        this.minLetters = minLetters;
    }

    /** A column of the report with its width. */
    record Chosen(ResvField field, ReportPrinter.Column column) {}

    static ResvField of(String item) {
        for (ResvField f : values()) {
            if (TimeFormat.matches(f.spelling, item, f.minLetters)) {
                return f;
            }
        }
        return null;
    }

    /** The columns of a format list ({@code Name%12} sets a width); unknown items go to {@code unknown}. */
    static List<Chosen> choose(List<String> items, TimeFormat time, List<String> unknown) {
        List<Chosen> out = new ArrayList<>();
        for (String raw : items) {
            FormatItem parsed = FormatItem.parse(raw);
            String item = parsed.name();
            int width = parsed.width();
            ResvField f = of(item);
            if (f == null) {
                unknown.add(item);
                continue;
            }
            int w = width != 0 ? width : f.width + (f.isUsage() && time.withPercent() ? 9 : 0);
            out.add(new Chosen(f, new ReportPrinter.Column(f.title, w)));
        }
        return out;
    }

    boolean isUsage() {
        return this == ALLOCATED || this == IDLE;
    }
}
