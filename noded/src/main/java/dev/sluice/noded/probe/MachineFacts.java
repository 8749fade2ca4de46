package dev.sluice.noded.probe;

import java.nio.file.Path;
import java.util.Locale;

/**
 * What {@code scontrol show node} says of a node's machine, as slurmd reports it at registration:
 * {@code Arch=} (uname's machine), {@code OS=} (uname's system, release and version) and
 * {@code BootTime=}. Read from /proc; the parsers are pure and take file contents.
 *
 * @param arch {@code x86_64}, {@code aarch64}, ...
 * @param os {@code Linux 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1}
 * @param bootTime when the machine booted, epoch seconds; 0 when unknown
 */
public record MachineFacts(String arch, String os, long bootTime) {
    /** @param now the time now, epoch seconds (the boot time is now less the uptime) */
    public static MachineFacts detect(long now) {
        Path kernel = Path.of("/proc/sys/kernel");
        return new MachineFacts(
                arch(HardwareProbe.read(kernel.resolve("arch")), System.getProperty("os.arch", "")),
                os(
                        HardwareProbe.read(kernel.resolve("ostype")),
                        HardwareProbe.read(kernel.resolve("osrelease")),
                        HardwareProbe.read(kernel.resolve("version")),
                        System.getProperty("os.name", "")),
                bootTime(HardwareProbe.read(Path.of("/proc/uptime")), now));
    }

    /**
     * uname's machine: the kernel's own word where it gives one (/proc/sys/kernel/arch, Linux
     * 5.19+), else the JVM's name for it in uname's spelling ({@code amd64} is {@code x86_64}).
     */
    static String arch(String procArch, String javaArch) {
        String fromKernel = procArch.strip();
        if (!fromKernel.isEmpty()) {
            return fromKernel;
        }
        return switch (javaArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> "x86_64";
            case "x86", "i386" -> "i686";
            default -> javaArch;
        };
    }

    /** uname -s, -r and -v joined by spaces, as slurmd joins them; the JVM's name without /proc. */
    static String os(String ostype, String release, String version, String javaName) {
        String sys = ostype.strip();
        if (sys.isEmpty()) {
            return javaName;
        }
        return String.join(" ", sys, release.strip(), version.strip()).strip();
    }

    /** Now less the seconds /proc/uptime gives (its first figure); 0 without it. */
    static long bootTime(String procUptime, long now) {
        String[] fields = procUptime.strip().split("\\s+");
        try {
            double up = Double.parseDouble(fields[0]);
            return now - (long) up;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
