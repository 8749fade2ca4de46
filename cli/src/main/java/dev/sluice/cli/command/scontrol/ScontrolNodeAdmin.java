package dev.sluice.cli.command.scontrol;

import static dev.sluice.cli.command.scontrol.ScontrolCommand.PROG;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.CreateNodeRequest;
import dev.sluice.protocol.v1.DeleteNodeRequest;
import dev.sluice.protocol.v1.ReconfigureRequest;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code scontrol create NodeName=...}, {@code scontrol delete NodeName=...} (Slurm 22.05's
 * dynamic nodes) and {@code scontrol reconfigure}. The node line is sent as typed; the controller
 * reads it with slurm.conf's own parser.
 */
final class ScontrolNodeAdmin {
    private ScontrolNodeAdmin() {}

    static int create(Invocation inv, List<String> args, PrintStream err) {
        if (args.isEmpty() || !args.get(0).toLowerCase(Locale.ROOT).startsWith("nodename=")) {
            err.println(PROG + ": error: Invalid creation entity: " + (args.isEmpty() ? "" : args.get(0)));
            return 1;
        }
        return call(
                inv,
                err,
                "Error creating node(s)",
                ClientRequest.newBuilder()
                        .setCreateNode(CreateNodeRequest.newBuilder().setNodeLine(String.join(" ", args))));
    }

    static int delete(Invocation inv, List<String> args, PrintStream err) {
        String names = null;
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq > 0 && arg.substring(0, eq).equalsIgnoreCase("NodeName")) {
                names = arg.substring(eq + 1);
            }
        }
        if (names == null || args.size() != 1) {
            err.println(PROG + ": error: Invalid deletion entity: " + String.join(" ", args));
            return 1;
        }
        return call(
                inv,
                err,
                "Error deleting node(s)",
                ClientRequest.newBuilder()
                        .setDeleteNode(DeleteNodeRequest.newBuilder().setNodeNames(names)));
    }

    static int reconfigure(Invocation inv, PrintStream err) {
        return call(
                inv,
                err,
                "slurm_reconfigure error",
                ClientRequest.newBuilder().setReconfigure(ReconfigureRequest.getDefaultInstance()));
    }

    private static int call(Invocation inv, PrintStream err, String what, ClientRequest.Builder request) {
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        try {
            client.get().call(request);
            return 0;
        } catch (ControllerException e) {
            err.println(what + ": " + e.getMessage());
            return 1;
        }
    }
}
