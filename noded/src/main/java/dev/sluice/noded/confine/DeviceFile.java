package dev.sluice.noded.confine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A device node a job may be denied: a character ({@code c}) or block ({@code b}) device with
 * its major and minor numbers, as {@code stat(2)} reports them for a gres.conf {@code File=}.
 */
public record DeviceFile(String path, char type, int major, int minor) {
    private static final int S_IFMT = 0170000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFBLK = 0060000;

    public DeviceFile {
        if (type != 'c' && type != 'b') {
            throw new IllegalArgumentException("a device is 'c' or 'b', not '" + type + "'");
        }
    }

    /** The cgroup v1 {@code devices.deny} (or {@code devices.allow}) line: {@code c 195:1 rwm}. */
    public String rule() {
        return type + " " + major + ":" + minor + " rwm";
    }

    /** Linux's {@code major()} of a {@code dev_t} (glibc's encoding). */
    static int major(long rdev) {
        return (int) (((rdev >>> 8) & 0xfff) | ((rdev >>> 32) & ~0xfffL));
    }

    /** Linux's {@code minor()} of a {@code dev_t}. */
    static int minor(long rdev) {
        return (int) ((rdev & 0xff) | ((rdev >>> 12) & ~0xffL));
    }

    /** The file's {@code st_mode} and {@code st_rdev} as a device; empty for anything else. */
    static Optional<DeviceFile> of(String path, int mode, long rdev) {
        return switch (mode & S_IFMT) {
            case S_IFCHR -> Optional.of(new DeviceFile(path, 'c', major(rdev), minor(rdev)));
            case S_IFBLK -> Optional.of(new DeviceFile(path, 'b', major(rdev), minor(rdev)));
            default -> Optional.empty();
        };
    }

    /**
     * Stats {@code path} (following links, as the kernel checks the device itself); empty when
     * it is missing or not a device (plain files stand in for GPUs on test clusters).
     */
    public static Optional<DeviceFile> stat(String path) {
        try {
            Path p = Path.of(path);
            int mode = (Integer) Files.getAttribute(p, "unix:mode");
            long rdev = (Long) Files.getAttribute(p, "unix:rdev");
            return of(path, mode, rdev);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
