package dev.sluice.noded.server;

import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.NodeConf;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.common.site.SluiceConf;
import dev.sluice.noded.probe.HardwareProbe;
import dev.sluice.protocol.v1.NodeHardware;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * {@code sluice-noded}: the node daemon's command line, in slurmd's manner.
 *
 * <pre>
 * sluice-noded [-D] [-f slurm.conf] [-N nodename] [--port N] [--addr ADDR] [--spool-dir DIR]
 *              [-Z --conf "CPUs=8 RealMemory=64000 Gres=gpu:3 Feature=a100"]
 * sluice-noded -C
 * </pre>
 */
public final class NodedMain {
    private NodedMain() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) throws Exception {
        Path confPath = Path.of(env.getOrDefault("SLURM_CONF", "/etc/slurm/slurm.conf"));
        String name = InetAddress.getLocalHost().getHostName().split("\\.")[0];
        Integer port = null;
        String addr = null;
        String spool = null;
        boolean dynamic = false;
        String dynConf = "";
        boolean print = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-D" -> {}
                case "-C" -> print = true;
                case "-Z" -> dynamic = true;
                case "-f" -> confPath = Path.of(args[++i]);
                case "-N" -> name = args[++i];
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--addr" -> addr = args[++i];
                case "--spool-dir" -> spool = args[++i];
                case "--conf" -> dynConf = args[++i];
                default -> {
                    err.println("sluice-noded: unrecognized option '" + args[i] + "'");
                    return 1;
                }
            }
        }
        HardwareProbe.Detected detected = HardwareProbe.detect();
        if (print) {
            long uptime = (long) Double.parseDouble(uptimeSeconds());
            out.println(HardwareProbe.describe(name, detected, uptime));
            return 0;
        }
        SlurmConf conf;
        try {
            conf = SlurmConfReader.read(confPath);
        } catch (ConfigException e) {
            err.println("sluice-noded: fatal: " + e.getMessage());
            return 1;
        }
        String nodeName = name;
        Optional<NodeConf> configured =
                conf.nodes().stream().filter(n -> n.name().equals(nodeName)).findFirst();
        if (configured.isEmpty() && !dynamic) {
            err.println("sluice-noded: fatal: Unable to determine this slurmd's NodeName (" + nodeName + " is not in "
                    + confPath + "; use -N or -Z)");
            return 1;
        }
        String dynamicConf = dynConf;
        NodeHardware hardware =
                configured.map(NodedMain::hardware).orElseGet(() -> dynamicHardware(detected, dynamicConf));
        int listen = port != null ? port : configured.map(NodeConf::port).orElse(conf.slurmdPort());
        String spoolDir = (spool != null ? spool : conf.slurmdSpoolDir()).replace("%n", nodeName);
        SluiceConf site = SluiceConf.besides(confPath);
        var ctl = conf.controlHostEntries().get(0);
        String ctlHost = ctl.addr() == null || ctl.addr().isEmpty() ? ctl.name() : ctl.addr();
        NodedSettings settings = new NodedSettings(
                nodeName,
                configured.map(NodeConf::hostname).orElse(nodeName),
                addr != null ? addr : configured.map(NodeConf::addr).orElse(nodeName),
                "0.0.0.0",
                listen,
                hardware,
                dynamic && configured.isEmpty(),
                spoolDir,
                ctlHost,
                site.slurmctldGrpcPort().orElse(conf.slurmctldPort() + 100));
        NodedServer server = NodedServer.start(settings);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }

    private static String uptimeSeconds() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/uptime")).split("\\s+")[0];
        } catch (java.io.IOException e) {
            return "0";
        }
    }

    static NodeHardware hardware(NodeConf n) {
        return NodeHardware.newBuilder()
                .setCpus(n.cpus())
                .setBoards(n.boards())
                .setSockets(n.sockets())
                .setCoresPerSocket(n.coresPerSocket())
                .setThreadsPerCore(n.threadsPerCore())
                .setRealMemoryMb(n.realMemoryMb())
                .setTmpDiskMb(n.tmpDiskMb())
                .setGres(n.gres())
                .addAllFeatures(n.features())
                .build();
    }

    /** {@code -Z --conf "CPUs=8 RealMemory=64000 Gres=gpu:3 Feature=a100"} over detected values. */
    static NodeHardware dynamicHardware(HardwareProbe.Detected d, String conf) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String token : conf.trim().split("\\s+")) {
            int eq = token.indexOf('=');
            if (eq > 0) {
                kv.put(token.substring(0, eq).toLowerCase(Locale.ROOT), token.substring(eq + 1));
            }
        }
        NodeHardware.Builder b = NodeHardware.newBuilder()
                .setCpus(Integer.parseInt(kv.getOrDefault("cpus", Integer.toString(d.cpus()))))
                .setBoards(d.boards())
                .setSockets(d.sockets())
                .setCoresPerSocket(d.coresPerSocket())
                .setThreadsPerCore(
                        Integer.parseInt(kv.getOrDefault("threadspercore", Integer.toString(d.threadsPerCore()))))
                .setRealMemoryMb(Long.parseLong(kv.getOrDefault("realmemory", Long.toString(d.realMemoryMb()))))
                .setGres(kv.getOrDefault("gres", ""));
        String features = kv.getOrDefault("feature", kv.getOrDefault("features", ""));
        if (!features.isEmpty()) {
            b.addAllFeatures(java.util.List.of(features.split(",")));
        }
        if (kv.containsKey("cpus") && !kv.containsKey("threadspercore")) {
            b.setSockets(b.getCpus()).setCoresPerSocket(1).setThreadsPerCore(1);
        }
        return b.build();
    }
}
