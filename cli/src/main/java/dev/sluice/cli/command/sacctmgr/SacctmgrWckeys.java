package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.cli.format.FieldTable;
import dev.sluice.cli.format.FormatItem;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ListWckeysRequest;
import dev.sluice.protocol.v1.WckeyEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * {@code sacctmgr show|list wckey(s)}: the workload characterization keys accounting keeps, one
 * row per (name, cluster, user), as Slurm 22.05 lists them (compat 207, 208). The conditions
 * {@code names=}/{@code wckeys=} (or bare names), {@code users=}, {@code clusters=},
 * {@code ids=} and {@code withdeleted} narrow the listing; {@code start=}/{@code end=} bound
 * usage, which this listing does not show, so they change nothing. {@code format=} picks among
 * wckey's own four columns, not sacctmgr's common ones.
 */
final class SacctmgrWckeys {
    /** wckey's columns: its format names (the shortest prefix each takes), titles and widths. */
    enum Field {
        NAME("WCKey", 10),
        CLUSTER("Cluster", 10),
        ID("ID", 6),
        USER("User", 10);

        final String title;
        final int width;

        Field(String title, int width) {
            this.title = title;
            this.width = width;
        }

        static Field of(String name) {
            if (ShowConditions.is(name, "WCKey", 1) || ShowConditions.is(name, "Name", 1)) {
                return NAME;
            }
            if (ShowConditions.is(name, "Cluster", 2)) {
                return CLUSTER;
            }
            if (ShowConditions.is(name, "ID", 1)) {
                return ID;
            }
            if (ShowConditions.is(name, "User", 1)) {
                return USER;
            }
            throw new IllegalArgumentException("Unknown field '" + name + "'");
        }
    }

    /** A column: a field and its width ({@code %N}, negative to the left, or the field's). */
    record Column(Field field, int width) {}

    static final List<String> DEFAULT_FORMAT = List.of("WCKey", "Cluster", "User");

    private final Session s;

    SacctmgrWckeys(Session s) {
        this.s = s;
    }

    /** Whether a word names the wckey entity (any prefix of it). */
    static boolean names(String word) {
        return ShowConditions.is(word, "WCKeys", 1);
    }

    /** What the words after {@code show wckey} ask for. */
    record Conditions(ListWckeysRequest query, List<Column> columns) {}

    /**
     * @throws IllegalArgumentException with Slurm's message for an unknown condition, field or
     *     id
     */
    static Conditions parse(List<String> words) {
        ListWckeysRequest.Builder q = ListWckeysRequest.newBuilder();
        List<String> format = new ArrayList<>();
        for (String w : words) {
            int eq = w.indexOf('=');
            if (eq < 0) {
                if (ShowConditions.is(w, "WithDeleted", 5)) {
                    q.setWithDeleted(true);
                } else if (!ShowConditions.is(w, "where", 5) && !ShowConditions.is(w, "set", 3)) {
                    q.addAllNames(SacctmgrSpecs.split(w));
                }
                continue;
            }
            String key = w.substring(0, eq);
            String value = w.substring(eq + 1);
            if (ShowConditions.is(key, "WCKeys", 3) || ShowConditions.is(key, "Names", 3)) {
                q.addAllNames(SacctmgrSpecs.split(value));
            } else if (ShowConditions.is(key, "Clusters", 3)) {
                q.addAllClusters(SacctmgrSpecs.split(value));
            } else if (ShowConditions.is(key, "Format", 1)) {
                // An empty format= is a field without a name.
                format.addAll(value.isEmpty() ? List.of("") : SacctmgrSpecs.split(value));
            } else if (ShowConditions.is(key, "Ids", 1)) {
                for (String id : SacctmgrSpecs.split(value)) {
                    q.addIds(id(id));
                }
            } else if (ShowConditions.is(key, "Users", 1)) {
                q.addAllUsers(SacctmgrSpecs.split(value));
            } else if (!ShowConditions.is(key, "Start", 1) && !ShowConditions.is(key, "End", 1)) {
                throw new IllegalArgumentException(" Unknown condition: " + w);
            }
        }
        List<Column> columns = new ArrayList<>();
        for (String item : format.isEmpty() ? DEFAULT_FORMAT : format) {
            FormatItem parsed = FormatItem.parse(item);
            Field f = Field.of(parsed.name());
            columns.add(new Column(f, parsed.width() != 0 ? parsed.width() : f.width));
        }
        return new Conditions(q.build(), List.copyOf(columns));
    }

    private static int id(String word) {
        try {
            return Integer.parseUnsignedInt(word);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("sacctmgr: error: Invalid value for WCKeyID (" + word + ")");
        }
    }

    int list(List<String> words) throws AccountingClient.AccountingException {
        Conditions c = parse(words);
        List<WckeyEntry> rows;
        try {
            rows = s.client
                    .call(DbdRequest.newBuilder().setListWckeys(c.query()))
                    .getListedWckeys()
                    .getWckeysList();
        } catch (AccountingClient.AccountingException e) {
            if (e.code() != ErrorCode.ACCESS_DENIED.number()) {
                throw e;
            }
            // slurmdbd lists wckeys to operators only.
            return s.noPrivilege();
        }
        FieldTable table = new FieldTable(
                c.columns().stream()
                        .map(col -> new FieldTable.Column(col.field().title, col.width()))
                        .toList(),
                s.mode);
        if (s.header) {
            table.header().forEach(s.out::println);
        }
        for (WckeyEntry w : rows) {
            Function<Field, String> value = f -> value(w, f);
            s.out.println(table.row(
                    c.columns().stream().map(col -> value.apply(col.field())).toList()));
        }
        return 0;
    }

    static String value(WckeyEntry w, Field f) {
        return switch (f) {
            case NAME -> w.getName();
            case CLUSTER -> w.getCluster();
            case USER -> w.getUser();
            case ID -> Integer.toUnsignedString(w.getId());
        };
    }
}
