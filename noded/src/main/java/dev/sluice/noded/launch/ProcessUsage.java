package dev.sluice.noded.launch;

import dev.sluice.noded.job.TaskUsage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one task uses now, read from {@code /proc} as Slurm's jobacct_gather/linux reads it: the
 * task's process and every process it started, CPU time (user and system, with that of its
 * children that ended), resident and virtual memory, major page faults, and bytes read and
 * written ({@code rchar}, {@code wchar}). A process that ends while it is read counts what was read.
 */
public final class ProcessUsage {
    /** Linux's USER_HZ: /proc's clock ticks per second. */
    private static final double TICKS = 100.0;

    private final Path proc;
    private final long pageKb;

    /** @param proc where {@code /proc} is (tests give a directory of their own) */
    public ProcessUsage(Path proc, long pageBytes) {
        this.proc = proc;
        this.pageKb = Math.max(1, pageBytes / 1024);
    }

    public static ProcessUsage system() {
        return new ProcessUsage(Path.of("/proc"), 4096);
    }

    /** The task rooted at {@code pid}, with the processes it started (found by their parent ids). */
    public TaskUsage task(int taskId, String node, long pid, long cpuFreqKhz) {
        List<Integer> pids = new ArrayList<>();
        double cpu = 0;
        long rss = 0;
        long vsize = 0;
        long pages = 0;
        long read = 0;
        long write = 0;
        for (long p : tree(pid)) {
            Optional<long[]> stat = stat(p);
            if (stat.isEmpty()) {
                continue;
            }
            long[] s = stat.get();
            pids.add((int) p);
            // utime + stime, and for the task itself its ended children's too.
            cpu += (s[0] + s[1] + (p == pid ? s[2] + s[3] : 0)) / TICKS;
            pages += s[4];
            vsize += s[5] / 1024;
            rss += s[6] * pageKb;
            long[] io = io(p);
            read += io[0];
            write += io[1];
        }
        return new TaskUsage(taskId, node, pids, cpu, rss, vsize, pages, read, write, cpuFreqKhz);
    }

    /** {@code pid} and its descendants, parents before children. */
    List<Long> tree(long pid) {
        List<Long> out = new ArrayList<>();
        out.add(pid);
        List<long[]> parents = new ArrayList<>();
        try (var dirs = Files.list(proc)) {
            dirs.forEach(d -> {
                String name = d.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    return;
                }
                long child = Long.parseLong(name);
                parent(child).ifPresent(pp -> parents.add(new long[] {child, pp}));
            });
        } catch (IOException | RuntimeException e) {
            return out;
        }
        for (int i = 0; i < out.size(); i++) {
            long p = out.get(i);
            for (long[] cp : parents) {
                if (cp[1] == p && !out.contains(cp[0])) {
                    out.add(cp[0]);
                }
            }
        }
        return out;
    }

    private Optional<Long> parent(long pid) {
        return statFields(pid).map(f -> Long.parseLong(f[1]));
    }

    /** utime, stime, cutime, cstime (ticks), majflt, vsize (bytes), rss (pages). */
    Optional<long[]> stat(long pid) {
        return statFields(pid).map(f -> new long[] {
            Long.parseLong(f[11]),
            Long.parseLong(f[12]),
            Long.parseLong(f[13]),
            Long.parseLong(f[14]),
            Long.parseLong(f[9]),
            Long.parseLong(f[20]),
            Long.parseLong(f[21])
        });
    }

    /** The fields after the command's closing parenthesis: [0] is the state, [1] the parent. */
    private Optional<String[]> statFields(long pid) {
        try {
            String s = Files.readString(proc.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.UTF_8);
            int close = s.lastIndexOf(')');
            if (close < 0) {
                return Optional.empty();
            }
            String[] f = s.substring(close + 1).strip().split("\\s+");
            return f.length < 22 ? Optional.empty() : Optional.of(f);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** rchar and wchar; zeros when the file cannot be read. */
    long[] io(long pid) {
        long[] out = new long[2];
        try {
            for (String line :
                    Files.readAllLines(proc.resolve(Long.toString(pid)).resolve("io"))) {
                if (line.startsWith("rchar:")) {
                    out[0] = Long.parseLong(line.substring(6).strip());
                } else if (line.startsWith("wchar:")) {
                    out[1] = Long.parseLong(line.substring(6).strip());
                }
            }
        } catch (IOException | RuntimeException e) {
            return out;
        }
        return out;
    }

    /** The current frequency of the node's CPUs in kHz, as /proc/cpuinfo's first "cpu MHz" says (0: unknown). */
    public long cpuFreqKhz() {
        try {
            for (String line : Files.readAllLines(proc.resolve("cpuinfo"))) {
                if (line.startsWith("cpu MHz")) {
                    return Math.round(Double.parseDouble(
                                    line.substring(line.indexOf(':') + 1).strip())
                            * 1000);
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }
}
