package dev.sluice.ctld.rpc;

import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.IncludeResolver;
import dev.sluice.common.conf.NodeConf;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.text.ControlCharacters;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeHardware;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the node line of {@code scontrol create NodeName=...} with slurm.conf's own parser, so a
 * created node accepts exactly what a {@code NodeName=} line accepts (hostlists, Gres=,
 * Feature=, defaults), and turns it into the records the controller journals.
 */
final class NodeAdmin {
    private NodeAdmin() {}

    static List<StateRecord.NodeCreated> parseCreate(String nodeLine, int defaultPort) {
        String line = nodeLine.strip();
        // One line: a newline would add lines of its own to the configuration parsed below.
        ControlCharacters.checked("node line", line);
        if (!line.regionMatches(true, 0, "NodeName=", 0, 9)) {
            throw new SlurmException(ErrorCode.INVALID_ARGUMENT, "Invalid node line: " + nodeLine);
        }
        List<NodeConf> confs;
        try {
            // A throw-away file around the one line, with what the reader insists on.
            String text = "ClusterName=create\nSlurmctldHost=create\nSlurmdPort=" + defaultPort + "\n" + line + "\n";
            confs = SlurmConfReader.parse(text, "scontrol create", IncludeResolver.none())
                    .nodes();
        } catch (ConfigException e) {
            throw new SlurmException(ErrorCode.INVALID_ARGUMENT, e.getMessage());
        }
        List<StateRecord.NodeCreated> out = new ArrayList<>();
        for (NodeConf n : confs) {
            String state = n.status().state().toUpperCase(java.util.Locale.ROOT);
            boolean future = state.equals("FUTURE") || state.equals("CLOUD");
            out.add(new StateRecord.NodeCreated(
                    n.name(),
                    new NodeEndpoint(
                            n.address().hostname(),
                            n.address().addr(),
                            n.address().port()),
                    new NodeEquipment(
                            NodeHardware.configured(n.hardware()),
                            n.features(),
                            n.gres().raw()),
                    (int) Math.min(Integer.MAX_VALUE, n.weight()),
                    future,
                    0));
        }
        return out;
    }
}
