package dev.sluice.noded.probe.gres;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.conf.GresConf;
import dev.sluice.common.conf.GresConfLine;
import dev.sluice.common.gres.GresSpec;
import dev.sluice.common.hostlist.IndexRanges;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Finds the GRES of one node: NVML's GPUs when gres.conf says {@code AutoDetect=nvml} and NVML
 * answers, otherwise (and for every other name) the {@code File=} lines of gres.conf with each
 * path checked to exist. The controller compares the counts with the configuration and drains
 * the node when fewer were found. Pure apart from the two seams it is given.
 */
public final class GresDiscovery {
    private final Nvml nvml;
    private final Predicate<String> fileExists;

    /** @param fileExists true for a path that exists (a character device or a plain file) */
    public GresDiscovery(Nvml nvml, Predicate<String> fileExists) {
        this.nvml = requireNonNull(nvml, "nvml is null");
        this.fileExists = requireNonNull(fileExists, "fileExists is null");
    }

    /**
     * One discovered group: a gres.conf line's worth, or one NVML device.
     *
     * @param cores gres.conf's {@code Cores=} form ({@code 0-15}), empty when unknown
     * @param links gres.conf's {@code Links=} form ({@code -1,2,0}), empty when unknown
     */
    public record Found(
            String name,
            String type,
            long count,
            List<String> files,
            String cores,
            String links,
            List<String> problems) {
        public Found {
            files = List.copyOf(files);
            problems = List.copyOf(problems);
        }
    }

    /** What was found, and the lines worth logging about how. */
    public record Result(List<Found> found, List<String> log) {
        public Result {
            found = List.copyOf(found);
            log = List.copyOf(log);
        }
    }

    /**
     * @param nodeGres the node's configured {@code Gres=} (its types guide NVML name matching)
     * @param totalCores cores of the node, to turn NVML's CPU ids into core ids
     */
    public Result discover(String nodeName, List<GresSpec> nodeGres, GresConf gresConf, int totalCores) {
        List<Found> found = new ArrayList<>();
        List<String> log = new ArrayList<>();
        List<GresConfLine> lines = gresConf.forNode(nodeName);
        String mode = gresConf.autoDetectFor(nodeName).toLowerCase(Locale.ROOT);
        boolean gpusFromNvml = false;
        if (mode.equals("nvml")) {
            try {
                List<NvmlDevice> devices = nvml.devices();
                found.addAll(fromNvml(devices, configuredTypes(nodeGres, lines), totalCores));
                gpusFromNvml = true;
                log.add("AutoDetect=nvml: " + devices.size() + " GPU(s) found by NVML");
            } catch (Nvml.NvmlUnavailableException e) {
                log.add("AutoDetect=nvml: " + e.getMessage() + "; using the File= lines of gres.conf");
            }
        } else if (!mode.equals("off") && !mode.isEmpty()) {
            log.add("AutoDetect=" + mode + " is not supported by Sluice; using the File= lines of gres.conf");
        }
        for (GresConfLine line : lines) {
            if ((gpusFromNvml && line.name().equals("gpu")) || line.files().isEmpty()) {
                // Count-only lines are believed: there is nothing on the machine to check.
                continue;
            }
            List<String> present = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            for (String file : line.files()) {
                if (fileExists.test(file)) {
                    present.add(file);
                } else {
                    problems.add("gres/" + line.name() + ": File=" + file + " does not exist");
                }
            }
            problems.forEach(log::add);
            long count = line.count() == line.files().size()
                    ? present.size()
                    : line.count() * present.size() / line.files().size();
            found.add(new Found(
                    line.name(),
                    line.type().orElse(""),
                    count,
                    present,
                    IndexRanges.format(line.affinity().cores()),
                    line.affinity().links(),
                    problems));
        }
        return new Result(found, log);
    }

    private static List<String> configuredTypes(List<GresSpec> nodeGres, List<GresConfLine> lines) {
        Set<String> types = new LinkedHashSet<>();
        nodeGres.stream()
                .filter(s -> s.name().equals("gpu"))
                .forEach(s -> s.type().ifPresent(types::add));
        lines.stream().filter(l -> l.name().equals("gpu")).forEach(l -> l.type().ifPresent(types::add));
        return List.copyOf(types);
    }

    /**
     * One GRES per GPU, or per MIG instance (typed by its profile) when MIG is on. As slurmd's
     * nvml plugin: the type is
     * the device name lower-cased with spaces as {@code _}, unless a configured type is a
     * substring of it, in which case that type is used ({@code a100} for {@code NVIDIA A100-SXM4-40GB}).
     */
    static List<Found> fromNvml(List<NvmlDevice> devices, List<String> configuredTypes, int totalCores) {
        List<Found> out = new ArrayList<>();
        for (NvmlDevice d : devices) {
            String cores = IndexRanges.format(d.cpuAffinity().stream()
                    .map(cpu -> totalCores > 0 ? cpu % totalCores : cpu)
                    .toList());
            if (!d.migs().isEmpty()) {
                for (NvmlDevice.Mig m : d.migs()) {
                    out.add(new Found(
                            "gpu",
                            type(profile(m.name()), configuredTypes),
                            1,
                            List.of(d.deviceFile()),
                            cores,
                            "",
                            List.of()));
                }
                continue;
            }
            out.add(new Found(
                    "gpu",
                    type(d.name(), configuredTypes),
                    1,
                    List.of(d.deviceFile()),
                    cores,
                    links(d, devices),
                    List.of()));
        }
        return out;
    }

    /** A MIG instance is typed by its profile, as gres.conf's MIG examples ({@code 1g.5gb}). */
    static String profile(String migName) {
        int at = migName.lastIndexOf(" MIG ");
        return at < 0 ? migName : migName.substring(at + 5);
    }

    static String type(String nvmlName, List<String> configuredTypes) {
        String normalized = nvmlName.toLowerCase(Locale.ROOT).replace(' ', '_');
        // Longest first: "a100-sxm4" is a better match than "a100" when both are configured.
        return configuredTypes.stream()
                .sorted((a, b) -> b.length() - a.length())
                .filter(t -> normalized.contains(t.toLowerCase(Locale.ROOT)))
                .findFirst()
                .orElse(normalized);
    }

    /** gres.conf's {@code Links=}: per GPU in index order, -1 for itself, else the NVLinks to it. */
    static String links(NvmlDevice self, List<NvmlDevice> all) {
        if (self.nvlinkPeers().isEmpty()) {
            return "";
        }
        List<String> counts = new ArrayList<>();
        for (NvmlDevice other : all) {
            if (other.index() == self.index()) {
                counts.add("-1");
            } else {
                long n = self.nvlinkPeers().stream()
                        .filter(p -> p.equalsIgnoreCase(other.pciBusId()))
                        .count();
                counts.add(Long.toString(n));
            }
        }
        return String.join(",", counts);
    }
}
