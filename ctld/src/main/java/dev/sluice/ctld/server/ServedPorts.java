package dev.sluice.ctld.server;

import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.common.site.SluiceConf;
import dev.sluice.ctld.rpc.Reconfigurer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * What a controller started on port 0, or on ports given on its command line, serves to configless node daemons: the files as read, with
 * the ports it actually bound in place of what the files say ({@code SlurmctldPort} in
 * slurm.conf, {@code SlurmctldGrpcPort} in sluice.conf), so that a node fetching its
 * configuration from this controller reaches this controller; and {@code scontrol show config}
 * likewise says the port its commands reach. A controller on the ports its files name serves
 * them unchanged.
 */
final class ServedPorts implements Reconfigurer {
    private final Reconfigurer files;
    private final IntSupplier commandPort;
    private final IntSupplier grpcPort;

    /** @param commandPort and @param grpcPort: the bound ports, asked each time files are served */
    ServedPorts(Reconfigurer files, IntSupplier commandPort, IntSupplier grpcPort) {
        this.files = files;
        this.commandPort = commandPort;
        this.grpcPort = grpcPort;
    }

    @Override
    public Map<String, byte[]> configFiles() {
        return stamp(files.configFiles(), commandPort.getAsInt(), grpcPort.getAsInt());
    }

    /** The report of the files, but SlurmctldPort the one port bound (where they may name a range). */
    @Override
    public ShowConfig showConfig() {
        return files.showConfig().with("SlurmctldPort", Integer.toString(commandPort.getAsInt()));
    }

    @Override
    public void reconfigure() {
        files.reconfigure();
    }

    /** The files with the bound ports; none served (no enable_configless) stays none. */
    static Map<String, byte[]> stamp(Map<String, byte[]> files, int commandPort, int grpcPort) {
        if (!files.containsKey("slurm.conf")) {
            return files;
        }
        Map<String, byte[]> out = new LinkedHashMap<>(files);
        out.put("slurm.conf", withLine(files.get("slurm.conf"), "SlurmctldPort", commandPort));
        out.put(
                SluiceConf.FILE_NAME,
                withLine(files.getOrDefault(SluiceConf.FILE_NAME, new byte[0]), "SlurmctldGrpcPort", grpcPort));
        return out;
    }

    /** The text with every {@code key=} line (keys case-blind) replaced by one, else one added. */
    private static byte[] withLine(byte[] text, String key, int port) {
        List<String> lines =
                new ArrayList<>(new String(text, StandardCharsets.UTF_8).lines().toList());
        String prefix = key + "=";
        boolean replaced = false;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().regionMatches(true, 0, prefix, 0, prefix.length())) {
                lines.set(i, replaced ? "" : prefix + port);
                replaced = true;
            }
        }
        if (!replaced) {
            lines.add(prefix + port);
        }
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }
}
