package dev.sluice.noded.server;

import dev.sluice.common.conf.CgroupConf;
import dev.sluice.common.conf.CgroupConfReader;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.GresConf;
import dev.sluice.common.conf.GresConfLine;
import dev.sluice.common.conf.GresConfReader;
import dev.sluice.common.conf.ListenAddress;
import dev.sluice.common.conf.NodeConf;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.common.gres.GresSpec;
import dev.sluice.common.site.SluiceConf;
import dev.sluice.noded.confine.ConfinementPolicy;
import dev.sluice.noded.confine.GresDevices;
import dev.sluice.noded.probe.HardwareProbe;
import dev.sluice.noded.probe.gres.GresDiscovery;
import dev.sluice.protocol.v1.GresFound;
import dev.sluice.protocol.v1.NodeHardware;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the configuration files and what this machine has into the daemon's settings: the
 * node's line in slurm.conf (or {@code -Z --conf} for a dynamic node), the controller's address,
 * the detected hardware and the GRES discovery from gres.conf. Run at start and again on
 * {@code scontrol reconfigure}.
 */
final class NodeSetup {
    private static final Logger log = LoggerFactory.getLogger(NodeSetup.class);

    private NodeSetup() {}

    /**
     * What the command line fixed.
     *
     * @param named whether {@code -N} gave the name (else it is this host's)
     */
    record Options(
            String name, boolean named, Integer port, String addr, String spool, boolean dynamic, String dynamicConf) {}

    static NodedSettings load(Path confPath, Options o, HardwareProbe.Detected detected, GresDiscovery discovery)
            throws ConfigException, java.io.IOException {
        SlurmConf conf = SlurmConfReader.read(confPath);
        Path gresPath = confPath.toAbsolutePath().resolveSibling("gres.conf");
        GresConf gresConf =
                Files.exists(gresPath) ? GresConfReader.read(gresPath) : GresConfReader.parse("", "gres.conf");
        Optional<NodeConf> configured =
                conf.nodes().stream().filter(n -> n.name().equals(o.name())).findFirst();
        if (configured.isEmpty() && !o.dynamic() && o.named()) {
            // As slurmd -N for a node slurm.conf does not list: one the controller knows, made
            // by "scontrol create NodeName=... State=FUTURE" (or CLOUD). It registers the
            // hardware found here; the controller holds it to the node's own definition.
            log.info(
                    "{} is not in {}: registering as a node the controller knows (scontrol create ... State=FUTURE)",
                    o.name(),
                    confPath);
        } else if (configured.isEmpty() && !o.dynamic()) {
            throw new ConfigException(
                    confPath.toString(),
                    0,
                    null,
                    "Unable to determine this slurmd's NodeName (" + o.name() + " is not in " + confPath
                            + "; use -N or -Z)");
        }
        NodeHardware hardware = configured
                .map(NodedMain::hardware)
                .orElseGet(() -> NodedMain.dynamicHardware(detected, o.dynamicConf()));
        int listen = o.port() != null
                ? o.port()
                : configured.map(n -> n.address().port()).orElse(conf.slurmdPort());
        String spoolDir = (o.spool() != null ? o.spool() : conf.slurmdSpoolDir()).replace("%n", o.name());
        SluiceConf site = SluiceConf.besides(confPath);
        var ctl = conf.controlHostEntries().get(0);
        String ctlHost = ctl.addr() == null || ctl.addr().isEmpty() ? ctl.name() : ctl.addr();

        int totalCores = Math.max(1, hardware.getSockets() * hardware.getCoresPerSocket());
        GresDiscovery.Result gres =
                discovery.discover(o.name(), GresSpec.parseNodeList(hardware.getGres()), gresConf, totalCores);
        gres.log().forEach(line -> log.info("{}", line));
        Map<String, String> own = NodedMain.dynamicPairs(o.dynamicConf());
        String addr = registeredAddr(o, configured, own);
        return new NodedSettings(
                new NodedSettings.Node(
                        o.name(),
                        configured
                                .map(n -> n.address().hostname())
                                .orElseGet(() -> own.getOrDefault("nodehostname", o.name())),
                        addr,
                        // Every address, unless CommunicationParameters=NoInAddrAny: then NodeAddr only.
                        addr.isEmpty() ? "0.0.0.0" : ListenAddress.node(conf, addr),
                        listen,
                        o.dynamic() && configured.isEmpty()),
                new NodedSettings.Resources(
                        hardware,
                        detected(detected),
                        wire(gres.found()),
                        gresDevices(gresConf.forNode(o.name()), gres.found())),
                new NodedSettings.Controller(
                        ctlHost, site.slurmctldGrpcPort().orElse(conf.slurmctldPort() + 100), conf.slurmUser()),
                new NodedSettings.Jobs(
                        spoolDir,
                        conf.prolog(),
                        conf.epilog(),
                        conf.taskPlugin(),
                        ConfinementPolicy.of(cgroupConf(confPath), conf.taskPlugin()),
                        conf.prologFlags()));
    }

    /**
     * The address this node registers: {@code --addr}, else its slurm.conf {@code NodeAddr}, else
     * a dynamic node's {@code --conf NodeAddr=}, else none, and the controller takes the address
     * the registration comes from. Never the bare node name: a dynamic node's name need not
     * resolve anywhere (a pod's, a cloud instance's).
     */
    static String registeredAddr(Options o, Optional<NodeConf> configured, Map<String, String> dynamicConf) {
        if (o.addr() != null) {
            return o.addr();
        }
        return configured.map(n -> n.address().addr()).orElseGet(() -> dynamicConf.getOrDefault("nodeaddr", ""));
    }

    /** cgroup.conf beside slurm.conf (fetched with it when configless); empty when there is none. */
    static Optional<CgroupConf> cgroupConf(Path confPath) throws ConfigException {
        Path path = confPath.toAbsolutePath().resolveSibling("cgroup.conf");
        return Files.exists(path) ? Optional.of(CgroupConfReader.read(path)) : Optional.empty();
    }

    /**
     * The node's device files by GRES name in index order: gres.conf's {@code File=} lines as the
     * controller numbers them, or, for GPUs NVML found, NVML's device files in its order.
     */
    static GresDevices gresDevices(List<GresConfLine> lines, List<GresDiscovery.Found> found) {
        Map<String, List<String>> files = new LinkedHashMap<>();
        for (GresConfLine line : lines) {
            files.computeIfAbsent(line.name(), k -> new ArrayList<>()).addAll(line.files());
        }
        if (files.getOrDefault("gpu", List.of()).isEmpty()) {
            List<String> gpus = new ArrayList<>();
            found.stream().filter(f -> f.name().equals("gpu")).forEach(f -> gpus.addAll(f.files()));
            files.put("gpu", gpus);
        }
        files.values().removeIf(List::isEmpty);
        return new GresDevices(files);
    }

    static NodeHardware detected(HardwareProbe.Detected d) {
        return NodeHardware.newBuilder()
                .setCpus(d.cpus())
                .setBoards(d.boards())
                .setSockets(d.sockets())
                .setCoresPerSocket(d.coresPerSocket())
                .setThreadsPerCore(d.threadsPerCore())
                .setRealMemoryMb(d.realMemoryMb())
                .build();
    }

    static List<GresFound> wire(List<GresDiscovery.Found> found) {
        List<GresFound> out = new ArrayList<>();
        for (GresDiscovery.Found f : found) {
            out.add(GresFound.newBuilder()
                    .setName(f.name())
                    .setType(f.type())
                    .setCount(f.count())
                    .addAllFiles(f.files())
                    .setCores(f.cores())
                    .setLinks(f.links())
                    .addAllProblems(f.problems())
                    .build());
        }
        return out;
    }

    /** {@code gpu:2,gpu:a100:1} style summary for the log. */
    static String summary(List<GresFound> found) {
        Map<String, Long> totals = new LinkedHashMap<>();
        found.forEach(f -> totals.merge(
                f.getType().isEmpty() ? f.getName() : f.getName() + ":" + f.getType(), f.getCount(), Long::sum));
        List<String> parts = new ArrayList<>();
        totals.forEach((k, v) -> parts.add(k + ":" + v));
        return parts.isEmpty() ? "(none checked)" : String.join(",", parts).toLowerCase(Locale.ROOT);
    }
}
