package dev.sluice.noded.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Why this node cannot confine jobs with cgroup v2 ({@link JobCgroups}): the daemon says once,
 * at start, what it found, so that an operator knows jobs are tracked by their session only.
 */
public final class Cgroups {
    private Cgroups() {}

    /** The line the daemon logs at start; {@code mounts} is the text of /proc/self/mounts. */
    public static String describe(String mounts, Path root, boolean writable) {
        Optional<String> cgroup2 = mounts.lines()
                .map(l -> l.split(" "))
                .filter(f -> f.length >= 3 && f[1].equals(root.toString()) && f[2].equals("cgroup2"))
                .map(f -> f[2])
                .findFirst();
        if (cgroup2.isEmpty()) {
            return "cgroup v2 is not mounted at " + root
                    + ": jobs run without memory, CPU or device limits, tracked by their session";
        }
        if (!writable) {
            return "cgroup v2 at " + root + " is not writable (a container?): jobs run without memory, CPU or"
                    + " device limits, tracked by their session";
        }
        return "cgroup v2 at " + root + " offers no memory controller to delegate: jobs run without memory or"
                + " CPU limits, tracked by their session";
    }

    /** What this machine offers, read from /proc/self/mounts and /sys/fs/cgroup. */
    public static String describeThisNode() {
        Path root = Path.of("/sys/fs/cgroup");
        String mounts;
        try {
            mounts = Files.readString(Path.of("/proc/self/mounts"));
        } catch (IOException e) {
            mounts = "";
        }
        return describe(mounts, root, Files.isWritable(root.resolve("cgroup.procs")));
    }
}
