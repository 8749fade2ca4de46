package dev.sluice.common.conf;

import dev.sluice.common.hostlist.HostList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code DownNodes=list State=DOWN|DRAIN|FAIL|FAILING|FUTURE|UNKNOWN Reason="..."}: overrides the
 * configured state of nodes already defined (slurm.conf(5); default state DOWN).
 */
final class DownNodes {
    private static final Set<String> STATES = Set.of("CLOUD", "DOWN", "DRAIN", "FAIL", "FAILING", "FUTURE", "UNKNOWN");

    private DownNodes() {}

    static List<NodeConf> apply(List<List<ConfEntry>> lines, List<NodeConf> nodes, List<String> warnings)
            throws ConfigException {
        if (lines.isEmpty()) {
            return nodes;
        }
        Map<String, String[]> override = new HashMap<>();
        for (List<ConfEntry> line : lines) {
            ConfEntry head = line.getFirst();
            String state = "DOWN";
            String reason = "";
            for (ConfEntry e : line.subList(1, line.size())) {
                if (e.key().equals("State")) {
                    state = e.value().toUpperCase(Locale.ROOT);
                } else if (e.key().equals("Reason")) {
                    reason = e.value();
                }
            }
            if (!STATES.contains(state)) {
                // slurmctld logs "Invalid State" and skips the line.
                warnings.add(
                        head.file() + ":" + head.line() + ": Invalid State \"" + state + "\"; DownNodes line ignored");
                continue;
            }
            List<String> names;
            try {
                names = HostList.expand(head.value());
            } catch (IllegalArgumentException ex) {
                throw head.error(ex.getMessage());
            }
            for (String n : names) {
                override.put(n, new String[] {state, reason});
            }
        }
        List<NodeConf> out = new ArrayList<>();
        for (NodeConf n : nodes) {
            String[] o = override.get(n.name());
            out.add(o == null ? n : n.withStatus(new NodeConf.Status(o[0], o[1])));
        }
        return List.copyOf(out);
    }
}
