package dev.sluice.cli.command.scontrol;

import static dev.sluice.cli.command.scontrol.ScontrolCommand.PROG;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.common.slurm.PartitionState;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.WireStates;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.UpdatePartitionRequest;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;

/**
 * {@code scontrol update PartitionName=P Key=Value...}: State, MaxTime, DefaultTime, MaxNodes,
 * MinNodes, Hidden, parsed here as Slurm 22.05's scontrol parses them (its update_part.c), with
 * its messages; the controller answers for permission and the name ({@code slurm_update error:
 * ...}). Keys are abbreviated as Slurm allows ({@code MaxT=}, {@code St=}).
 */
final class ScontrolPartitionUpdate {
    private ScontrolPartitionUpdate() {}

    static int run(Invocation inv, List<String> args, PrintStream err) {
        UpdatePartitionRequest.Builder req = UpdatePartitionRequest.newBuilder();
        boolean named = false;
        int fields = 0;
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 0) {
                err.println(PROG + ": error: Invalid input: " + arg + "  Request aborted");
                return 1;
            }
            String tag = arg.substring(0, eq);
            String val = arg.substring(eq + 1);
            if (ScontrolCommand.tagIs(tag, "PartitionName", 2)) {
                req.setName(val);
                named = true;
            } else if (ScontrolCommand.tagIs(tag, "MaxTime", 4) || ScontrolCommand.tagIs(tag, "DefaultTime", 8)) {
                long minutes;
                try {
                    minutes = SlurmLimits.toUint32(TimeLimit.parseMinutes(val));
                } catch (IllegalArgumentException e) {
                    err.println(PROG + ": error: Invalid input " + arg);
                    return 1;
                }
                if (ScontrolCommand.tagIs(tag, "MaxTime", 4)) {
                    req.setMaxTime((int) minutes);
                } else {
                    req.setDefaultTime((int) minutes);
                }
            } else if (ScontrolCommand.tagIs(tag, "MaxNodes", 4) || ScontrolCommand.tagIs(tag, "MinNodes", 2)) {
                boolean max = ScontrolCommand.tagIs(tag, "MaxNodes", 4);
                Long n = nodes(val, max);
                if (n == null) {
                    err.println(PROG + ": error: Invalid numeric value \"" + val + "\" for "
                            + (max ? "MaxNodes" : "MinNodes") + ".");
                    return 1;
                }
                if (max) {
                    req.setMaxNodes(n.intValue());
                } else {
                    req.setMinNodes(n.intValue());
                }
            } else if (ScontrolCommand.tagIs(tag, "Hidden", 1)) {
                if (!val.equalsIgnoreCase("YES") && !val.equalsIgnoreCase("NO")) {
                    err.println(PROG + ": error: Invalid input: " + arg);
                    err.println(PROG + ": error: Acceptable Hidden values are YES and NO");
                    return 1;
                }
                req.setHidden(val.equalsIgnoreCase("YES"));
            } else if (ScontrolCommand.tagIs(tag, "State", 2)) {
                Optional<PartitionState> state = state(val);
                if (state.isEmpty()) {
                    err.println(PROG + ": error: Invalid input: " + arg);
                    err.println(PROG + ": error: Acceptable State values are UP, DOWN, DRAIN and INACTIVE");
                    return 1;
                }
                req.setState(WireStates.toWire(state.get()));
            } else {
                // Slurm's error() adds a line break to a text that ends with one.
                err.println(PROG + ": error: Update of this parameter is not supported: " + arg + "\n");
                err.println(PROG + ": error: Request aborted");
                return 1;
            }
            fields++;
        }
        if (!named) {
            err.println(PROG + ": error: PartitionName must be given.");
            return 1;
        }
        if (fields <= 1) {
            err.println(PROG + ": error: No changes specified");
            return 1;
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        try {
            client.get().call(ClientRequest.newBuilder().setUpdatePartition(req));
            return 0;
        } catch (ControllerException e) {
            err.println("slurm_update error: " + e.getMessage());
            return 1;
        }
    }

    /** Slurm takes any abbreviation of a state, first letter on: {@code D} is DOWN, {@code DR} DRAIN. */
    private static Optional<PartitionState> state(String val) {
        // Slurm's order: the first match of an abbreviation wins.
        for (PartitionState s :
                List.of(PartitionState.INACTIVE, PartitionState.DOWN, PartitionState.UP, PartitionState.DRAIN)) {
            if (ScontrolCommand.tagIs(val, s.name(), 1)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** A node count; UNLIMITED and INFINITE for MaxNodes. Null when it is not one. */
    private static Long nodes(String val, boolean max) {
        if (max && (val.equalsIgnoreCase("UNLIMITED") || val.equalsIgnoreCase("INFINITE"))) {
            return SlurmLimits.INFINITE;
        }
        if (!val.matches("[0-9]{1,9}")) {
            return null;
        }
        return Long.parseLong(val);
    }
}
