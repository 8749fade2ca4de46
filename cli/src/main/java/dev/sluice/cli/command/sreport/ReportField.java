package dev.sluice.cli.command.sreport;

import dev.sluice.cli.format.FormatItem;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns sreport's reports know, matched as it matches {@code format=} items (a prefix of
 * at least so many letters), with their titles and widths; {@code %N} after an item sets the
 * width (usage columns are then sized to their values anyway, as in Slurm).
 */
enum ReportField {
    ACCOUNT("Account", 15),
    ALLOCATED("Allocated", 12),
    CLUSTER("Cluster", 9),
    DOWN("Down", 10),
    IDLE("Idle", 12),
    LOGIN("Login", 9),
    OVER("Over Comm", 9),
    PLANNED_DOWN("PLND Down", 10),
    PROPER("Proper Name", 15),
    REPORTED("Reported", 12),
    PLANNED("Planned", 9),
    TRES_COUNT("TRES Count", 10),
    TRES_NAME("TRES Name", 14),
    USED("Used", 10),
    WCKEY("WCKey", 15),
    ENERGY("Energy", 10);

    final String title;
    final int width;

    ReportField(String title, int width) {
        this.title = title;
        this.width = width;
    }

    /** A column of a report, with its width. */
    record Chosen(ReportField field, ReportPrinter.Column column) {}

    /** Cluster reports' spellings (cluster_reports.c), in their order of matching. */
    static ReportField cluster(String item) {
        if (TimeFormat.matches("Accounts", item, 2)) {
            return ACCOUNT;
        }
        if (TimeFormat.matches("allocated", item, 2)) {
            return ALLOCATED;
        }
        if (TimeFormat.matches("Cluster", item, 2)) {
            return CLUSTER;
        }
        if (TimeFormat.matches("down", item, 1)) {
            return DOWN;
        }
        if (TimeFormat.matches("idle", item, 1)) {
            return IDLE;
        }
        if (TimeFormat.matches("Login", item, 1)) {
            return LOGIN;
        }
        if (TimeFormat.matches("overcommitted", item, 1)) {
            return OVER;
        }
        if (TimeFormat.matches("PlannedDown", item, 2)) {
            return PLANNED_DOWN;
        }
        if (TimeFormat.matches("Proper", item, 2)) {
            return PROPER;
        }
        if (TimeFormat.matches("reported", item, 3)) {
            return REPORTED;
        }
        if (TimeFormat.matches("reserved", item, 3) || TimeFormat.matches("planned", item, 4)) {
            return PLANNED;
        }
        if (TimeFormat.matches("TresCount", item, 5)
                || TimeFormat.matches("cpucount", item, 2)
                || TimeFormat.matches("count", item, 2)) {
            return TRES_COUNT;
        }
        if (TimeFormat.matches("TresName", item, 5)) {
            return TRES_NAME;
        }
        if (TimeFormat.matches("Used", item, 1)) {
            return USED;
        }
        if (TimeFormat.matches("WCKey", item, 2)) {
            return WCKEY;
        }
        if (TimeFormat.matches("Energy", item, 1)) {
            return ENERGY;
        }
        return null;
    }

    /** User reports' spellings (user_reports.c). */
    static ReportField user(String item) {
        if (TimeFormat.matches("Accounts", item, 1)) {
            return ACCOUNT;
        }
        if (TimeFormat.matches("Cluster", item, 1)) {
            return CLUSTER;
        }
        if (TimeFormat.matches("Energy", item, 1)) {
            return ENERGY;
        }
        if (TimeFormat.matches("Login", item, 1)) {
            return LOGIN;
        }
        if (TimeFormat.matches("Proper", item, 1)) {
            return PROPER;
        }
        if (TimeFormat.matches("TresName", item, 5)) {
            return TRES_NAME;
        }
        if (TimeFormat.matches("Used", item, 1)) {
            return USED;
        }
        return null;
    }

    /**
     * The columns of a {@code format=} list; unknown items are reported to {@code unknown}
     * (sreport prints {@code  Unknown field 'x'} and exits 1 after the report).
     */
    static List<Chosen> choose(List<String> items, boolean userReport, TimeFormat time, List<String> unknown) {
        List<Chosen> out = new ArrayList<>();
        for (String raw : items) {
            FormatItem parsed = FormatItem.parse(raw);
            String item = parsed.name();
            int width = parsed.width();
            ReportField f = userReport ? user(item) : cluster(item);
            if (f == null) {
                unknown.add(item);
                continue;
            }
            int w = width != 0 ? width : f.defaultWidth(time);
            out.add(new Chosen(f, new ReportPrinter.Column(f.title, w)));
        }
        return out;
    }

    private int defaultWidth(TimeFormat time) {
        if (!time.withPercent()) {
            return width;
        }
        return switch (this) {
            case ALLOCATED, IDLE, REPORTED -> 20;
            case DOWN, OVER, PLANNED_DOWN, PLANNED, USED, ENERGY -> 18;
            default -> width;
        };
    }

    boolean isUsage() {
        return switch (this) {
            case ALLOCATED, DOWN, IDLE, OVER, PLANNED_DOWN, REPORTED, PLANNED, USED, ENERGY -> true;
            default -> false;
        };
    }
}
