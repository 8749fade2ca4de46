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
 * cgroup v2 (Slurm's {@code CgroupPlugin=cgroup/v2}): one directory {@code <parent>/job_N} under
 * the mount point. {@code memory.max} (and {@code memory.swap.max}) and {@code cpuset.cpus} where
 * the kernel delegates those controllers here, {@code memory.events}' {@code oom_kill} for
 * OUT_OF_MEMORY; devices through an eBPF program attached to the job's cgroup
 * ({@link BpfDeviceProgram}), which needs no controller at all. Each step gets
 * {@code job_N/step_M} with no controller of its own (the job's subtree_control stays empty, so
 * the job's memory and CPUs hold its steps, and a process may stay in the job's directory) and
 * its own device program: attached with {@code BPF_F_ALLOW_MULTI}, the job's runs too.
 */
public final class CgroupV2 implements Confinement {
    private static final Logger log = LoggerFactory.getLogger(CgroupV2.class);

    private final Path root;
    private final String parent;
    private final ConfinementPolicy policy;
    private final boolean memory;
    private final boolean cpuset;
    /** Why devices cannot be isolated here (bpf(2) refused); empty when they can. */
    private final String noDevices;

    private final CpuPicker cpus;

    private CgroupV2(
            Path root,
            String parent,
            ConfinementPolicy policy,
            boolean memory,
            boolean cpuset,
            String noDevices,
            int nodeCpus) {
        this.root = root;
        this.parent = parent;
        this.policy = policy;
        this.memory = memory;
        this.cpuset = cpuset;
        this.noDevices = noDevices;
        this.cpus = new CpuPicker(nodeCpus);
    }

    /**
     * Creates {@code <parent>} and delegates to it what the kernel offers of memory and cpuset.
     *
     * @throws IOException when the hierarchy is not writable (most containers)
     */
    public static CgroupV2 open(Path root, String parent, ConfinementPolicy policy, int nodeCpus) throws IOException {
        Path controllers = root.resolve("cgroup.controllers");
        if (!Files.isReadable(controllers) || !Files.isWritable(root.resolve("cgroup.subtree_control"))) {
            throw new IOException("cgroup v2 at " + root + " is not writable (a container?)");
        }
        List<String> offered = List.of(CgroupFiles.read(controllers).split("\\s+"));
        boolean memory = offered.contains("memory");
        boolean cpuset = offered.contains("cpuset") && policy.cores();
        Path dir = root.resolve(parent);
        Files.createDirectories(dir);
        for (Path d : List.of(root, dir)) {
            if (memory) {
                memory = enable(d, "+memory");
            }
            if (cpuset) {
                cpuset = enable(d, "+cpuset");
            }
        }
        String noDevices = "";
        if (policy.devices()) {
            try {
                probeBpf(dir);
            } catch (IOException e) {
                // Memory and CPU limits still hold; the start line says devices are not isolated.
                noDevices = e.getMessage();
            }
        }
        return new CgroupV2(root, parent, policy, memory, cpuset, noDevices, nodeCpus);
    }

    /** A controller the kernel refuses to delegate is left out, not fatal. */
    private static boolean enable(Path dir, String controller) {
        try {
            CgroupFiles.write(dir.resolve("cgroup.subtree_control"), controller);
            return true;
        } catch (IOException e) {
            log.debug("cannot enable {} in {}: {}", controller, dir, e.getMessage());
            return false;
        }
    }

    /** Attaches an empty device program to a scratch cgroup: bpf(2) works here, or this throws. */
    private static void probeBpf(Path parentDir) throws IOException {
        Path probe = parentDir.resolve("bpf-probe");
        Files.createDirectories(probe);
        try {
            Bpf.attachDeviceProgram(probe, BpfDeviceProgram.denying(List.of()));
        } catch (IOException | UnsatisfiedLinkError e) {
            throw new IOException("device isolation needs bpf(2) (BPF_PROG_TYPE_CGROUP_DEVICE): " + e.getMessage(), e);
        } finally {
            Files.deleteIfExists(probe);
        }
    }

    @Override
    public void removeParentIfEmpty() {
        CgroupFiles.removeIfEmpty(root.resolve(parent));
    }

    @Override
    public String describe() {
        List<String> used = new ArrayList<>();
        List<String> lacking = new ArrayList<>();
        (memory ? used : lacking).add("memory");
        if (policy.cores()) {
            (cpuset ? used : lacking).add("cpuset");
        }
        if (policy.devices() && noDevices.isEmpty()) {
            used.add("devices (eBPF)");
        }
        return "cgroup v2 at " + root + ": jobs are confined in " + parent + "/job_N ("
                + (used.isEmpty() ? "tracking only" : String.join(", ", used)) + "; " + policy.constraints() + ")"
                + (lacking.isEmpty() ? "" : "; the kernel does not delegate " + String.join(", ", lacking) + " here")
                + (noDevices.isEmpty() ? "" : "; devices are not isolated: " + noDevices);
    }

    Path jobDir(int jobId) {
        return root.resolve(parent).resolve("job_" + jobId);
    }

    @Override
    public List<Path> create(JobLimits limits) throws IOException {
        Path dir = jobDir(limits.jobId());
        Files.createDirectories(dir);
        if (memory) {
            CgroupFiles.write(
                    dir.resolve("memory.max"), limits.memoryBytes() > 0 ? Long.toString(limits.memoryBytes()) : "max");
            if (limits.swapBytes() >= 0 && Files.exists(dir.resolve("memory.swap.max"))) {
                CgroupFiles.write(dir.resolve("memory.swap.max"), Long.toString(limits.swapBytes()));
            }
        }
        if (cpuset && limits.constrainsCpus()) {
            String mine = IndexRanges.format(cpus.pick(limits.jobId(), limits.cpus(), limits.cpuIds()));
            try {
                CgroupFiles.write(dir.resolve("cpuset.cpus"), mine);
            } catch (IOException e) {
                log.warn("job {}: cpuset.cpus {} refused: {}", limits.jobId(), mine, e.getMessage());
            }
        }
        if (!limits.denied().isEmpty() && noDevices.isEmpty()) {
            Bpf.attachDeviceProgram(dir, BpfDeviceProgram.denying(limits.denied()));
        }
        return List.of(dir);
    }

    @Override
    public List<Path> existing(int jobId) {
        Path dir = jobDir(jobId);
        return Files.isDirectory(dir) ? List.of(dir) : List.of();
    }

    @Override
    public boolean oomKilled(int jobId) {
        return CgroupFiles.keyed(jobDir(jobId).resolve("memory.events"), "oom_kill") > 0;
    }

    @Override
    public void remove(int jobId) {
        cpus.release(jobId);
        CgroupFiles.killAndRemoveJob(jobId, existing(jobId));
    }

    @Override
    public List<Path> createStep(int jobId, String step, List<DeviceFile> denied) throws IOException {
        Path dir = jobDir(jobId).resolve(step);
        Files.createDirectories(dir);
        if (!denied.isEmpty() && noDevices.isEmpty()) {
            Bpf.attachDeviceProgram(dir, BpfDeviceProgram.denying(denied));
        }
        return List.of(dir);
    }

    @Override
    public void removeStep(int jobId, String step) {
        Path dir = jobDir(jobId).resolve(step);
        CgroupFiles.killAndRemove(jobId, Files.isDirectory(dir) ? List.of(dir) : List.of());
    }
}
