package dev.sluice.common.daemon;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This host's name as the kernel has it (gethostname(2): it need not resolve), read once, as
 * Slurm's daemons read theirs at start: slurmd's default NodeName, and what {@code %N} of an
 * output file name and AllocNode name.
 */
public final class HostName {
    private static final String NAME = read();

    private HostName() {}

    /** The full name, {@code login1.example.org}. */
    public static String name() {
        return NAME;
    }

    /** The name up to its first dot, {@code login1}. */
    public static String shortName() {
        return NAME.split("\\.", 2)[0];
    }

    private static String read() {
        String host;
        try {
            host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            host = "";
        }
        if (host.isEmpty()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "localhost";
            }
        }
        return host;
    }
}
