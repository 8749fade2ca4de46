package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.gres.GresSpec;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.time.TimeLimit;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code sluice-ctld --check-config FILE}: reads {@code slurm.conf} (and {@code gres.conf} and
 * {@code cgroup.conf} when they sit next to it, as Slurm expects them), then prints what was
 * understood, or the error with its location.
 *
 * <p>A configuration without nodes or partitions is valid: current Slurm (unlike 22.05's
 * slurmctld) starts without them, and Sluice nodes may register dynamically.
 *
 * <p>Exit status 0 when the configuration would be accepted, 1 when not. The report goes to {@code
 * out}; the error, file:line first, goes to {@code err}.
 */
public final class ConfigCheck {

    private ConfigCheck() {}

    public static int run(Path file, PrintStream out, PrintStream err) {
        requireNonNull(file, "file is null");
        requireNonNull(out, "out is null");
        requireNonNull(err, "err is null");
        try {
            SlurmConf conf = SlurmConfReader.read(file);
            Path dir = file.toAbsolutePath().getParent();
            GresConf gres = null;
            Path gresPath = dir.resolve("gres.conf");
            if (Files.isRegularFile(gresPath)) {
                gres = GresConfReader.read(gresPath);
            }
            Path cgroupPath = dir.resolve("cgroup.conf");
            if (Files.isRegularFile(cgroupPath)) {
                CgroupConfReader.read(cgroupPath);
            }
            report(file, conf, gres, out);
            return 0;
        } catch (ConfigException e) {
            err.println("sluice-ctld: error: " + e.getMessage());
            err.println("sluice-ctld: configuration " + file + " was rejected");
            return 1;
        }
    }

    private static void report(Path file, SlurmConf conf, GresConf gres, PrintStream out) {
        out.println("Configuration " + file + " is valid.");
        out.println("ClusterName=" + conf.clusterName());
        List<String> ctl = new ArrayList<>();
        conf.controlHostEntries()
                .forEach(h -> ctl.add(h.name().equals(h.addr()) ? h.name() : h.name() + "(" + h.addr() + ")"));
        out.println("SlurmctldHost=" + String.join(",", ctl) + " SlurmctldPort=" + conf.slurmctldPort() + " SlurmdPort="
                + conf.slurmdPort());
        out.println("StateSaveLocation=" + conf.stateSaveLocation() + " SlurmdSpoolDir=" + conf.slurmdSpoolDir());
        out.println("GresTypes=" + (conf.gresTypes().isEmpty() ? "(none)" : String.join(",", conf.gresTypes()))
                + " SelectType=" + conf.selectType() + " Configless=" + (conf.enableConfigless() ? "yes" : "no"));
        out.println();
        out.println("Nodes (" + conf.nodes().size() + "):");
        for (Map.Entry<String, List<String>> g : groupNodes(conf).entrySet()) {
            out.println("  " + HostList.compressSorted(g.getValue()) + " " + g.getKey());
        }
        out.println();
        out.println("Partitions (" + conf.partitions().size() + "):");
        for (PartitionConf p : conf.partitions()) {
            out.println("  " + p.name() + (p.isDefault() ? "*" : "") + " Nodes="
                    + (p.nodeNames().isEmpty() ? "(null)" : HostList.compressSorted(p.nodeNames()))
                    + " MaxTime=" + TimeLimit.format(p.limits().maxTimeMinutes()) + " State=" + p.state()
                    + (p.access().allowGroups().isEmpty()
                            ? ""
                            : " AllowGroups=" + String.join(",", p.access().allowGroups())));
        }
        if (gres != null) {
            out.println();
            out.println("gres.conf (" + gres.lines().size() + " lines, AutoDetect="
                    + gres.autoDetect().orElse("off") + "):");
            Map<String, List<String>> byDevices = new LinkedHashMap<>();
            for (NodeConf n : conf.nodes()) {
                List<String> items = new ArrayList<>();
                for (GresConfLine l : gres.forNode(n.name())) {
                    items.add(l.name() + l.type().map(t -> ":" + t).orElse("") + ":" + GresSpec.formatCount(l.count())
                            + (l.files().isEmpty() ? "" : "(" + HostList.compress(l.files()) + ")"));
                }
                if (!items.isEmpty()) {
                    byDevices
                            .computeIfAbsent(String.join(",", items), k -> new ArrayList<>())
                            .add(n.name());
                }
            }
            byDevices.forEach((devices, nodes) -> out.println("  " + HostList.compressSorted(nodes) + " " + devices));
        }
        List<String> warnings = new ArrayList<>(conf.warnings());
        warnings.addAll(crossChecks(conf, gres));
        if (!warnings.isEmpty()) {
            out.println();
            out.println("Warnings (" + warnings.size() + "):");
            warnings.forEach(w -> out.println("  " + w));
        }
        if (!conf.ignoredKeys().isEmpty()) {
            out.println();
            out.println("Accepted but ignored by Sluice (" + conf.ignoredKeys().size() + "):");
            conf.ignoredKeys().forEach(k -> out.println("  " + k));
        }
    }

    /** Nodes with identical resources, so a 1000-node cluster prints a few lines. */
    private static Map<String, List<String>> groupNodes(SlurmConf conf) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (NodeConf n : conf.nodes()) {
            String key = "CPUs=" + n.hardware().cpus() + " Boards="
                    + n.hardware().boards() + " SocketsPerBoard=" + n.hardware().socketsPerBoard()
                    + " CoresPerSocket=" + n.hardware().coresPerSocket() + " ThreadsPerCore="
                    + n.hardware().threadsPerCore()
                    + " RealMemory=" + n.hardware().realMemoryMb()
                    + (n.gres().specs().isEmpty() ? "" : " Gres=" + n.gres().raw())
                    + (n.features().isEmpty() ? "" : " Features=" + String.join(",", n.features()))
                    + (n.weight() == 1 ? "" : " Weight=" + n.weight())
                    + (n.status().state().equals("UNKNOWN")
                            ? ""
                            : " State=" + n.status().state());
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(n.name());
        }
        return groups;
    }

    /** Consistency remarks that Slurm reports at run time rather than refusing to start. */
    static List<String> crossChecks(SlurmConf conf, GresConf gres) {
        List<String> w = new ArrayList<>();
        List<String> types =
                conf.gresTypes().stream().map(t -> t.toLowerCase(Locale.ROOT)).toList();
        for (NodeConf n : conf.nodes()) {
            n.gres().specs().stream()
                    .map(g -> g.name().toLowerCase(Locale.ROOT))
                    .filter(g -> !types.contains(g))
                    .distinct()
                    .forEach(g -> w.add(n.source() + ": node " + n.name() + " has Gres " + g
                            + " that is not in GresTypes; Slurm will not schedule it"));
        }
        conf.value("PluginDir")
                .ifPresent(dir -> w.add("PluginDir=" + dir + " is ignored: Sluice loads no plugins"
                        + " (Slurm refuses to start when this directory does not exist)"));
        if (gres != null) {
            w.addAll(gres.warnings());
            java.util.Set<String> known = new java.util.HashSet<>();
            conf.nodes().forEach(n -> known.add(n.name()));
            for (GresConfLine l : gres.lines()) {
                List<String> unknown =
                        l.nodeNames().stream().filter(n -> !known.contains(n)).toList();
                if (!unknown.isEmpty() && !conf.nodes().isEmpty()) {
                    w.add(l.source() + ": NodeName " + HostList.compress(unknown)
                            + " is not defined in slurm.conf (fine for nodes that register dynamically)");
                }
            }
            for (NodeConf n : conf.nodes()) {
                for (String name :
                        n.gres().specs().stream().map(g -> g.name()).distinct().toList()) {
                    long configured = n.gres().count(name);
                    long inFile = gres.countFor(n.name(), name);
                    boolean detected = !gres.autoDetectFor(n.name()).equals("off");
                    if (inFile > 0 && inFile != configured && !detected) {
                        w.add("node " + n.name() + ": slurm.conf says " + name + "=" + configured
                                + " but gres.conf has " + inFile + "; the node will be drained when it registers");
                    }
                }
            }
        }
        return w;
    }
}
