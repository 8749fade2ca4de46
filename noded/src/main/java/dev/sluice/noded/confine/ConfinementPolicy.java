package dev.sluice.noded.confine;

import dev.sluice.common.conf.CgroupConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What this node confines, decided from {@code cgroup.conf} and slurm.conf's {@code TaskPlugin}.
 * With a {@code cgroup.conf}, Slurm 22.05's rules: {@code ConstrainRAMSpace},
 * {@code ConstrainSwapSpace}, {@code ConstrainCores} and {@code ConstrainDevices} default to
 * {@code no} and take effect only with {@code TaskPlugin=task/cgroup}; the RAM limit is the job's
 * memory × {@code AllowedRAMSpace}% (at least {@code MinRAMSpace} MB, at most
 * {@code MaxRAMPercent}% of the node's RealMemory; {@code ConstrainSwapSpace} sets it too, plus
 * {@code AllowedSwapSpace}% of swap). Without one (Sluice's own default, kept from
 * before cgroup.conf was read): memory, cores and devices are all confined wherever cgroups are
 * writable. {@code CgroupPlugin} picks the version ({@code autodetect}, {@code cgroup/v1},
 * {@code cgroup/v2}) or turns cgroups off ({@code disabled}).
 */
public record ConfinementPolicy(
        String plugin,
        String mountpoint,
        boolean ram,
        boolean swap,
        boolean cores,
        boolean devices,
        double allowedRamPercent,
        double allowedSwapPercent,
        long minRamMb,
        double maxRamPercent,
        double maxSwapPercent,
        List<String> notes) {

    public ConfinementPolicy {
        notes = List.copyOf(notes);
    }

    /** No cgroup.conf: everything confined, no percentages. */
    public static ConfinementPolicy sluiceDefault() {
        return new ConfinementPolicy(
                "autodetect", "/sys/fs/cgroup", true, false, true, true, 100, 0, 0, 100, 100, List.of());
    }

    public static ConfinementPolicy of(Optional<CgroupConf> conf, List<String> taskPlugins) {
        if (conf.isEmpty()) {
            return sluiceDefault();
        }
        CgroupConf c = conf.get();
        boolean taskCgroup = taskPlugins.stream().anyMatch(p -> p.strip().equalsIgnoreCase("task/cgroup"));
        List<String> notes = new ArrayList<>();
        String plugin = c.cgroupPlugin().strip().toLowerCase(Locale.ROOT);
        if (!List.of("autodetect", "cgroup/v1", "cgroup/v2", "disabled").contains(plugin)) {
            notes.add("cgroup.conf: CgroupPlugin=" + c.cgroupPlugin() + " is not one of autodetect, cgroup/v1,"
                    + " cgroup/v2, disabled; autodetecting");
            plugin = "autodetect";
        }
        boolean any = c.constrainRamSpace() || c.constrainSwapSpace() || c.constrainCores() || c.constrainDevices();
        if (any && !taskCgroup) {
            notes.add("cgroup.conf asks for Constrain* but TaskPlugin does not name task/cgroup:"
                    + " jobs are tracked in cgroups without limits, as in Slurm");
        }
        return new ConfinementPolicy(
                plugin,
                c.cgroupMountpoint(),
                taskCgroup && c.constrainRamSpace(),
                taskCgroup && c.constrainSwapSpace(),
                taskCgroup && c.constrainCores(),
                taskCgroup && c.constrainDevices(),
                c.allowedRamSpacePercent(),
                c.allowedSwapSpacePercent(),
                c.minRamSpaceMb(),
                c.maxRamPercent(),
                c.maxSwapPercent(),
                notes);
    }

    public boolean disabled() {
        return plugin.equals("disabled");
    }

    /** The controllers in words, for the start line: {@code memory, cpuset, devices}. */
    public String constraints() {
        List<String> out = new ArrayList<>();
        if (ram || swap) {
            out.add("memory");
        }
        if (cores) {
            out.add("cpuset");
        }
        if (devices) {
            out.add("devices");
        }
        return out.isEmpty() ? "no limits, tracking only" : String.join(", ", out);
    }

    /**
     * The job's limits here.
     *
     * @param memoryMb the job's memory on this node (0: none asked, no limit)
     * @param realMemoryMb the node's RealMemory (caps the limit by MaxRAMPercent; 0 = unknown)
     * @param deniedDevices the node's GRES device files the job was not granted
     */
    public JobLimits limits(
            int jobId,
            long memoryMb,
            long realMemoryMb,
            int cpus,
            List<Integer> cpuIds,
            List<DeviceFile> deniedDevices) {
        long mb = 1024L * 1024;
        long ramBytes = 0;
        long swapBytes = -1;
        if ((ram || swap) && memoryMb > 0) {
            long want = (long) (memoryMb * mb * allowedRamPercent / 100);
            want = Math.max(want, minRamMb * mb);
            if (realMemoryMb > 0) {
                want = Math.min(want, (long) (realMemoryMb * mb * maxRamPercent / 100));
            }
            ramBytes = want;
        }
        if (swap && memoryMb > 0) {
            long extra = (long) (memoryMb * mb * allowedSwapPercent / 100);
            if (realMemoryMb > 0) {
                extra = Math.min(extra, (long) (realMemoryMb * mb * maxSwapPercent / 100));
            }
            swapBytes = extra;
        }
        return new JobLimits(
                jobId,
                ramBytes,
                swapBytes,
                cores ? cpus : 0,
                cores ? cpuIds : List.of(),
                devices ? deniedDevices : List.of());
    }
}
