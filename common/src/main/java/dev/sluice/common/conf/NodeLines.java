package dev.sluice.common.conf;

import dev.sluice.common.gres.GresSpec;
import dev.sluice.common.hostlist.HostList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns {@code NodeName} lines into {@link NodeConf}s, one per node, with slurm.conf(5)'s rules:
 *
 * <ul>
 *   <li>{@code NodeName=DEFAULT} lines set defaults for the lines after them (later defaults add to
 *       and override earlier ones);
 *   <li>a hostlist in {@code NodeName} makes one node per name; {@code NodeHostname}, {@code
 *       NodeAddr} and {@code Port} lists are matched to the names by position;
 *   <li>topology defaults as Slurm 22.05 applies them: zero counts become 1; without {@code
 *       Sockets}/{@code SocketsPerBoard}, sockets = CPUs / (cores × threads) when that divides
 *       evenly, else = boards; without {@code CPUs}, CPUs = sockets × cores × threads; a {@code
 *       CPUs} value that is neither sockets, sockets × cores nor sockets × cores × threads is
 *       replaced by the full product (Slurm logs and corrects it too).
 * </ul>
 */
final class NodeLines {

    private static final Set<String> STATES = Set.of(
            "CLOUD",
            "DOWN",
            "DRAIN",
            "FAIL",
            "FAILING",
            "FUTURE",
            "UNKNOWN",
            "IDLE",
            "NO_RESPOND",
            "POWER_DOWN",
            "POWERED_DOWN");

    /** CpuBind words of slurm.conf(5); others are logged and ignored, as Slurm does. */
    static final Set<String> CPU_BIND = Set.of("none", "socket", "ldom", "core", "thread", "board");

    private NodeLines() {}

    static List<NodeConf> build(List<List<ConfEntry>> lines, int slurmdPort, List<String> warnings)
            throws ConfigException {
        Map<String, ConfEntry> defaults = new HashMap<>();
        Map<String, NodeConf> nodes = new LinkedHashMap<>();
        for (List<ConfEntry> line : lines) {
            ConfEntry head = line.getFirst();
            Map<String, ConfEntry> own = new HashMap<>();
            for (ConfEntry e : line.subList(1, line.size())) {
                own.put(e.key(), e);
            }
            // Feature and Features are synonyms; on one line Slurm takes Feature.
            ConfEntry features = own.remove("Features");
            if (features != null) {
                own.putIfAbsent("Feature", features);
            }
            if (head.value().equalsIgnoreCase("DEFAULT")) {
                for (String k : List.of("NodeHostname", "NodeAddr", "BcastAddr")) {
                    if (own.containsKey(k)) {
                        throw own.get(k).error(k + " not allowed with NodeName=DEFAULT");
                    }
                }
                defaults.putAll(own);
                continue;
            }
            Map<String, ConfEntry> eff = new HashMap<>(defaults);
            eff.putAll(own);
            for (NodeConf n : expand(head, eff, slurmdPort, warnings)) {
                if (nodes.containsKey(n.name())) {
                    throw head.error("Duplicated NodeName " + n.name());
                }
                nodes.put(n.name(), n);
            }
        }
        return List.copyOf(nodes.values());
    }

    private static List<NodeConf> expand(
            ConfEntry head, Map<String, ConfEntry> eff, int slurmdPort, List<String> warnings) throws ConfigException {
        List<String> names = hosts(head);
        List<String> hostnames = positional(eff.get("NodeHostname"), names, "NodeHostname");
        List<String> addrs = positional(eff.get("NodeAddr"), names, "NodeAddr");
        List<Integer> ports = ports(eff.get("Port"), names.size(), slurmdPort);
        Topology t = topology(eff);
        String at = ConfSource.of(head) + ": NodeNames=" + head.value();
        if (eff.containsKey("Sockets") && eff.containsKey("SocketsPerBoard")) {
            warnings.add(at + " Sockets=# and SocketsPerBoard=# is invalid , using SocketsPerBoard");
        }
        String cpuBind = str(eff, "CpuBind", "");
        if (!cpuBind.isEmpty() && !CPU_BIND.contains(cpuBind.toLowerCase(java.util.Locale.ROOT))) {
            warnings.add(at + " CpuBind='" + cpuBind + "' is invalid, ignored");
        }
        long realMemory = num(eff, "RealMemory", 1);
        // Slurm corrects these three with a logged error rather than refusing the file.
        long coreSpec = num(eff, "CoreSpecCount", 0);
        if (coreSpec >= (long) t.boards * t.socketsPerBoard * t.cores) {
            warnings.add(at + " CoreSpecCount=" + coreSpec + " is invalid, reset to 1");
            coreSpec = 1;
        }
        String cpuSpecList = str(eff, "CPUSpecList", "");
        if (coreSpec > 0 && !cpuSpecList.isEmpty()) {
            warnings.add(at + " CoreSpecCount=" + coreSpec + " is invalid with CPUSpecList, reset to 0");
            coreSpec = 0;
        }
        long memSpec = num(eff, "MemSpecLimit", 0);
        if (memSpec >= realMemory) {
            warnings.add(at + " MemSpecLimit=" + memSpec + " is invalid, reset to 0");
            memSpec = 0;
        }
        long tmpDisk = num(eff, "TmpDisk", 0);
        long weight = num(eff, "Weight", 1);
        String gres = str(eff, "Gres", "");
        List<GresSpec> gresList;
        try {
            gresList = GresSpec.parseNodeList(gres);
        } catch (IllegalArgumentException ex) {
            throw eff.get("Gres").error(ex.getMessage());
        }
        List<String> features = Values.list(str(eff, "Feature", ""));
        String state = SlurmConfReader.upper(str(eff, "State", "UNKNOWN"));
        for (String part : state.split("\\+")) {
            if (!STATES.contains(part)) {
                throw eff.get("State")
                        .error("Invalid node state \"" + eff.get("State").value() + "\"");
            }
        }
        List<NodeConf> out = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String hostname = hostnames == null ? names.get(i) : hostnames.get(i);
            String addr = addrs == null ? hostname : addrs.get(i);
            out.add(NodeConf.builder(names.get(i))
                    .hostname(hostname)
                    .addr(addr)
                    .port(ports.get(i))
                    .cpus(t.cpus)
                    .boards(t.boards)
                    .socketsPerBoard(t.socketsPerBoard)
                    .coresPerSocket(t.cores)
                    .threadsPerCore(t.threads)
                    .realMemoryMb(realMemory)
                    .tmpDiskMb(tmpDisk)
                    .gres(new NodeConf.Gres(gres, gresList))
                    .features(features)
                    .weight(weight)
                    .status(new NodeConf.Status(state, str(eff, "Reason", "")))
                    .spec(new NodeConf.Specialization((int) coreSpec, cpuSpecList, memSpec))
                    .source(ConfSource.of(head))
                    .build());
        }
        return out;
    }

    private static List<String> hosts(ConfEntry e) throws ConfigException {
        try {
            List<String> h = HostList.expand(e.value());
            if (h.isEmpty()) {
                throw e.error(e.key() + " names no host");
            }
            return h;
        } catch (IllegalArgumentException ex) {
            throw e.error(ex.getMessage());
        }
    }

    /**
     * Matches a NodeHostname/NodeAddr list to the node names: as many as there are names, or a
     * single value shared by all (several daemons on one host, as in a test cluster).
     */
    private static List<String> positional(ConfEntry e, List<String> names, String key) throws ConfigException {
        if (e == null) {
            return null;
        }
        List<String> values = hosts(e);
        if (values.size() == 1) {
            return java.util.Collections.nCopies(names.size(), values.getFirst());
        }
        if (values.size() != names.size()) {
            throw e.error(key + " count must equal that of NodeName records or there must be no more than one ("
                    + values.size() + " != " + names.size() + ")");
        }
        return values;
    }

    private static List<Integer> ports(ConfEntry e, int count, int slurmdPort) throws ConfigException {
        List<Integer> out = new ArrayList<>();
        if (e == null) {
            for (int i = 0; i < count; i++) {
                out.add(slurmdPort);
            }
            return out;
        }
        String v = e.value();
        List<String> items;
        try {
            items = HostList.expand(v.contains("[") ? "p" + v : v.contains("-") ? "p[" + v + "]" : v);
        } catch (IllegalArgumentException ex) {
            throw e.error("Invalid Port \"" + v + "\"");
        }
        for (String s : items) {
            String digits = s.startsWith("p") ? s.substring(1) : s;
            if (digits.isEmpty()
                    || digits.length() > 5
                    || !digits.chars().allMatch(Character::isDigit)
                    || Integer.parseInt(digits) > 65535) {
                throw e.error("Invalid Port \"" + v + "\"");
            }
            out.add(Integer.parseInt(digits));
        }
        if (out.size() == 1) {
            while (out.size() < count) {
                out.add(out.getFirst());
            }
        } else if (out.size() != count) {
            throw e.error("Port count must equal that of NodeName records or there must be no more than one ("
                    + out.size() + " != " + count + ")");
        }
        return out;
    }

    private record Topology(int cpus, int boards, int socketsPerBoard, int cores, int threads) {}

    private static Topology topology(Map<String, ConfEntry> eff) {
        Long cpusGiven = null;
        if (eff.containsKey("CPUs")) {
            cpusGiven = num(eff, "CPUs", 1);
        } else if (eff.containsKey("Procs")) {
            cpusGiven = num(eff, "Procs", 1);
        }
        long boards = atLeastOne(num(eff, "Boards", 1));
        long cores = atLeastOne(num(eff, "CoresPerSocket", 1));
        long threads = atLeastOne(num(eff, "ThreadsPerCore", 1));
        Long sockets = eff.containsKey("Sockets") ? atLeastOne(num(eff, "Sockets", 1)) : null;
        Long perBoard = eff.containsKey("SocketsPerBoard") ? atLeastOne(num(eff, "SocketsPerBoard", 1)) : null;
        if (perBoard != null) {
            // Slurm: Sockets and SocketsPerBoard are mutually exclusive; SocketsPerBoard wins.
            sockets = boards * perBoard;
        } else if (sockets == null) {
            long c = cpusGiven == null ? 0 : atLeastOne(cpusGiven);
            sockets =
                    (c > 0 && c / (cores * threads) > 0 && c % (cores * threads) == 0) ? c / (cores * threads) : boards;
        }
        long cpus = cpusGiven == null ? sockets * cores * threads : atLeastOne(cpusGiven);
        if (sockets < boards) {
            boards = 1;
        }
        if (cpus != sockets && cpus != sockets * cores && cpus != sockets * cores * threads) {
            cpus = sockets * cores * threads;
        }
        return new Topology(clamp(cpus), (int) boards, clamp(sockets / boards), (int) cores, (int) threads);
    }

    private static long atLeastOne(long v) {
        return v == 0 ? 1 : v;
    }

    private static int clamp(long v) {
        return (int) Math.min(v, Integer.MAX_VALUE);
    }

    static long num(Map<String, ConfEntry> eff, String key, long dflt) {
        ConfEntry e = eff.get(key);
        if (e == null) {
            return dflt;
        }
        try {
            return Values.unsigned(e, Long.MAX_VALUE);
        } catch (ConfigException ex) {
            throw new IllegalStateException("value was checked by the first pass", ex);
        }
    }

    static String str(Map<String, ConfEntry> eff, String key, String dflt) {
        ConfEntry e = eff.get(key);
        return e == null ? dflt : e.value();
    }
}
