package dev.sluice.packaging;

import dev.sluice.common.auth.ClusterKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
