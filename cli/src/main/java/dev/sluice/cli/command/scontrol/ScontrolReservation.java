package dev.sluice.cli.command.scontrol;

import static dev.sluice.cli.command.scontrol.ScontrolCommand.PROG;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.BeginTime;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.CreateReservationRequest;
import dev.sluice.protocol.v1.DeleteReservationRequest;
import dev.sluice.protocol.v1.ReservationSpec;
import dev.sluice.protocol.v1.UpdateReservationRequest;
import java.io.PrintStream;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code scontrol create|update|delete reservation}, parsed as Slurm 22.05's scontrol parses them
 * and with its messages (each checked on the real cluster): {@code Reservation created: NAME},
 * {@code Reservation updated.}, {@code Error creating the reservation: ...}, and the errors of
 * scontrol itself ({@code scontrol: error: ... No reservation created.}). Times are resolved here
 * ({@code now+N} in seconds, {@code Duration} in minutes or {@code [D-]HH:MM:SS}); the controller
 * checks the rest.
 */
final class ScontrolReservation {
    /** What scontrol prints (standard output) before the controller's "Requested nodes are busy". */
    static final String BUSY_NOTE = "Note, unless nodes are directly requested a reservation must exist in a single"
            + " partition.\nIf no partition is requested the default partition is assumed.";

    /** What {@code slurm_update error:} says after most of scontrol's own refusals. */
    private static final String NO_ERROR = "No error";

    private ScontrolReservation() {}

    /** Whether {@code word} starts a reservation command ({@code res}, {@code reservation}, {@code ReservationName=}). */
    static boolean names(String word) {
        int eq = word.indexOf('=');
        String tag = eq < 0 ? word : word.substring(0, eq);
        return ScontrolCommand.tagIs(tag, "ReservationName", 3);
    }

    static int create(Invocation inv, List<String> args, PrintStream out, PrintStream err) {
        ReservationSpec.Builder spec = ReservationSpec.newBuilder();
        if (parse(inv, args, spec, err, "No reservation created.") != null) {
            return 1;
        }
        if (!spec.hasStartTime()) {
            err.println(PROG + ": error: A start time must be given.  No reservation created.");
            return 1;
        }
        if (!spec.hasEndTime() && !spec.hasDurationMinutes()) {
            err.println(PROG + ": error: An end time or duration must be given.  No reservation created.");
            return 1;
        }
        if (!spec.hasNodes()
                && !spec.hasNodeCount()
                && !spec.hasCoreCount()
                && spec.getLicenses().isEmpty()) {
            err.println(PROG + ": error: CoreCnt, Nodes, NodeCnt, BurstBuffer, Licenses or Watts must be specified."
                    + "  No reservation created.");
            return 1;
        }
        // An empty Users= or Accounts= (a script's unset $USER) names nobody, as none given.
        if (spec.getUsers().isEmpty() && spec.getAccounts().isEmpty()) {
            err.println(PROG + ": error: Either Users/Groups and/or Accounts must be specified."
                    + "  No reservation created.");
            return 1;
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        try {
            String name = client.get()
                    .call(ClientRequest.newBuilder()
                            .setCreateReservation(
                                    CreateReservationRequest.newBuilder().setSpec(spec)))
                    .getCreateReservation()
                    .getName();
            out.println("Reservation created: " + name);
            return 0;
        } catch (ControllerException e) {
            if (e.code() == ErrorCode.NODES_BUSY) {
                out.println(BUSY_NOTE);
            }
            err.println("Error creating the reservation: " + e.getMessage());
            return 1;
        }
    }

    static int update(Invocation inv, List<String> args, PrintStream out, PrintStream err) {
        ReservationSpec.Builder spec = ReservationSpec.newBuilder();
        String refused = parse(inv, args, spec, err, "No reservation update.");
        if (refused != null) {
            err.println("slurm_update error: " + refused);
            return 1;
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        try {
            client.get()
                    .call(ClientRequest.newBuilder()
                            .setUpdateReservation(
                                    UpdateReservationRequest.newBuilder().setSpec(spec)));
            out.println("Reservation updated.");
            return 0;
        } catch (ControllerException e) {
            err.println("Error updating the reservation: " + e.getMessage());
            err.println("slurm_update error: " + e.getMessage());
            return 1;
        }
    }

    /** {@code delete ReservationName=N} or {@code delete reservation N}. */
    static int delete(Invocation inv, List<String> args, PrintStream err) {
        String first = args.get(0);
        int eq = first.indexOf('=');
        String name;
        if (eq >= 0 && args.size() == 1) {
            name = first.substring(eq + 1);
        } else if (eq < 0 && args.size() == 2) {
            name = args.get(1);
        } else {
            err.println(PROG + ": error: Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'");
            return 1;
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        try {
            client.get()
                    .call(ClientRequest.newBuilder()
                            .setDeleteReservation(
                                    DeleteReservationRequest.newBuilder().setName(name)));
            return 0;
        } catch (ControllerException e) {
            err.println("delete_reservation " + first + ": " + e.getMessage());
            return 1;
        }
    }

    /**
     * Reads Key=Value words into {@code spec}; after printing scontrol's error, the error number's
     * text it leaves for {@code slurm_update error:} ("No error" for most, "Invalid time
     * specified" for a bad time, as Slurm 22.05's scontrol, compat 256), else null.
     */
    private static String parse(
            Invocation inv, List<String> args, ReservationSpec.Builder spec, PrintStream err, String nothing) {
        ZonedDateTime now = ZonedDateTime.now(inv.clock());
        boolean usersSeen = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            int eq = arg.indexOf('=');
            if (eq < 0) {
                if (i == 0 && names(arg)) {
                    continue; // "create res ..." names the entity, not a field
                }
                err.println(PROG + ": error: Unknown parameter " + arg + ".  " + nothing);
                return NO_ERROR;
            }
            String tag = arg.substring(0, eq).toLowerCase(Locale.ROOT);
            String val = arg.substring(eq + 1);
            if (tag.startsWith("user")) {
                // Users=, Users+= and Users-= are one parameter: a second is refused.
                if (usersSeen) {
                    err.println(PROG + ": error: Parameter " + arg + " specified more than once");
                    return NO_ERROR;
                }
                usersSeen = true;
            }
            switch (tag) {
                case "reservationname", "reservation", "res", "resv", "name" -> spec.setName(val);
                case "starttime" -> {
                    Long t = time(val, now, err);
                    if (t == null) {
                        err.println(PROG + ": error: Invalid start time " + arg + ".  " + nothing);
                        return ErrorCode.INVALID_TIME_VALUE.text();
                    }
                    spec.setStartTime(t);
                }
                case "endtime" -> {
                    Long t = time(val, now, err);
                    if (t == null) {
                        err.println(PROG + ": error: Invalid end time " + arg + ".  " + nothing);
                        return ErrorCode.INVALID_TIME_VALUE.text();
                    }
                    spec.setEndTime(t);
                }
                case "duration" -> {
                    long minutes;
                    try {
                        minutes = TimeLimit.parseMinutes(val);
                    } catch (IllegalArgumentException e) {
                        err.println(PROG + ": error: Invalid duration " + arg + ".  " + nothing);
                        return NO_ERROR;
                    }
                    spec.setDurationMinutes(minutes == TimeLimit.INFINITE ? (int) SlurmLimits.INFINITE : (int) minutes);
                }
                case "nodes", "nodelist" -> spec.setNodes(val);
                case "nodecnt", "nodecount" -> {
                    Integer n = count(val);
                    if (n == null) {
                        // Slurm 22.05's words, without the usual ending (compat 256).
                        err.println(PROG + ": error: Invalid node count " + val);
                        return NO_ERROR;
                    }
                    spec.setNodeCount(n);
                }
                case "corecnt", "corecount" -> {
                    // A count per node, CoreCnt=2,1 (Slurm 22.05, compat 258); empty items are
                    // skipped as scontrol's tokenizer skips them.
                    List<Integer> counts = new ArrayList<>();
                    for (String item : val.split(",")) {
                        if (item.isEmpty()) {
                            continue;
                        }
                        Integer n = count(item);
                        if (n == null) {
                            err.println(PROG + ": error: Invalid core count " + arg + ".  " + nothing);
                            return NO_ERROR;
                        }
                        counts.add(n);
                    }
                    if (counts.isEmpty()) {
                        err.println(PROG + ": error: Invalid core count " + arg + ".  " + nothing);
                        return NO_ERROR;
                    }
                    spec.setCoreCount(
                            counts.stream().mapToInt(Integer::intValue).sum());
                    spec.clearCoreCounts();
                    if (counts.size() > 1) {
                        spec.addAllCoreCounts(counts);
                    }
                }
                case "tres" -> {
                    if (!tres(val, spec, err)) {
                        return NO_ERROR;
                    }
                }
                case "partitionname", "partition" -> spec.setPartition(val);
                // Licenses=foo:2,bar (Li= and on: scontrol takes any prefix of two letters or
                // more); the controller checks them, empty clears them in an update.
                case "li", "lic", "lice", "licen", "licens", "license", "licenses" -> spec.setLicenses(val);
                case "users", "user" -> spec.setUsers(val);
                case "users+", "user+" -> spec.setUsersAdded(val);
                case "users-", "user-" -> spec.setUsersRemoved(val);
                case "accounts", "account" -> spec.setAccounts(val);
                case "accounts+", "account+" -> spec.setAccountsAdded(val);
                case "accounts-", "account-" -> spec.setAccountsRemoved(val);
                case "flags", "flags+", "flags-" -> {
                    // Flags+=A,B reads as Flags=+A,B and Flags-=A,B as Flags=-A,B: a sign
                    // holds for the items after it, and OVERLAP cannot be taken away.
                    String typed = tag.substring(5) + val;
                    boolean remove = false;
                    for (String item : typed.split(",")) {
                        remove = item.startsWith("-") || (remove && !item.startsWith("+"));
                        String bare = item.startsWith("-") || item.startsWith("+") ? item.substring(1) : item;
                        Optional<ReservationFlag> flag = ReservationFlag.parse(bare);
                        if (flag.isEmpty() || (remove && flag.get() == ReservationFlag.OVERLAP)) {
                            err.println(PROG + ": error: Error parsing flags " + typed + ".  " + nothing);
                            return NO_ERROR;
                        }
                        spec.addFlags((remove ? "-" : "") + bare.toUpperCase(Locale.ROOT));
                    }
                }
                default -> {
                    err.println(PROG + ": error: Unknown parameter " + arg + ".  " + nothing);
                    return NO_ERROR;
                }
            }
        }
        return null;
    }

    /**
     * {@code TRES=cpu=N,node=N}: Slurm 22.05 takes CPUs (as cores) and nodes only, and words
     * each bad item its own way (compat 258): one without a count is "invalid TRES", one whose
     * count is not a number "invalid TRES cpu value", another type "not supported".
     */
    private static boolean tres(String val, ReservationSpec.Builder spec, PrintStream err) {
        for (String item : val.split(",")) {
            int eq = item.indexOf('=');
            if (eq < 0) {
                err.println(PROG + ": error: invalid TRES '" + item + "'");
                return false;
            }
            String type = item.substring(0, eq);
            boolean cpu = type.equalsIgnoreCase("cpu");
            if (!cpu && !type.equalsIgnoreCase("node")) {
                err.println(PROG + ": error: TRES type '" + type + "' not supported with reservations");
                return false;
            }
            Integer n = count(item.substring(eq + 1));
            if (n == null) {
                err.println(PROG + ": error: invalid TRES " + type + " value '" + item.substring(eq + 1) + "'");
                return false;
            }
            if (cpu) {
                spec.setCoreCount(n).clearCoreCounts();
            } else {
                spec.setNodeCount(n);
            }
        }
        return true;
    }

    private static Long time(String val, ZonedDateTime now, PrintStream err) {
        try {
            return BeginTime.parse(val, now).getEpochSecond();
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return null;
        }
    }

    private static Integer count(String val) {
        try {
            int n = Integer.parseInt(val.strip());
            return n < 0 ? null : n;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
