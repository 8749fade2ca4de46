package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.cli.command.sacct.SacctTimes;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.protocol.v1.AccountedReservation;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ReservationQuery;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * {@code sacctmgr show|list reservation(s)}: the reservations accounting was sent, one row per
 * stretch of each one's history, deleted ones included (Slurm 22.05's reservation_functions.c).
 * A row is listed when its window overlaps [start, end]: {@code start=} alone ends the window
 * now, {@code end=} alone opens it at the epoch, neither lists every row. Without
 * {@code clusters=}, the local cluster's.
 */
final class SacctmgrReservations {
    static final String DEFAULT_FORMAT = "Cluster,Name%15,TRES%30,TimeStart,TimeEnd,UnusedWall";

    private final Session s;

    SacctmgrReservations(Session s) {
        this.s = s;
    }

    /** Whether a word names the reservation entity ({@code res} is too short in Slurm). */
    static boolean names(String word) {
        return ShowConditions.is(word, "Reservations", 4);
    }

    /** What the words after {@code show reservation} ask for. */
    record Conditions(ReservationQuery query, List<Long> ids, List<String> nodes, List<PrintField.Column> columns) {
        /** Whether a row passes the conditions the query does not apply (ids=, nodes=). */
        boolean selects(AccountedReservation r) {
            if (!ids.isEmpty() && !ids.contains(Integer.toUnsignedLong(r.getId()))) {
                return false;
            }
            return nodes.isEmpty()
                    || (!r.getNodes().isEmpty()
                            && HostList.expand(r.getNodes()).stream().anyMatch(nodes::contains));
        }
    }

    /**
     * @param localCluster the cluster listed without {@code clusters=}
     * @throws IllegalArgumentException with Slurm's message for an unknown condition, field or
     *     time
     */
    static Conditions parse(List<String> words, ZonedDateTime now, String localCluster) {
        ReservationQuery.Builder q = ReservationQuery.newBuilder();
        List<String> format = new ArrayList<>();
        List<String> clusters = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        List<String> nodes = new ArrayList<>();
        Instant start = null;
        Instant end = null;
        for (String w : words) {
            int eq = w.indexOf('=');
            if (eq < 0) {
                if (!ShowConditions.is(w, "where", 5)) {
                    q.addAllNames(SacctmgrSpecs.split(w));
                }
                continue;
            }
            String key = w.substring(0, eq);
            String value = w.substring(eq + 1);
            if (ShowConditions.is(key, "Clusters", 1)) {
                clusters.addAll(SacctmgrSpecs.split(value));
            } else if (ShowConditions.is(key, "End", 1)) {
                end = time(value, now);
            } else if (ShowConditions.is(key, "Format", 1)) {
                format.addAll(SacctmgrSpecs.split(value));
            } else if (ShowConditions.is(key, "Ids", 1)) {
                for (String id : SacctmgrSpecs.split(value)) {
                    ids.add((long) SacctmgrSpecs.count(id, "ID"));
                }
            } else if (ShowConditions.is(key, "Names", 2)) {
                q.addAllNames(SacctmgrSpecs.split(value));
            } else if (ShowConditions.is(key, "Nodes", 2)) {
                nodes.addAll(HostList.expand(value));
            } else if (ShowConditions.is(key, "Start", 1)) {
                start = time(value, now);
            } else {
                throw new IllegalArgumentException(" Unknown condition: " + w + "\n Use keyword 'set' to modify value");
            }
        }
        List<PrintField.Column> columns =
                format.isEmpty() ? PrintField.parse(DEFAULT_FORMAT, false) : PrintField.parse(format, false);
        if (start != null) {
            q.setStart(start.getEpochSecond()).setEnd(end != null ? end.getEpochSecond() : now.toEpochSecond());
        } else {
            q.setStart(0).setEnd(end != null ? end.getEpochSecond() : Long.MAX_VALUE);
        }
        q.addAllClusters(clusters.isEmpty() && localCluster != null ? List.of(localCluster) : clusters);
        return new Conditions(q.build(), List.copyOf(ids), List.copyOf(nodes), columns);
    }

    int list(List<String> words) throws AccountingClient.AccountingException {
        ZonedDateTime now = ZonedDateTime.now(s.inv.clock());
        Conditions c = parse(words, now, s.conf == null ? null : s.conf.clusterName());
        List<AccountedReservation> rows = s.client
                .call(DbdRequest.newBuilder().setQueryReservations(c.query()))
                .getReservations()
                .getReservationsList();
        List<Function<PrintField, String>> printed = new ArrayList<>();
        for (AccountedReservation r : rows) {
            if (c.selects(r)) {
                printed.add(f -> value(r, f, now));
            }
        }
        SacctmgrShow.print(s, c.columns(), printed);
        return 0;
    }

    static String value(AccountedReservation r, PrintField f, ZonedDateTime now) {
        return switch (f.kind()) {
            case CLUSTER -> r.getCluster();
            case NAME -> r.getName();
            case ID -> Integer.toUnsignedString(r.getId());
            case TRES -> r.getTres();
            case FLAGS -> r.getFlags();
            case NODENAME -> r.getNodes();
            // The associations it was made for, by id.
            case ASSOC_NAME ->
                String.join(
                        ",",
                        r.getAssocIdsList().stream().map(Long::toUnsignedString).toList());
            case TIMESTART -> SlurmTimestamp.format(Instant.ofEpochSecond(r.getStartTime()), now.getZone());
            case TIMEEND -> SlurmTimestamp.format(Instant.ofEpochSecond(r.getEndTime()), now.getZone());
            case UNUSED -> String.format(Locale.ROOT, "%f", r.getUnusedWall());
            default -> null;
        };
    }

    private static Instant time(String value, ZonedDateTime now) {
        try {
            return SacctTimes.parsePast(value, now);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid time specification (pos=0): " + value);
        }
    }
}
