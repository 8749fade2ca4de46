package dev.sluice.cli.client;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.IncludeResolver;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.common.site.SluiceConf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What every caller of one {@code slurm.conf} shares: the parsed configuration, where the
 * controller's Unix socket is, and the cluster key when this process may read it. Who is
 * calling is added per call by {@link ClientAuth#forCaller}.
 *
 * @param files every file the answer was read from, or whose absence it depends on (included
 *     files, the directory of a glob {@code Include}, sluice.conf, both key files): a cache
 *     keeps this answer only while none of them changes
 * @param readFiles the configuration files whose text went into the answer (slurm.conf, each
 *     included file, sluice.conf when present), not the key: sluice-agent serves this answer
 *     only to a caller who may read every one of them
 */
public record ClusterAccess(
        Path slurmConfPath,
        SlurmConf conf,
        Path commandSocket,
        Optional<ClusterCredentials> signer,
        List<Path> files,
        List<Path> readFiles) {
    public ClusterAccess {
        requireNonNull(slurmConfPath, "slurmConfPath is null");
        requireNonNull(conf, "conf is null");
        requireNonNull(commandSocket, "commandSocket is null");
        requireNonNull(signer, "signer is null");
        files = List.copyOf(files);
        readFiles = List.copyOf(readFiles);
    }

    /** Reads slurm.conf (with its includes), sluice.conf and the key beside them. */
    public static ClusterAccess read(Path slurmConfPath) throws ConfigException {
        Path dir = slurmConfPath.toAbsolutePath().getParent();
        List<Path> files = new ArrayList<>();
        List<Path> read = new ArrayList<>();
        files.add(slurmConfPath);
        read.add(slurmConfPath);
        SlurmConf conf = SlurmConfReader.read(slurmConfPath, recording(dir, files, read));
        return besides(slurmConfPath, conf, files, read);
    }

    /** Completes an already parsed slurm.conf with sluice.conf and the key beside it. */
    public static ClusterAccess besides(
            Path slurmConfPath, SlurmConf conf, List<Path> confFiles, List<Path> readConfFiles) {
        Path dir = slurmConfPath.toAbsolutePath().getParent();
        List<Path> files = new ArrayList<>(confFiles);
        List<Path> read = new ArrayList<>(readConfFiles);
        Path sluiceConf = dir.resolve(SluiceConf.FILE_NAME);
        files.add(sluiceConf);
        if (Files.exists(sluiceConf)) {
            read.add(sluiceConf);
        }
        Optional<String> configured;
        try {
            configured = SluiceConf.besides(slurmConfPath).commandSocket();
        } catch (IOException | IllegalArgumentException e) {
            configured = Optional.empty();
        }
        Path socket = Path.of(configured.orElse(
                Path.of(conf.stateSaveLocation()).resolve("slurmctld.socket").toString()));
        files.add(dir.resolve(ClusterKeys.KEY_SET_FILE));
        files.add(dir.resolve(ClusterKeys.KEY_FILE));
        Optional<ClusterCredentials> signer;
        try {
            signer = Optional.of(new ClusterCredentials(ClusterKeys.loadFromConfigDir(dir)));
        } catch (AuthException | IllegalArgumentException e) {
            // The usual case for users: the key is SlurmUser's alone.
            signer = Optional.empty();
        }
        return new ClusterAccess(slurmConfPath, conf, socket, signer, files, read);
    }

    /** The file system resolver, noting what it was asked for (a glob's directory for a glob). */
    private static IncludeResolver recording(Path dir, List<Path> files, List<Path> read) {
        IncludeResolver filesystem = IncludeResolver.filesystem(dir);
        return (name, at) -> {
            Path p = dir.resolve(name);
            String last = p.getFileName() == null ? "" : p.getFileName().toString();
            boolean glob = last.chars().anyMatch(c -> c == '*' || c == '?' || c == '[');
            files.add(glob && p.getParent() != null ? p.getParent() : p);
            List<IncludeResolver.Source> sources = filesystem.resolve(name, at);
            if (glob) {
                sources.forEach(s -> files.add(Path.of(s.name())));
            }
            sources.forEach(s -> read.add(Path.of(s.name())));
            return sources;
        };
    }
}
