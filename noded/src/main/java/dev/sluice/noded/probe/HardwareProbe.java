package dev.sluice.noded.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What this machine has, read from Linux's /proc and /sys the way {@code slurmd -C} reports
 * it. The parsers are pure and take file contents, so tests feed them recorded text.
 */
public final class HardwareProbe {
    private HardwareProbe() {}

    public record Detected(
            int cpus, int boards, int sockets, int coresPerSocket, int threadsPerCore, long realMemoryMb) {}

    public static Detected detect() {
        String cpuinfo = read(Path.of("/proc/cpuinfo"));
        String meminfo = read(Path.of("/proc/meminfo"));
        return parse(cpuinfo, meminfo, Runtime.getRuntime().availableProcessors());
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return "";
        }
    }

    /** @param fallbackCpus used when cpuinfo says nothing (non-Linux, restricted containers) */
    public static Detected parse(String cpuinfo, String meminfo, int fallbackCpus) {
        int processors = 0;
        Set<String> sockets = new HashSet<>();
        Set<String> cores = new HashSet<>();
        String physical = "0";
        for (String line : cpuinfo.split("\n")) {
            String[] kv = line.split(":", 2);
            if (kv.length != 2) {
                continue;
            }
            String key = kv[0].trim();
            String value = kv[1].trim();
            switch (key) {
                case "processor" -> processors++;
                case "physical id" -> {
                    physical = value;
                    sockets.add(value);
                }
                case "core id" -> cores.add(physical + "/" + value);
                default -> {}
            }
        }
        int cpus = processors > 0 ? processors : Math.max(1, fallbackCpus);
        int socketCount = Math.max(1, sockets.size());
        int coreCount = cores.isEmpty() ? cpus : cores.size();
        int threads = Math.max(1, cpus / Math.max(1, coreCount));
        int coresPerSocket = Math.max(1, coreCount / socketCount);
        return new Detected(cpus, 1, socketCount, coresPerSocket, threads, memoryMb(meminfo));
    }

    static long memoryMb(String meminfo) {
        for (String line : meminfo.split("\n")) {
            if (line.startsWith("MemTotal:")) {
                List<String> parts = List.of(line.substring(9).trim().split("\\s+"));
                return Long.parseLong(parts.get(0)) / 1024;
            }
        }
        return 1;
    }

    /** {@code slurmd -C} output. */
    public static String describe(String nodeName, Detected d, long uptimeSeconds) {
        return "NodeName=" + nodeName + " CPUs=" + d.cpus() + " Boards=" + d.boards() + " SocketsPerBoard="
                + d.sockets() + " CoresPerSocket=" + d.coresPerSocket() + " ThreadsPerCore=" + d.threadsPerCore()
                + " RealMemory=" + d.realMemoryMb() + "\nUpTime=" + formatUptime(uptimeSeconds);
    }

    static String formatUptime(long s) {
        return String.format("%d-%02d:%02d:%02d", s / 86400, (s / 3600) % 24, (s / 60) % 60, s % 60);
    }
}
