package dev.sluice.noded.confine;

import dev.sluice.common.hostlist.IndexRanges;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * cgroup v1 (Slurm's {@code CgroupPlugin=cgroup/v1}): the controllers mounted one per directory
 * under the mount point, each job a {@code <parent>/job_N} in each. {@code memory} always (it
 * tracks the job and reports OOM kills: {@code memory.oom_control}'s {@code oom_kill}), with
 * {@code memory.limit_in_bytes} (and {@code memory.memsw.limit_in_bytes} for swap) when RAM is
 * constrained; {@code cpuset} with {@code cpuset.cpus} (and the parent's {@code cpuset.mems},
 * without which no process may join) when cores are; {@code devices} with one
 * {@code devices.deny} line per denied device when devices are. Each step gets
 * {@code job_N/step_M} in {@code cpuset} (the job's CPUs) and {@code devices} (a new devices
 * cgroup starts with its parent's rules; the step's own denials are added), and stays in the
 * job's {@code memory} cgroup: the limit is the job's, and so is the OOM count.
 */
public final class CgroupV1 implements Confinement {
    private static final Logger log = LoggerFactory.getLogger(CgroupV1.class);

    private final Path mount;
    private final String parent;
    private final ConfinementPolicy policy;
    private final List<String> controllers;
    private final CpuPicker cpus;
    private final String missing;

    private CgroupV1(
            Path mount,
            String parent,
            ConfinementPolicy policy,
            List<String> controllers,
            int nodeCpus,
            String missing) {
        this.mount = mount;
        this.parent = parent;
        this.policy = policy;
        this.controllers = List.copyOf(controllers);
        this.cpus = new CpuPicker(nodeCpus);
        this.missing = missing;
    }

    /**
     * Sets up {@code <parent>} in each controller the policy needs and the node has mounted.
     *
     * @throws IOException when the memory controller is not there or not writable
     */
    public static CgroupV1 open(Path mount, String parent, ConfinementPolicy policy, int nodeCpus) throws IOException {
        if (!Files.isDirectory(mount.resolve("memory"))
                || !Files.isWritable(mount.resolve("memory").resolve("cgroup.procs"))) {
            throw new IOException("the memory controller is not mounted writable at " + mount.resolve("memory"));
        }
        List<String> wanted = new ArrayList<>(List.of("memory"));
        if (policy.cores()) {
            wanted.add("cpuset");
        }
        if (policy.devices()) {
            wanted.add("devices");
        }
        List<String> present = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        for (String c : wanted) {
            if (Files.isWritable(mount.resolve(c).resolve("cgroup.procs"))) {
                Files.createDirectories(mount.resolve(c).resolve(parent));
                present.add(c);
            } else {
                absent.add(c);
            }
        }
        if (present.contains("cpuset")) {
            Path root = mount.resolve("cpuset");
            Path dir = root.resolve(parent);
            // A new cpuset is empty: its CPUs and memory nodes come from the root's.
            for (String f : List.of("cpuset.cpus", "cpuset.mems")) {
                if (CgroupFiles.read(dir.resolve(f)).isEmpty()) {
                    CgroupFiles.write(dir.resolve(f), CgroupFiles.read(root.resolve(f)));
                }
            }
        }
        String missing = absent.isEmpty() ? "" : "; " + String.join(", ", absent) + " not mounted writable";
        return new CgroupV1(mount, parent, policy, present, nodeCpus, missing);
    }

    @Override
    public void removeParentIfEmpty() {
        for (String c : controllers) {
            CgroupFiles.removeIfEmpty(mount.resolve(c).resolve(parent));
        }
    }

    @Override
    public String describe() {
        return "cgroup v1 at " + mount + ": jobs are confined in <controller>/" + parent + "/job_N ("
                + String.join(", ", controllers) + "; " + policy.constraints() + ")" + missing;
    }

    private Path dir(String controller, int jobId) {
        return mount.resolve(controller).resolve(parent).resolve("job_" + jobId);
    }

    @Override
    public List<Path> create(JobLimits limits) throws IOException {
        int jobId = limits.jobId();
        List<Path> dirs = new ArrayList<>();
        for (String c : controllers) {
            Path dir = dir(c, jobId);
            Files.createDirectories(dir);
            dirs.add(dir);
            switch (c) {
                case "memory" -> memory(dir, limits);
                case "cpuset" -> cpuset(dir, limits);
                case "devices" -> {
                    for (DeviceFile d : limits.denied()) {
                        CgroupFiles.write(dir.resolve("devices.deny"), d.rule());
                    }
                }
                default -> {}
            }
        }
        return dirs;
    }

    private static void memory(Path dir, JobLimits limits) throws IOException {
        if (limits.memoryBytes() > 0) {
            CgroupFiles.write(dir.resolve("memory.limit_in_bytes"), Long.toString(limits.memoryBytes()));
            Path memsw = dir.resolve("memory.memsw.limit_in_bytes");
            if (limits.swapBytes() >= 0 && Files.exists(memsw)) {
                CgroupFiles.write(memsw, Long.toString(limits.memoryBytes() + limits.swapBytes()));
            }
        }
    }

    private void cpuset(Path dir, JobLimits limits) throws IOException {
        Path parentDir = dir.getParent();
        String all = CgroupFiles.read(parentDir.resolve("cpuset.cpus"));
        String mine = all;
        if (limits.constrainsCpus()) {
            mine = IndexRanges.format(cpus.pick(limits.jobId(), limits.cpus(), limits.cpuIds()));
        }
        try {
            CgroupFiles.write(dir.resolve("cpuset.cpus"), mine);
        } catch (IOException e) {
            // CPUs the machine lacks (a node configured larger than its host): the node's set.
            log.warn("job {}: cpuset.cpus {} refused ({}); the job gets {}", limits.jobId(), mine, e.getMessage(), all);
            CgroupFiles.write(dir.resolve("cpuset.cpus"), all);
        }
        CgroupFiles.write(dir.resolve("cpuset.mems"), CgroupFiles.read(parentDir.resolve("cpuset.mems")));
    }

    @Override
    public List<Path> existing(int jobId) {
        return controllers.stream()
                .map(c -> dir(c, jobId))
                .filter(Files::isDirectory)
                .toList();
    }

    @Override
    public boolean oomKilled(int jobId) {
        return CgroupFiles.keyed(dir("memory", jobId).resolve("memory.oom_control"), "oom_kill") > 0;
    }

    @Override
    public void remove(int jobId) {
        cpus.release(jobId);
        CgroupFiles.killAndRemoveJob(jobId, existing(jobId));
    }

    @Override
    public List<Path> createStep(int jobId, String step, List<DeviceFile> denied) throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (String c : controllers) {
            Path job = dir(c, jobId);
            if (c.equals("memory")) {
                dirs.add(job);
                continue;
            }
            Path dir = job.resolve(step);
            Files.createDirectories(dir);
            dirs.add(dir);
            if (c.equals("cpuset")) {
                // Empty until written, and nothing may join an empty cpuset.
                for (String f : List.of("cpuset.cpus", "cpuset.mems")) {
                    CgroupFiles.write(dir.resolve(f), CgroupFiles.read(job.resolve(f)));
                }
            } else if (c.equals("devices")) {
                for (DeviceFile d : denied) {
                    CgroupFiles.write(dir.resolve("devices.deny"), d.rule());
                }
            }
        }
        return dirs;
    }

    @Override
    public void removeStep(int jobId, String step) {
        List<Path> dirs = controllers.stream()
                .filter(c -> !c.equals("memory"))
                .map(c -> dir(c, jobId).resolve(step))
                .filter(Files::isDirectory)
                .toList();
        CgroupFiles.killAndRemove(jobId, dirs);
    }
}
