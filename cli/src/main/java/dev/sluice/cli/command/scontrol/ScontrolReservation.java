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

    private ScontrolReservation() {}

    /** Whether {@code word} starts a reservation command ({@code res}, {@code reservation}, {@code ReservationName=}). */
    static boolean names(String word) {
        int eq = word.indexOf('=');
        String tag = eq < 0 ? word : word.substring(0, eq);
        return ScontrolCommand.tagIs(tag, "ReservationName", 3);
    }

    static int create(Invocation inv, List<String> args, PrintStream out, PrintStream err) {
        ReservationSpec.Builder spec = ReservationSpec.newBuilder();
        if (!parse(inv, args, spec, err, "No reservation created.", true)) {
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
        if (!spec.hasNodes() && !spec.hasNodeCount() && !spec.hasCoreCount()) {
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
        if (!parse(inv, args, spec, err, "No reservation update.", false)) {
            err.println("slurm_update error: No error");
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

    /** Reads Key=Value words into {@code spec}; false after printing scontrol's error. */
    private static boolean parse(
            Invocation inv,
            List<String> args,
            ReservationSpec.Builder spec,
            PrintStream err,
            String nothing,
            boolean create) {
        ZonedDateTime now = ZonedDateTime.now(inv.clock());
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            int eq = arg.indexOf('=');
            if (eq < 0) {
                if (i == 0 && names(arg)) {
                    continue; // "create res ..." names the entity, not a field
                }
                err.println(PROG + ": error: Unknown parameter " + arg + ".  " + nothing);
                return false;
            }
            String tag = arg.substring(0, eq).toLowerCase(Locale.ROOT);
            String val = arg.substring(eq + 1);
            switch (tag) {
                case "reservationname", "reservation", "res", "resv", "name" -> spec.setName(val);
                case "starttime" -> {
                    Long t = time(val, now, err);
                    if (t == null) {
                        err.println(PROG + ": error: Invalid start time " + arg + ".  " + nothing);
                        return false;
                    }
                    spec.setStartTime(t);
                }
                case "endtime" -> {
                    Long t = time(val, now, err);
                    if (t == null) {
                        err.println(PROG + ": error: Invalid end time " + arg + ".  " + nothing);
                        return false;
                    }
                    spec.setEndTime(t);
                }
                case "duration" -> {
                    long minutes;
                    try {
                        minutes = TimeLimit.parseMinutes(val);
                    } catch (IllegalArgumentException e) {
                        err.println(PROG + ": error: Invalid duration " + arg + ".  " + nothing);
                        return false;
                    }
                    spec.setDurationMinutes(minutes == TimeLimit.INFINITE ? (int) SlurmLimits.INFINITE : (int) minutes);
                }
                case "nodes", "nodelist" -> spec.setNodes(val);
                case "nodecnt", "nodecount" -> {
                    Integer n = count(val);
                    if (n == null) {
                        err.println(PROG + ": error: Invalid node count " + arg + ".  " + nothing);
                        return false;
                    }
                    spec.setNodeCount(n);
                }
                case "corecnt", "corecount" -> {
                    Integer n = count(val);
                    if (n == null) {
                        err.println(PROG + ": error: Invalid core count " + arg + ".  " + nothing);
                        return false;
                    }
                    spec.setCoreCount(n);
                }
                case "tres" -> {
                    if (!tres(val, spec, err)) {
                        return false;
                    }
                }
                case "partitionname", "partition" -> spec.setPartition(val);
                case "users", "user" -> spec.setUsers(val);
                case "accounts", "account" -> spec.setAccounts(val);
                case "flags" -> {
                    for (String item : val.split(",")) {
                        String bare = item.startsWith("-") ? item.substring(1) : item;
                        if (ReservationFlag.parse(bare).isEmpty()) {
                            err.println(PROG + ": error: Error parsing flags " + val + ".  " + nothing);
                            return false;
                        }
                        spec.addFlags(item.toUpperCase(Locale.ROOT));
                    }
                }
                default -> {
                    err.println(PROG + ": error: Unknown parameter " + arg + ".  " + nothing);
                    return false;
                }
            }
        }
        return true;
    }

    /** {@code TRES=cpu=N}: Slurm 22.05 takes CPUs (as cores) only. */
    private static boolean tres(String val, ReservationSpec.Builder spec, PrintStream err) {
        for (String item : val.split(",")) {
            int eq = item.indexOf('=');
            String type = eq < 0 ? item : item.substring(0, eq);
            if (!type.equalsIgnoreCase("cpu")) {
                err.println(PROG + ": error: TRES type '" + type + "' not supported with reservations");
                return false;
            }
            Integer n = eq < 0 ? null : count(item.substring(eq + 1));
            if (n == null) {
                err.println(PROG + ": error: Invalid TRES core count " + item);
                return false;
            }
            spec.setCoreCount(n);
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
