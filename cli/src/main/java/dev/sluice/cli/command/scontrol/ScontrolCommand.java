package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.ParsedOption;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code scontrol}: options, then a command word ({@code show}, {@code update}, {@code ping})
 * and its arguments; options may also come after the words. Command words are case-insensitive
 * and not abbreviated, entity words may be ({@code show part}). Exit status 1 on any error.
 */
public final class ScontrolCommand implements Command {
    static final String PROG = "scontrol";

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, ScontrolOptions.TABLE, inv, err);
        if (line.isEmpty()) {
            return 1;
        }
        Getopt.Result parsed = line.get();
        boolean oneLiner = false;
        boolean details = false;
        for (ParsedOption o : parsed.options()) {
            switch (o.key()) {
                case "help", "usage" -> {
                    out.print(ScontrolOptions.HELP);
                    return 0;
                }
                case "version" -> {
                    out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                    return 0;
                }
                case "oneliner" -> oneLiner = true;
                case "details" -> details = true;
                // These change nothing Sluice shows.
                case "all", "federation", "hide", "local", "quiet", "sibling", "verbose" -> {}
                default -> throw new IllegalStateException("unhandled scontrol option " + o.key());
            }
        }
        List<String> words = parsed.operands();
        if (words.isEmpty()) {
            err.println(PROG + ": error: interactive mode is not supported by Sluice; give a command");
            return 1;
        }
        String keyword = words.get(0).toLowerCase(Locale.ROOT);
        List<String> rest = words.subList(1, words.size());
        return switch (keyword) {
            case "show" -> new ScontrolShow(inv, out, err, oneLiner, details).run(rest);
            case "update" -> update(inv, rest, err);
            case "hold", "uhold", "release" -> ScontrolJobUpdate.holdOrRelease(inv, keyword, rest, err);
            case "requeue", "requeuehold", "suspend", "resume" ->
                ScontrolJobUpdate.requeueOrSuspend(inv, keyword, rest, err);
            case "write" -> ScontrolWrite.run(inv, rest, out, err);
            case "create" -> ScontrolNodeAdmin.create(inv, rest, err);
            case "delete" -> ScontrolNodeAdmin.delete(inv, rest, err);
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

    /**
     * {@code scontrol update}: what is updated is told by a tag anywhere on the line, JobId (or
     * JobName) first, then NodeName, then PartitionName, as Slurm's scontrol looks for them.
     */
    private static int update(Invocation inv, List<String> args, PrintStream err) {
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
            if (tagIs(tag, "NodeName", 3)) {
                node = true;
            } else if (tagIs(tag, "PartitionName", 3)) {
                partition = true;
            } else if (tagIs(tag, "JobId", 3) || tagIs(tag, "JobNAME", 3)) {
                job = true;
            }
        }
        if (job) {
            return ScontrolJobUpdate.update(inv, args, err);
        }
        if (!node && partition) {
            return ScontrolPartitionUpdate.run(inv, args, err);
        }
        return ScontrolUpdate.run(inv, args, err);
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
