package dev.sluice.operator.render;

import dev.sluice.operator.crd.Accounting;
import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.NodeSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code slurm.conf} from a {@link Controller} and the NodeSets that name it. The nodes are
 * dynamic ({@code sluice-noded -Z}), so there are no {@code NodeName} lines: each NodeSet's nodes
 * carry a feature named after it, a {@code NodeSet=} line groups them and, when the NodeSet asks
 * for one, a partition of its own uses that group. {@code extraConf} lines replace the line
 * setting the same key, or are added.
 */
public final class SlurmConfRenderer {
    private SlurmConfRenderer() {}

    public static String slurmConf(Controller c, List<NodeSet> nodeSets) {
        return slurmConf(c, nodeSets, null);
    }

    /**
     * With {@code accounting} (the Accounting {@code accountingRef} names, when it exists) the
     * controller records to its sluice-dbd Service; with {@code jwtHs256KeyRef} it accepts
     * {@code auth/jwt} tokens signed with that key (projected to {@link Names#JWT_KEY}).
     */
    public static String slurmConf(Controller c, List<NodeSet> nodeSets, Accounting accounting) {
        List<String> lines = new ArrayList<>();
        lines.add("# Rendered by sluice-operator from Controller "
                + c.getMetadata().getName() + "; do not edit.");
        lines.add("ClusterName=" + Names.clusterName(c));
        lines.add("SlurmctldHost=" + c.getMetadata().getName() + "-0(" + Names.controllerHost(c) + ")");
        lines.add("SlurmctldPort=" + Names.ctldPort(c));
        lines.add("SlurmUser=slurm");
        lines.add("StateSaveLocation=" + Names.STATE);
        lines.add("SlurmdSpoolDir=" + Names.SPOOL);
        lines.add("SlurmctldParameters=enable_configless");
        // A pod's limits, not the machine's, are what a node offers: it registers what -Z --conf says.
        lines.add("SlurmdParameters=config_overrides");
        lines.add("ReturnToService=2");
        lines.add("SelectType=select/cons_tres");
        lines.add("SelectTypeParameters=CR_Core");
        if (accounting != null) {
            lines.add("AccountingStorageType=accounting_storage/slurmdbd");
            lines.add("AccountingStorageHost=" + Names.serviceHost(accounting));
            lines.add("AccountingStoragePort=" + AccountingObjects.port(accounting));
        }
        if (c.getSpec().jwtHs256KeyRef != null) {
            lines.add("AuthAltTypes=auth/jwt");
            lines.add("AuthAltParameters=jwt_key=" + Names.JWT_KEY);
        }
        if (nodeSets.stream().anyMatch(n -> NodePods.gpus(n) > 0)) {
            lines.add("GresTypes=gpu");
        }
        for (NodeSet set : nodeSets) {
            String name = set.getMetadata().getName();
            lines.add("NodeSet=" + name + " Feature=" + name);
        }
        lines.add("PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP");
        for (NodeSet set : nodeSets) {
            var p = set.getSpec().partition;
            if (p != null && p.enabled) {
                String name = set.getMetadata().getName();
                String extra = p.config == null || p.config.isBlank() ? "" : " " + p.config.strip();
                lines.add("PartitionName=" + name + " Nodes=" + name + " State=UP" + extra);
            }
        }
        return overridden(lines, c.getSpec().extraConf);
    }

    /** sluice.conf: the gRPC port beside SlurmctldPort, and the metrics port when asked for. */
    public static String sluiceConf(Controller c, int metricsPort) {
        StringBuilder s = new StringBuilder();
        s.append("SlurmctldGrpcPort=")
                .append(Names.ctldPort(c) + Names.GRPC_OFFSET)
                .append('\n');
        s.append("SlurmctldMetricsPort=").append(metricsPort).append('\n');
        return s.toString();
    }

    /**
     * {@code lines} with each line of {@code extra} replacing the first line that sets the same
     * key (keys compare case-insensitively, as slurm.conf's do; {@code NodeSet} and
     * {@code PartitionName} lines compare by key and name) or appended.
     */
    static String overridden(List<String> lines, String extra) {
        List<String> out = new ArrayList<>(lines);
        if (extra != null) {
            for (String line : extra.lines().map(String::strip).toList()) {
                if (line.isEmpty() || line.startsWith("#") || line.indexOf('=') < 0) {
                    out.add(line);
                    continue;
                }
                String key = identity(line);
                int at = -1;
                for (int i = 0; i < out.size() && at < 0; i++) {
                    if (!out.get(i).startsWith("#")
                            && out.get(i).indexOf('=') > 0
                            && identity(out.get(i)).equals(key)) {
                        at = i;
                    }
                }
                if (at >= 0) {
                    out.set(at, line);
                } else {
                    out.add(line);
                }
            }
        }
        return String.join("\n", out) + "\n";
    }

    private static String identity(String line) {
        String key = line.substring(0, line.indexOf('=')).strip().toLowerCase(Locale.ROOT);
        if (key.equals("partitionname") || key.equals("nodeset") || key.equals("nodename")) {
            String rest = line.substring(line.indexOf('=') + 1);
            int space = rest.indexOf(' ');
            return key + "=" + (space < 0 ? rest : rest.substring(0, space));
        }
        return key;
    }
}
