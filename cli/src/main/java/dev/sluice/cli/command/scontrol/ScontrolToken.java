package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GenerateTokenRequest;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code scontrol token [username=NAME] [lifespan=SECONDS]}: asks the controller (which holds
 * the JWT key) for a {@code SLURM_JWT} and prints it as {@code SLURM_JWT=...}, ready for
 * {@code export}. Any failure prints only Slurm's "Error fetching token" (the controller logs why).
 */
final class ScontrolToken {
    private ScontrolToken() {}

    static int run(Invocation inv, List<String> args, PrintStream out, PrintStream err) {
        GenerateTokenRequest.Builder request = GenerateTokenRequest.newBuilder();
        for (String arg : args) {
            String lower = arg.toLowerCase(Locale.ROOT);
            if (lower.startsWith("lifespan=")) {
                long seconds;
                try {
                    seconds = Long.parseLong(arg.substring(9).strip());
                } catch (NumberFormatException e) {
                    seconds = -1;
                }
                if (seconds <= 0) {
                    err.println("Invalid lifespan value: " + arg.substring(9));
                    return 1;
                }
                request.setLifespanSeconds(seconds);
            } else if (lower.startsWith("username=")) {
                request.setUserName(arg.substring(9));
            } else {
                err.println("Invalid option: `" + arg + "`");
                return 1;
            }
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, ScontrolCommand.PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        try {
            String token = client.get()
                    .call(ClientRequest.newBuilder().setGenerateToken(request))
                    .getGenerateToken()
                    .getToken();
            out.println("SLURM_JWT=" + token);
            return 0;
        } catch (ControllerException e) {
            // All Slurm 22.05 prints, whatever the reason (observed).
            err.println("Error fetching token");
            return 1;
        }
    }
}
