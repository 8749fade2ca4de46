package dev.sluice.noded.confine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reading and writing cgroup files, and taking a job's cgroup down, for both versions. */
final class CgroupFiles {
    private static final Logger log = LoggerFactory.getLogger(CgroupFiles.class);
    private static final long REMOVE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private CgroupFiles() {}

    static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.US_ASCII).strip();
    }

    /** One write(2) of {@code value}, as the kernel takes each cgroup setting. */
    static void write(Path file, String value) throws IOException {
        Files.writeString(file, value, StandardCharsets.US_ASCII);
    }

    /** The value of {@code key} in a flat keyed file ({@code memory.events}, {@code memory.oom_control}). */
    static long keyed(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
                String[] f = line.strip().split("\\s+");
                if (f.length == 2 && f[0].equals(key)) {
                    return Long.parseLong(f[1]);
                }
            }
        } catch (IOException | NumberFormatException e) {
            log.debug("{}: {}", file, e.getMessage());
        }
        return 0;
    }

    /**
     * SIGKILL to every process still in {@code dirs} (a process that left the job's session is
     * still in its cgroup), then removes them, waiting a few seconds for the dying to go.
     */
    static void killAndRemove(int jobId, List<Path> dirs) {
        long deadline = System.nanoTime() + REMOVE_WAIT_NANOS;
        for (Path dir : dirs) {
            while (Files.isDirectory(dir)) {
                killAll(dir);
                try {
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    // EBUSY while processes remain; ENOTEMPTY is no cgroup (a plain directory).
                    if (e instanceof java.nio.file.DirectoryNotEmptyException || System.nanoTime() > deadline) {
                        // A process the kernel cannot kill (uninterruptible) keeps it.
                        log.warn("job {}: cgroup {} not removed: {}", jobId, dir, e.getMessage());
                        break;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                }
            }
        }
    }

    /**
     * Removes {@code dir} when it holds no process and no child cgroup (the kernel refuses the
     * rmdir otherwise, and then it stays).
     */
    static void removeIfEmpty(Path dir) {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            log.debug("{} stays: {}", dir, e.getMessage());
        }
    }

    /** The step cgroups ({@code step_*} directories) under each of the job's {@code dirs}. */
    static List<Path> steps(List<Path> dirs) {
        List<Path> out = new java.util.ArrayList<>();
        for (Path dir : dirs) {
            try (var children = Files.newDirectoryStream(dir, "step_*")) {
                children.forEach(c -> {
                    if (Files.isDirectory(c)) {
                        out.add(c);
                    }
                });
            } catch (IOException e) {
                log.debug("{}: {}", dir, e.getMessage());
            }
        }
        return out;
    }

    /** {@link #killAndRemove} of the job's step cgroups, then of the job's own. */
    static void killAndRemoveJob(int jobId, List<Path> dirs) {
        killAndRemove(jobId, steps(dirs));
        killAndRemove(jobId, dirs);
    }

    private static void killAll(Path dir) {
        try {
            for (String pid : Files.readAllLines(dir.resolve("cgroup.procs"), StandardCharsets.US_ASCII)) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        } catch (IOException | NumberFormatException e) {
            log.debug("{}: {}", dir, e.getMessage());
        }
    }
}
