package dev.sluice.noded.registration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What a heartbeat reports of the host, as slurmd does: the one-minute load average
 * ({@code /proc/loadavg}; scontrol's CPULoad) and the free memory in MB ({@code MemFree} of
 * {@code /proc/meminfo}, the free RAM sysinfo(2) reports; scontrol's FreeMem). A reading that
 * cannot be taken is left out (0), never guessed.
 */
final class HostReadings {
    private HostReadings() {}

    static OptionalDouble loadAverage(String loadavg) {
        String[] fields = loadavg.strip().split("\\s+");
        try {
            return fields.length > 0 && !fields[0].isEmpty()
                    ? OptionalDouble.of(Double.parseDouble(fields[0]))
                    : OptionalDouble.empty();
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }

    static OptionalLong freeMemoryMb(String meminfo) {
        for (String line : meminfo.split("\n")) {
            if (line.startsWith("MemFree:")) {
                String[] f = line.substring("MemFree:".length()).strip().split("\\s+");
                try {
                    return OptionalLong.of(Long.parseLong(f[0]) / 1024);
                } catch (NumberFormatException e) {
                    return OptionalLong.empty();
                }
            }
        }
        return OptionalLong.empty();
    }

    static double loadAverage() {
        return read(Path.of("/proc/loadavg"))
                .map(HostReadings::loadAverage)
                .orElse(OptionalDouble.empty())
                .orElse(0);
    }

    static long freeMemoryMb() {
        return read(Path.of("/proc/meminfo"))
                .map(HostReadings::freeMemoryMb)
                .orElse(OptionalLong.empty())
                .orElse(0);
    }

    private static java.util.Optional<String> read(Path file) {
        try {
            return java.util.Optional.of(Files.readString(file));
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
    }
}
