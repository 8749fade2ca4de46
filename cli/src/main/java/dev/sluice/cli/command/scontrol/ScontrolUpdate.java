package dev.sluice.cli.command.scontrol;

import static dev.sluice.cli.command.scontrol.ScontrolCommand.PROG;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.common.slurm.NodeStateRequest;
import dev.sluice.protocol.WireStates;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.UpdateNodeRequest;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** {@code scontrol update NodeName=... State=... Reason=...}; other records are not updatable yet. */
final class ScontrolUpdate {
    private ScontrolUpdate() {}

    static int run(Invocation inv, List<String> args, PrintStream err) {
        String nodes = null;
        String state = null;
        String stateArg = null;
        String reason = null;
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                err.println("Invalid input: " + arg);
                err.println("Request aborted");
                return 1;
            }
            String key = arg.substring(0, eq).toLowerCase(Locale.ROOT);
            String value = unquote(arg.substring(eq + 1));
            switch (key) {
                case "nodename", "node" -> nodes = value;
                case "state" -> {
                    state = value;
                    stateArg = arg;
                }
                case "reason" -> reason = value;
                default -> {
                    if (nodes == null) {
                        err.println(PROG + ": error: update of " + arg.substring(0, eq)
                                + " records is not supported by Sluice yet");
                    } else {
                        err.println("Update of " + arg.substring(0, eq) + " is not supported by Sluice yet");
                        err.println("Request aborted");
                    }
                    return 1;
                }
            }
        }
        if (nodes == null) {
            err.println("No valid entity in update command");
            err.println("Input line must include \"NodeName\", \"PartitionName\", \"Reservation\", \"JobId\", etc.");
            return 1;
        }
        Optional<NodeStateRequest> asked = Optional.empty();
        if (state != null) {
            asked = NodeStateRequest.parse(state);
            if (asked.isEmpty()) {
                err.println("Invalid input: " + stateArg);
                err.println("Request aborted");
                err.println("Valid states are: NoResp DRAIN FAIL FUTURE RESUME POWER_DOWN POWER_UP UNDRAIN");
                err.println("Not all states are valid given a node's prior state");
                return 1;
            }
            NodeStateRequest s = asked.get();
            if ((s == NodeStateRequest.DOWN || s == NodeStateRequest.DRAIN || s == NodeStateRequest.FAIL)
                    && (reason == null || reason.isEmpty())) {
                err.println("You must specify a reason when DOWNING or DRAINING a node. Request denied");
                return 1;
            }
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        UpdateNodeRequest.Builder req = UpdateNodeRequest.newBuilder().setNodeNames(nodes);
        asked.ifPresent(s -> req.setState(WireStates.toWire(s)));
        if (reason != null) {
            req.setReason(reason);
        }
        try {
            client.get().call(ClientRequest.newBuilder().setUpdateNode(req));
            return 0;
        } catch (ControllerException e) {
            err.println("slurm_update error: " + e.getMessage());
            return 1;
        }
    }

    // Interactive input and scripts often keep the quotes: Reason="bad gpu".
    private static String unquote(String v) {
        if (v.length() >= 2 && ((v.startsWith("\"") && v.endsWith("\"")) || (v.startsWith("'") && v.endsWith("'")))) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }
}
