package dev.sluice.packaging;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.hostlist.HostList;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What {@code ./sluice up} writes before any daemon starts: the configuration files, the
 * cluster key, fake GPU devices, command links and {@code sluice.env}. Kept apart from {@link
 * LocalCluster}, which runs the daemons, because tests write the same files for clusters of
 * their own ({@code ClusterProcesses}).
 */
public final class LocalClusterFiles {
    private LocalClusterFiles() {}

    public static void write(LocalClusterLayout layout, Path binDir) throws IOException {
        Files.createDirectories(layout.etc());
        Files.writeString(layout.slurmConfPath(), layout.slurmConf());
        Files.writeString(layout.etc().resolve("gres.conf"), layout.gresConf());
        Files.writeString(layout.etc().resolve("sluice.conf"), layout.sluiceConf());
        // The cluster key, owner-only: the daemons authenticate with it, and so do the commands of
        // whoever started the cluster (other local users come in through the controller's socket).
        // sluice-dbd reads its key beside its own configuration.
        Files.writeString(layout.etc().resolve("slurmdbd.conf"), layout.slurmdbdConf());
        Path key = layout.etc().resolve(ClusterKeys.KEY_FILE);
        if (!Files.exists(key)) {
            ClusterKeys.generate(key);
        }
        // The HS256 key of AuthAltParameters=jwt_key=: 64 random bytes, readable by the owner alone.
        if (!Files.exists(layout.jwtKeyPath())) {
            ClusterKeys.generate(layout.jwtKeyPath());
        }
        for (int n = 1; n <= layout.nodes(); n++) {
            Path dir = layout.fakeGpuDir(LocalClusterLayout.nodeName(n));
            Files.createDirectories(dir);
            for (int g = 0; g < layout.gpus(); g++) {
                Path dev = dir.resolve("gpu" + g);
                if (!Files.exists(dev)) {
                    Files.createFile(dev);
                }
            }
        }
        linkCommands(layout, binDir);
    }

    /** The commands as links to the native front end, and sluice.env. */
    private static void linkCommands(LocalClusterLayout layout, Path binDir) throws IOException {
        Path client = binDir.toAbsolutePath().getParent().resolve("cli/target/sluice-client");
        boolean nativeLinks = Files.isExecutable(client);
        if (nativeLinks) {
            Path links = layout.commandLinks();
            Files.createDirectories(links);
            for (String command : dev.sluice.cli.Commands.names()) {
                Path link = links.resolve(command);
                Files.deleteIfExists(link);
                Files.createSymbolicLink(link, client);
            }
        }
        Files.writeString(layout.stateDir().resolve("sluice.env"), layout.env(binDir, nativeLinks));
    }

    /** A site's files ({@link SiteConf}) with the local cluster's key, sluice.conf and links. */
    static void writeSite(LocalClusterLayout layout, String slurmConf, String gresConf, Path cgroupConf, Path binDir)
            throws IOException {
        Files.createDirectories(layout.etc());
        Files.writeString(layout.slurmConfPath(), slurmConf);
        Path gres = layout.etc().resolve("gres.conf");
        if (gresConf != null) {
            Files.writeString(gres, gresConf);
        } else {
            Files.deleteIfExists(gres);
        }
        if (Files.isReadable(cgroupConf)) {
            Files.copy(
                    cgroupConf, layout.etc().resolve("cgroup.conf"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Files.writeString(layout.etc().resolve("sluice.conf"), layout.sluiceConf());
        Files.writeString(layout.etc().resolve("slurmdbd.conf"), layout.slurmdbdConf());
        Path key = layout.etc().resolve(ClusterKeys.KEY_FILE);
        if (!Files.exists(key)) {
            ClusterKeys.generate(key);
        }
        // slurmdbd.conf names it (a site's slurm.conf may name a key of its own).
        if (!Files.exists(layout.jwtKeyPath())) {
            ClusterKeys.generate(layout.jwtKeyPath());
        }
        linkCommands(layout, binDir);
    }

    /**
     * Writes the ports the controller and sluice-dbd reported into slurm.conf ({@code
     * SlurmctldPort}, {@code AccountingStoragePort}) and sluice.conf ({@code SlurmctldGrpcPort}),
     * each file replaced whole: a command or daemon reading it sees the old file or the new one.
     * A port still {@link LocalClusterLayout#UNBOUND} is left out.
     */
    public static void stampPorts(LocalClusterLayout layout) throws IOException {
        List<String> lines = new ArrayList<>();
        if (layout.ctldPort() > 0) {
            lines.add("SlurmctldPort=" + layout.ctldPort());
        }
        if (layout.dbdPort() > 0) {
            lines.add("AccountingStoragePort=" + layout.dbdPort());
        }
        String conf = Files.readString(layout.slurmConfPath());
        // A port already there stays where it is: the file then reads as the controller that
        // read it before this stamp serves it to configless nodes (ServedPorts adds its own last).
        lines.removeIf(line -> conf.lines().anyMatch(line::equals));
        replace(layout.slurmConfPath(), overridden(conf, lines));
        if (layout.grpcPort() > 0) {
            Path sluice = layout.etc().resolve("sluice.conf");
            String text = Files.exists(sluice) ? Files.readString(sluice) : "";
            replace(sluice, overridden(text, List.of("SlurmctldGrpcPort=" + layout.grpcPort())));
        }
    }

    /**
     * Writes the ports the node daemons reported into slurm.conf's NodeName lines ({@code
     * Port=p1,p2} for {@code NodeName=n[1-2]}), so that the file names every port its daemons
     * listen on, as a site's does; the controller already has them from the registrations.
     */
    public static void stampNodePorts(LocalClusterLayout layout, Map<String, Integer> ports) throws IOException {
        replace(layout.slurmConfPath(), withNodePorts(Files.readString(layout.slurmConfPath()), ports));
    }

    /** The text with each NodeName line whose nodes all have a port given naming those ports. */
    static String withNodePorts(String conf, Map<String, Integer> ports) {
        List<String> out = new ArrayList<>();
        for (String line : conf.lines().toList()) {
            if (line.regionMatches(true, 0, "NodeName=", 0, 9)) {
                String first = line.split("\\s+", 2)[0];
                List<String> names = HostList.expand(first.substring(9));
                if (!names.isEmpty() && ports.keySet().containsAll(names)) {
                    line = line.replaceAll("(?i)\\s+Port=\\S+", "") + " Port="
                            + names.stream().map(n -> ports.get(n).toString()).collect(Collectors.joining(","));
                }
            }
            out.add(line);
        }
        return String.join("\n", out) + "\n";
    }

    private static void replace(Path file, String text) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, text);
            // Readable as the file it replaces was (slurm.conf is read by every local user's commands).
            if (Files.exists(file)) {
                Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(file));
            }
            Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * The configuration with each {@code Key=Value} line replacing the line that sets the same
     * key (keys compare case-insensitively, as slurm.conf's do), or added at the end.
     */
    public static String overridden(String conf, List<String> lines) {
        List<String> out = new ArrayList<>(conf.lines().toList());
        for (String line : lines) {
            String key = line.substring(0, line.indexOf('=')).trim() + "=";
            out.removeIf(l -> l.regionMatches(true, 0, key, 0, key.length()));
            out.add(line);
        }
        return String.join("\n", out) + "\n";
    }
}
