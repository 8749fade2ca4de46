package dev.sluice.cli.caller;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;

/**
 * A command in its own JVM is the caller's own process: it opens files and starts programs
 * itself, with whatever rights the caller has.
 */
public final class LocalCallerSide implements CallerSide {
    private final Path cwd;

    /** @param cwd where relative paths are taken from: the caller's working directory */
    public LocalCallerSide(Path cwd) {
        this.cwd = requireNonNull(cwd, "cwd is null");
    }

    private Path at(String path) {
        return cwd.resolve(path);
    }

    @Override
    public byte[] read(String path, int limit) throws CallerFileException {
        Path file = at(path);
        try (InputStream in = Files.newInputStream(file)) {
            if (Files.isDirectory(file)) {
                throw new CallerFileException(path, Errno.EISDIR);
            }
            byte[] data = in.readNBytes(limit);
            if (in.read() >= 0) {
                throw new CallerFileException(path, Errno.EFBIG);
            }
            return data;
        } catch (CallerFileException e) {
            throw e;
        } catch (IOException e) {
            throw new CallerFileException(path, Errno.of(e));
        }
    }

    @Override
    public void write(String path, byte[] data, boolean append) throws CallerFileException {
        OpenOption mode = append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING;
        try {
            Files.write(at(path), data, StandardOpenOption.CREATE, StandardOpenOption.WRITE, mode);
        } catch (IOException e) {
            throw new CallerFileException(path, Errno.of(e));
        }
    }

    @Override
    public void checkReadable(String path) throws CallerFileException {
        try (FileChannel ignored = FileChannel.open(at(path), StandardOpenOption.READ)) {
            // opened: readable
        } catch (IOException e) {
            throw new CallerFileException(path, Errno.of(e));
        }
    }

    @Override
    public int run(List<String> argv, Map<String, String> env, String dir) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(argv).directory(at(dir).toFile()).inheritIO();
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        int value = p.waitFor();
        // The JVM reports death by signal N as 128 + N: kept as an exit code, as a shell would.
        return (value & 0xff) << 8;
    }
}
