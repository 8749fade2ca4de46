package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.GetoptException;
import dev.sluice.cli.getopt.ParsedOption;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * {@code scontrol}: options, then a command word ({@code show}, {@code update}, {@code ping})
 * and its arguments; options may also come after the words. Command words are case-insensitive
 * and not abbreviated, entity words may be ({@code show part}). Exit status 1 on any error.
 */
public final class ScontrolCommand implements Command {
    static final String PROG = "scontrol";

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Getopt.Result parsed;
        Options opts = new Options();
        try {
            parsed = Getopt.parse(PROG, ScontrolOptions.TABLE, inv.args());
        } catch (GetoptException e) {
            // scontrol acts on each option as getopt returns it: those before the bad one
            // have acted (-h, -V, -M, -u may end it) before getopt's complaint.
            OptionalInt done = opts.apply(e.before(), inv, out, err);
            if (done.isPresent()) {
                return done.getAsInt();
            }
            CommandSupport.usageError(e, PROG, err);
            return 1;
        }
        OptionalInt done = opts.apply(parsed.options(), inv, out, err);
        if (done.isPresent()) {
            return done.getAsInt();
        }
        boolean quiet = opts.quiet;
        ShowFlags flags = new ShowFlags(opts.oneLiner, opts.all, quiet, opts.verbose, opts.details);
        PrintStream quietErr = QuietErrors.of(err, quiet);
        List<String> words = parsed.operands();
        if (words.isEmpty()) {
            err.println(PROG + ": error: interactive mode is not supported by Sluice; give a command");
            return 1;
        }
        String keyword = words.get(0).toLowerCase(Locale.ROOT);
        List<String> rest = words.subList(1, words.size());
        return switch (keyword) {
            case "show" -> new ScontrolShow(inv, out, err, flags).run(rest);
            case "update" -> update(inv, rest, out, err, quiet);
            case "hold", "uhold", "release" -> ScontrolJobUpdate.holdOrRelease(inv, keyword, rest, quietErr);
            case "requeue", "requeuehold", "suspend", "resume" ->
                ScontrolJobUpdate.requeueOrSuspend(inv, keyword, rest, quietErr);
            case "top" -> ScontrolJobUpdate.top(inv, rest, quietErr);
            case "write" -> ScontrolWrite.run(inv, rest, out, err);
            case "create" ->
                !rest.isEmpty() && ScontrolReservation.names(rest.get(0))
                        ? ScontrolReservation.create(inv, rest, out, err)
                        : ScontrolNodeAdmin.create(inv, rest, err);
            case "delete" ->
                !rest.isEmpty() && ScontrolReservation.names(rest.get(0))
                        ? ScontrolReservation.delete(inv, rest, err)
                        : ScontrolNodeAdmin.delete(inv, rest, err);
            case "reconfigure" -> ScontrolNodeAdmin.reconfigure(inv, err);
            case "ping" -> ping(inv, out, err);
            case "token" -> ScontrolToken.run(inv, rest, out, err);
            case "help" -> {
                out.print(ScontrolOptions.HELP);
                yield 0;
            }
            case "version" -> {
                out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                yield 0;
            }
            default -> {
                err.println("invalid keyword: " + words.get(0));
                yield 1;
            }
        };
    }

    /** What the options set, taken in command-line order as scontrol's getopt loop takes them. */
    private static final class Options {
        boolean oneLiner;
        boolean details;
        boolean all;
        boolean quiet;
        boolean verbose;

        /** The exit status when an option ends scontrol ({@code -h}, {@code -V}, a bad {@code -M} or {@code -u}). */
        OptionalInt apply(List<ParsedOption> options, Invocation inv, PrintStream out, PrintStream err) {
            for (ParsedOption o : options) {
                switch (o.key()) {
                    case "help", "usage" -> {
                        out.print(ScontrolOptions.HELP);
                        return OptionalInt.of(0);
                    }
                    case "version" -> {
                        out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                        return OptionalInt.of(0);
                    }
                    case "clusters" -> {
                        if (!clusters(o.value(), CommandSupport.clusterName(inv), err)) {
                            return OptionalInt.of(1);
                        }
                    }
                    case "uid" -> {
                        if (!knownUser(inv, o.value())) {
                            // Slurm exits with its exit code so far, which is still 0.
                            err.println(PROG + ": error: --uid=\"" + o.value() + "\" invalid");
                            return OptionalInt.of(0);
                        }
                    }
                    case "oneliner" -> oneLiner = true;
                    case "all" -> all = true;
                    case "hide" -> all = false;
                    // -Q and -v set one flag: the last one wins.
                    case "quiet" -> {
                        quiet = true;
                        verbose = false;
                    }
                    case "verbose" -> {
                        quiet = false;
                        verbose = true;
                    }
                    // Sluice has no federation and no FUTURE-state filter of its own yet; the
                    // extra fields of -d are show job's (see docs/commands.md).
                    case "details" -> details = true;
                    case "federation", "future", "local", "sibling" -> {}
                    default -> throw new IllegalStateException("unhandled scontrol option " + o.key());
                }
            }
            return OptionalInt.empty();
        }
    }

    /**
     * {@code scontrol update}: what is updated is told by a tag anywhere on the line, JobId (or
     * JobName) first, then NodeName, then PartitionName, as Slurm's scontrol looks for them.
     */
    private static int update(Invocation inv, List<String> args, PrintStream out, PrintStream err, boolean quiet) {
        boolean reservation = false;
        boolean job = false;
        boolean node = false;
        boolean partition = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            int eq = arg.indexOf('=');
            String tag = eq < 0 ? arg : arg.substring(0, eq);
            if (eq < 0) {
                i++; // a tag without '=' takes the next word as its value
            }
            if (tagIs(tag, "ReservationName", 3)) {
                reservation = true;
            } else if (tagIs(tag, "NodeName", 3)) {
                node = true;
            } else if (tagIs(tag, "PartitionName", 3)) {
                partition = true;
            } else if (tagIs(tag, "JobId", 3) || tagIs(tag, "JobNAME", 3)) {
                job = true;
            }
        }
        if (reservation && !job && !node) {
            return ScontrolReservation.update(inv, args, out, err);
        }
        if (job) {
            return ScontrolJobUpdate.update(inv, args, err, quiet);
        }
        if (!node && partition) {
            return ScontrolPartitionUpdate.run(inv, args, err);
        }
        return ScontrolUpdate.run(inv, args, err);
    }

    /**
     * {@code -M}: Sluice's cluster is the only one in its database. Each name it does not know
     * is Slurm's error (names compared as the database does, case aside; {@code all} is this
     * one); none known at all ends scontrol with status 1.
     */
    static boolean clusters(String value, String own, PrintStream err) {
        List<String> names = java.util.Arrays.stream(value.split(","))
                .filter(n -> !n.isEmpty())
                .toList();
        boolean any = false;
        for (String name : names.isEmpty() ? List.of("") : names) {
            if (name.equalsIgnoreCase(own) || name.equalsIgnoreCase("all")) {
                any = true;
            } else {
                err.println(PROG + ": error: No cluster '" + name + "' known by database.");
            }
        }
        if (!any) {
            err.println(PROG + ": error: '" + value + "' can't be reached now, or it is an invalid entry for --cluster."
                    + "  Use 'sacctmgr list clusters' to see available clusters.");
        }
        return any;
    }

    /** {@code -u}: a user name or uid this host knows (Slurm's uid_from_string). */
    private static boolean knownUser(Invocation inv, String value) {
        if (inv.users().uid(value).isPresent()) {
            return true;
        }
        return value.matches("[0-9]{1,10}")
                && inv.users().userName(Long.parseLong(value)).isPresent();
    }

    /**
     * Whether {@code tag} names {@code name} as Slurm's scontrol compares them
     * ({@code xstrncasecmp(tag, name, MAX(strlen(tag), least))}): case aside, an abbreviation
     * of at least {@code least} characters.
     */
    static boolean tagIs(String tag, String name, int least) {
        return tag.length() >= least
                && tag.length() <= name.length()
                && name.regionMatches(true, 0, tag, 0, tag.length());
    }

    /** Asks each configured controller in turn, as {@code scontrol ping} does. */
    static int ping(Invocation inv, PrintStream out, PrintStream err) {
        var client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        ControllerClient c = client.get();
        boolean primaryDown = false;
        for (int i = 0; i < c.controllers().size(); i++) {
            var target = c.controllers().get(i);
            boolean up;
            try {
                c.callOne(
                        target,
                        dev.sluice.protocol.v1.ClientRequest.newBuilder()
                                .setPing(dev.sluice.protocol.v1.PingRequest.getDefaultInstance()));
                up = true;
            } catch (ControllerException e) {
                // A controller that refused to authenticate us still answered: it is up.
                up = e.code() == dev.sluice.common.error.ErrorCode.AUTHENTICATION_ERROR;
            }
            String role = i == 0 ? "primary" : "backup";
            out.println("Slurmctld(" + role + ") at " + target.name() + " is " + (up ? "UP" : "DOWN"));
            if (i == 0 && !up) {
                primaryDown = true;
            }
        }
        if (primaryDown) {
            out.println("*****************************************");
            out.println("** RESTORE SLURMCTLD DAEMON TO SERVICE **");
            out.println("*****************************************");
            return 1;
        }
        return 0;
    }
}
