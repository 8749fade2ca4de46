package dev.sluice.noded.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * cgroup v2 confinement of batch jobs, when the node offers it: a cgroup {@code sluice/job_N}
 * under the root, {@code memory.max} from the job's memory on this node, {@code cpuset.cpus}
 * from its CPU count (the lowest CPUs no other job here holds), and, once the job ended, its
 * {@code memory.events} {@code oom_kill} count, which makes the job OUT_OF_MEMORY as in Slurm.
 * Selected by a probe of the root ({@link #open}); where it is not writable or lacks the memory
 * controller (most containers), the daemon says so once and jobs run without limits.
 */
public final class JobCgroups {
    private static final Logger log = LoggerFactory.getLogger(JobCgroups.class);
    /** The parent of every job's cgroup, under the root. */
    static final String PARENT = "sluice";

    private final Path root;
    private final int nodeCpus;
    private final Map<Integer, TreeSet<Integer>> cpusByJob = new ConcurrentHashMap<>();

    private JobCgroups(Path root, int nodeCpus) {
        this.root = root;
        this.nodeCpus = nodeCpus;
    }

    /**
     * The confinement this node can offer at {@code root}, or empty (logged once) when cgroup v2
     * with the memory controller is not there or not writable.
     */
    public static Optional<JobCgroups> open(Path root, int nodeCpus) {
        Path controllers = root.resolve("cgroup.controllers");
        try {
            if (!Files.isReadable(controllers)
                    || !List.of(Files.readString(controllers).trim().split("\\s+"))
                            .contains("memory")
                    || !Files.isWritable(root.resolve("cgroup.subtree_control"))) {
                // The daemon logs why (Cgroups.describe) once at start.
                log.debug("no writable cgroup v2 with the memory controller at {}", root);
                return Optional.empty();
            }
            Path parent = root.resolve(PARENT);
            enable(root, "+memory +cpuset");
            Files.createDirectories(parent);
            enable(parent, "+memory +cpuset");
            log.info("cgroup v2 at {}: jobs are confined in {}/job_N (memory.max, cpuset.cpus)", root, parent);
            return Optional.of(new JobCgroups(root, nodeCpus));
        } catch (IOException e) {
            log.info(
                    "cgroup v2 at {} cannot be used ({}): jobs run without memory or CPU limits", root, e.getMessage());
            return Optional.empty();
        }
    }

    /** Enables controllers for children; a controller the kernel refuses is left out, not fatal. */
    private static void enable(Path dir, String controllers) {
        for (String c : controllers.split(" ")) {
            try {
                Files.writeString(dir.resolve("cgroup.subtree_control"), c);
            } catch (IOException e) {
                log.debug("cannot enable {} in {}: {}", c, dir, e.getMessage());
            }
        }
    }

    public Path jobDir(int jobId) {
        return root.resolve(PARENT).resolve("job_" + jobId);
    }

    /**
     * Creates the job's cgroup with its limits.
     *
     * @param memoryMb the job's memory on this node; 0 = no limit ({@code max})
     * @param cpus the job's CPUs on this node; 0 = no CPU set
     * @param allocatedCpus the CPU ids of the cores the controller allocated, when the launch
     *     names them (then the set is exactly those, as the job's taskset binding); empty for an
     *     allocation made before cores were tracked (then the lowest CPUs no other job holds)
     */
    public Path create(int jobId, long memoryMb, int cpus, List<Integer> allocatedCpus) throws IOException {
        Path dir = jobDir(jobId);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("memory.max"), memoryMb > 0 ? Long.toString(memoryMb * 1024 * 1024) : "max");
        if (cpus > 0 || !allocatedCpus.isEmpty()) {
            TreeSet<Integer> mine = allocatedCpus.isEmpty() ? pickCpus(cpus) : new TreeSet<>(allocatedCpus);
            cpusByJob.put(jobId, mine);
            try {
                Files.writeString(dir.resolve("cpuset.cpus"), CpuBinding.cpuList(List.copyOf(mine)));
            } catch (IOException e) {
                // No cpuset controller delegated here: the memory limit still holds.
                log.debug("job {}: cpuset.cpus not set: {}", jobId, e.getMessage());
            }
        }
        return dir;
    }

    /** The lowest CPUs of the node no other job here holds (all of them when it is overcommitted). */
    synchronized TreeSet<Integer> pickCpus(int count) {
        TreeSet<Integer> used = new TreeSet<>();
        cpusByJob.values().forEach(used::addAll);
        TreeSet<Integer> mine = new TreeSet<>();
        for (int c = 0; c < nodeCpus && mine.size() < count; c++) {
            if (!used.contains(c)) {
                mine.add(c);
            }
        }
        if (mine.size() < count) {
            for (int c = 0; c < nodeCpus && mine.size() < count; c++) {
                mine.add(c);
            }
        }
        return mine;
    }

    /**
     * The command that puts itself into the job's cgroup, then runs {@code command}: the
     * supervisor and everything it starts are confined from their first instruction.
     */
    public static List<String> joining(Path cgroupDir, List<String> command) {
        List<String> out = new ArrayList<>(
                List.of("/bin/sh", "-c", "echo $$ > \"$0/cgroup.procs\" && exec \"$@\"", cgroupDir.toString()));
        out.addAll(command);
        return out;
    }

    /** Whether the kernel's OOM killer killed a process of the job ({@code oom_kill} > 0). */
    public boolean oomKilled(int jobId) {
        return oomKills(jobDir(jobId).resolve("memory.events")) > 0;
    }

    /** The {@code oom_kill} count of a {@code memory.events} file; 0 when it cannot be read. */
    static long oomKills(Path memoryEvents) {
        try {
            for (String line : Files.readAllLines(memoryEvents, StandardCharsets.UTF_8)) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 2 && f[0].equals("oom_kill")) {
                    return Long.parseLong(f[1]);
                }
            }
        } catch (IOException | NumberFormatException e) {
            log.debug("{}: {}", memoryEvents, e.getMessage());
        }
        return 0;
    }

    /** Removes the job's (empty by now) cgroup and frees its CPUs. */
    public void remove(int jobId) {
        cpusByJob.remove(jobId);
        try {
            Files.deleteIfExists(jobDir(jobId));
        } catch (IOException e) {
            // A process left in it keeps it; the kernel refuses the rmdir and it stays visible.
            log.warn("job {}: cgroup {} not removed: {}", jobId, jobDir(jobId), e.getMessage());
        }
    }
}
