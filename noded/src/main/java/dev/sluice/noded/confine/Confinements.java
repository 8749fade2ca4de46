package dev.sluice.noded.confine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

/**
 * Picks this node's confinement at start: the cgroup version {@code CgroupPlugin} names, or with
 * {@code autodetect} the one mounted at {@code CgroupMountpoint} (cgroup2 there: v2; v1
 * controllers in directories under it, as on hybrid hosts with an empty cgroup2 at
 * {@code unified}: v1, as Slurm's autodetect decides), then opens it. Whatever cannot be used
 * becomes {@link Unconfined} with the reason, which the daemon logs once.
 */
public final class Confinements {
    private static final String UNCONFINED =
            ": jobs run without memory, CPU or device limits, tracked by their session";

    private Confinements() {}

    /** What is mounted at the mount point, from /proc/self/mounts. */
    public enum Version {
        V1,
        V2,
        NONE
    }

    /** {@code mounts}: the text of /proc/self/mounts. */
    public static Version detect(String mounts, Path mountpoint) {
        boolean v1 = false;
        for (String line : mounts.lines().toList()) {
            String[] f = line.split(" ");
            if (f.length < 3) {
                continue;
            }
            Path at = Path.of(f[1]);
            if (f[2].equals("cgroup2") && at.equals(mountpoint)) {
                return Version.V2;
            }
            if (f[2].equals("cgroup") && mountpoint.equals(at.getParent())) {
                v1 = true;
            }
        }
        return v1 ? Version.V1 : Version.NONE;
    }

    /** The version to use ({@link Version#NONE} with the reason when none). */
    record Choice(Version version, String why) {
        static Choice use(Version v) {
            return new Choice(v, "");
        }

        static Choice none(String why) {
            return new Choice(Version.NONE, why + UNCONFINED);
        }
    }

    /** {@code plugin} (cgroup.conf's CgroupPlugin) against what is mounted. */
    static Choice choose(String plugin, Version mounted, Path mountpoint) {
        return switch (plugin) {
            case "disabled" -> Choice.none("CgroupPlugin=disabled in cgroup.conf");
            case "cgroup/v1" ->
                mounted == Version.V1
                        ? Choice.use(mounted)
                        : Choice.none(
                                "CgroupPlugin=cgroup/v1 but no cgroup v1 controllers are mounted under " + mountpoint);
            case "cgroup/v2" ->
                mounted == Version.V2
                        ? Choice.use(mounted)
                        : Choice.none("CgroupPlugin=cgroup/v2 but cgroup v2 is not mounted at " + mountpoint);
            default ->
                mounted == Version.NONE
                        ? Choice.none("no cgroup hierarchy is mounted at " + mountpoint)
                        : Choice.use(mounted);
        };
    }

    /**
     * The parent cgroup of a node daemon's jobs: {@code sluice_<node>}, one per node daemon so
     * that several daemons of one host keep theirs apart, as Slurm's multiple-slurmd
     * {@code slurm_<node>}. A daemon spooling elsewhere than slurmd's default
     * ({@code /var/spool/slurmd}) adds a digest of its spool directory: two local clusters (or
     * test clusters) on one host both have a {@code node1}, and a launch that finds its job's
     * cgroup already there empties it.
     */
    public static String parentName(String nodeName, String spoolDir) {
        if (spoolDir.equals(DEFAULT_SPOOL)) {
            return "sluice_" + nodeName;
        }
        return "sluice_" + nodeName + "_" + HexFormat.of().toHexDigits(spoolDir.hashCode());
    }

    private static final String DEFAULT_SPOOL = "/var/spool/slurmd";

    /**
     * The confinement of a node daemon: jobs go into {@code <parent>/job_N} (see {@link
     * #parentName}).
     */
    public static Confinement open(ConfinementPolicy policy, String parent, int nodeCpus, String mounts) {
        Path mountpoint = Path.of(policy.mountpoint());
        Choice choice = choose(policy.plugin(), detect(mounts, mountpoint), mountpoint);
        if (choice.version() == Version.NONE) {
            return new Unconfined(choice.why());
        }
        try {
            return choice.version() == Version.V1
                    ? CgroupV1.open(mountpoint, parent, policy, nodeCpus)
                    : CgroupV2.open(mountpoint, parent, policy, nodeCpus);
        } catch (IOException e) {
            return new Unconfined((choice.version() == Version.V1 ? "cgroup v1" : "cgroup v2") + " at " + mountpoint
                    + " cannot be used (" + e.getMessage() + ")" + UNCONFINED);
        }
    }

    /** {@link #open} with this machine's /proc/self/mounts. */
    public static Confinement openHere(ConfinementPolicy policy, String parent, int nodeCpus) {
        String mounts;
        try {
            mounts = Files.readString(Path.of("/proc/self/mounts"));
        } catch (IOException e) {
            mounts = "";
        }
        return open(policy, parent, nodeCpus, mounts);
    }

    /** The policy's notes and the choice, as the daemon logs them at start. */
    public static List<String> startLines(ConfinementPolicy policy, Confinement confinement) {
        List<String> out = new java.util.ArrayList<>(policy.notes());
        out.add(confinement.describe());
        return out;
    }
}
