package dev.sluice.cli.command.scontrol;

import static dev.sluice.cli.command.scontrol.ScontrolCommand.PROG;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ConfigEntry;
import dev.sluice.protocol.v1.ConfigSection;
import dev.sluice.protocol.v1.GetConfigRequest;
import dev.sluice.protocol.v1.GetConfigResponse;
import java.io.PrintStream;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code scontrol show config}: Slurm's header, the controller's settings as {@code Key = Value}
 * lines with the key padded to 23 columns, the sections it adds (each after a blank line under
 * its title), then a blank line and the controllers' ping status. Times print in the command's
 * zone; HASH_VAL says whether this command reads the configuration the controller runs.
 */
final class ShowConfigCommand {

    private ShowConfigCommand() {}

    static int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        GetConfigResponse answer;
        try {
            answer = client.get()
                    .call(ClientRequest.newBuilder().setGetConfig(GetConfigRequest.getDefaultInstance()))
                    .getGetConfig();
        } catch (ControllerException e) {
            err.println("slurm_load_ctl_conf error: " + e.getMessage());
            return 1;
        }
        out.println("Configuration data as of "
                + SlurmTimestamp.format(inv.clock().instant(), inv.clock().getZone()));
        for (ConfigEntry e : answer.getEntriesList()) {
            String value;
            if (e.getTime() != 0) {
                value = SlurmTimestamp.format(
                        Instant.ofEpochSecond(e.getTime()), inv.clock().getZone());
            } else if (e.getKey().equals(ShowConfig.HASH_VAL)) {
                value = ourHash(inv)
                        .map(h -> ShowConfig.compareHash(h, e.getValue()))
                        .orElse(e.getValue());
            } else {
                value = e.getValue();
            }
            line(out, e.getKey(), value);
        }
        for (ConfigSection section : answer.getSectionsList()) {
            out.println();
            out.println(section.getTitle());
            section.getEntriesList().forEach(e -> line(out, e.getKey(), e.getValue()));
        }
        out.println();
        return ScontrolCommand.ping(inv, out, err);
    }

    private static void line(PrintStream out, String key, String value) {
        out.println(String.format("%-23s = %s", key, value));
    }

    /** The digest of the slurm.conf this command reads (it just connected through it). */
    private static Optional<String> ourHash(Invocation inv) {
        try {
            return Optional.of(ShowConfig.hash(inv.setup()
                    .access(ControllerLocator.confPath(inv.env(), inv.cwd()))
                    .conf()));
        } catch (ConfigException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
