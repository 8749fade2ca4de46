package dev.sluice.cli.client;

import static java.util.Objects.requireNonNull;

/**
 * Where a controller listens for commands.
 *
 * @param name the {@code SlurmctldHost} name, as {@code scontrol ping} reports it
 * @param host the host to connect to: the {@code (addr)} part when given, else the name
 */
public record ControllerAddress(String name, String host, int port) {
    public ControllerAddress {
        requireNonNull(name, "name is null");
        requireNonNull(host, "host is null");
        if (port <= 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " out of range");
        }
    }

    /**
     * The address part of a {@code SlurmctldHost} value: {@code name(addr)} connects to
     * {@code addr}, a bare {@code name} to {@code name}.
     */
    public static String hostOf(String slurmctldHost) {
        String s = slurmctldHost.trim();
        int open = s.indexOf('(');
        if (open >= 0 && s.endsWith(")")) {
            return s.substring(open + 1, s.length() - 1).trim();
        }
        return s;
    }
}
