package dev.sluice.packaging;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The TCP sockets a process listens on, as the kernel sees them ({@code ss -ltnp}): its socket
 * inodes from {@code /proc/PID/fd}, looked up in {@code /proc/net/tcp} and {@code tcp6}.
 */
final class ListeningSockets {
    private static final String LISTEN = "0A";

    private ListeningSockets() {}

    static List<InetSocketAddress> of(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor went away while listed
                }
            }
        }
        Map<String, InetSocketAddress> listening = new HashMap<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
                if (f[3].equals(LISTEN) && inodes.contains(f[9])) {
                    listening.put(f[9], address(f[1]));
                }
            }
        }
        return new ArrayList<>(listening.values());
    }

    /** {@code 0100007F:1F90}: the address in the kernel's byte order (32-bit words), port in hex. */
    static InetSocketAddress address(String field) throws IOException {
        String[] hostPort = field.split(":");
        String hex = hostPort[0];
        byte[] bytes = new byte[hex.length() / 2];
        for (int word = 0; word < bytes.length / 4; word++) {
            for (int b = 0; b < 4; b++) {
                int at = word * 8 + (3 - b) * 2;
                bytes[word * 4 + b] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
            }
        }
        // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) comes back as the IPv4 address.
        return new InetSocketAddress(InetAddress.getByAddress(bytes), Integer.parseInt(hostPort[1], 16));
    }
}
