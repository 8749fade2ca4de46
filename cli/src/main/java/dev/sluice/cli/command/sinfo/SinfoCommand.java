package dev.sluice.cli.command.sinfo;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.GetPartitionsRequest;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;
import java.io.PrintStream;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/** {@code sinfo}. Command line over {@code SINFO_*} variables; exit status 1 on any error. */
public final class SinfoCommand implements Command {
    private static final String PROG = "sinfo";
    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US);

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line =
                CommandSupport.parseOptionsOnly(PROG, SinfoOptions.TABLE, SinfoOptions.USAGE, inv, out, err);
        if (line.isEmpty()) {
            return 1;
        }
        Getopt.Result parsed = line.get();
        String format = inv.env().get("SINFO_FORMAT");
        String partitionNames = inv.env().get("SINFO_PARTITION");
        String sort = inv.env().get("SINFO_SORT");
        boolean all = inv.env().containsKey("SINFO_ALL");
        String states = null;
        String nodeNames = null;
        boolean nodeOriented = false, longFormat = false, noHeader = false, reasons = false, summarize = false;
        boolean responding = false, dead = false;
        for (ParsedOption o : parsed.options()) {
            switch (o.key()) {
                case "help" -> {
                    out.print(SinfoOptions.HELP);
                    return 0;
                }
                case "usage" -> {
                    out.print(SinfoOptions.USAGE);
                    return 0;
                }
                case "version" -> {
                    out.println("sluice 0.1.0");
                    return 0;
                }
                case "all" -> all = true;
                case "hide" -> all = false;
                case "dead" -> dead = true;
                case "responding" -> responding = true;
                case "format" -> format = o.value();
                case "list-reasons" -> reasons = true;
                case "long" -> longFormat = true;
                case "Node" -> nodeOriented = true;
                case "nodes" -> nodeNames = o.value();
                case "noheader" -> noHeader = true;
                case "partition" -> partitionNames = o.value();
                case "states" -> states = o.value();
                case "sort" -> sort = o.value();
                case "summarize" -> summarize = true;
                // Sluice groups on exact matches already; no federations exist.
                case "exact", "federation", "local", "verbose" -> {}
                default -> throw new IllegalStateException("unhandled sinfo option " + o.key());
            }
        }

        List<Predicate<NodeInfo>> stateTests = new ArrayList<>();
        for (String name : CommandSupport.commaList(states)) {
            Optional<Predicate<NodeInfo>> t = NodeFilter.state(name);
            if (t.isEmpty()) {
                err.println(PROG + ": error: Bad state string: \"" + name + "\"");
                err.println(PROG + ": error: valid states: " + NodeFilter.VALID_STATES);
                return 1;
            }
            stateTests.add(t.get());
        }
        Set<String> wantedNodes = null;
        if (nodeNames != null) {
            try {
                wantedNodes = new HashSet<>(HostList.expand(nodeNames));
            } catch (IllegalArgumentException e) {
                err.println(PROG + ": error: Invalid node name specified: " + nodeNames);
                return 1;
            }
        }
        Set<String> wantedPartitions = new HashSet<>(CommandSupport.commaList(partitionNames));

        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        List<PartitionInfo> partitions;
        List<NodeInfo> nodes;
        try {
            partitions = client.get()
                    .call(ClientRequest.newBuilder().setGetPartitions(GetPartitionsRequest.getDefaultInstance()))
                    .getGetPartitions()
                    .getPartitionsList();
        } catch (ControllerException e) {
            err.println("slurm_load_partitions: " + e.getMessage());
            return 1;
        }
        try {
            nodes = client.get()
                    .call(ClientRequest.newBuilder().setGetNodes(GetNodesRequest.getDefaultInstance()))
                    .getGetNodes()
                    .getNodesList();
        } catch (ControllerException e) {
            err.println("slurm_load_node: " + e.getMessage());
            return 1;
        }

        Predicate<NodeInfo> test = n -> true;
        if (!stateTests.isEmpty()) {
            test = test.and(NodeFilter.anyOf(stateTests));
        }
        if (wantedNodes != null) {
            Set<String> w = wantedNodes;
            test = test.and(n -> w.contains(n.getName()));
        }
        if (responding) {
            test = test.and(NodeFilter::responding);
        }
        if (dead) {
            test = test.and(n -> !NodeFilter.responding(n));
        }
        if (reasons) {
            test = test.and(NodeFilter::hasReasonState);
        }
        boolean filtered = !stateTests.isEmpty() || wantedNodes != null || responding || dead;

        Map<String, NodeInfo> byName = new HashMap<>();
        nodes.forEach(n -> byName.put(n.getName(), n));
        List<NodeRecord> records = new ArrayList<>();
        int partitionWidth = "PARTITION".length();
        int nodeWidth = 9;
        for (int i = 0; i < partitions.size(); i++) {
            PartitionInfo p = partitions.get(i);
            if ((p.getHidden() && !all) || (!wantedPartitions.isEmpty() && !wantedPartitions.contains(p.getName()))) {
                continue;
            }
            partitionWidth = Math.max(partitionWidth, p.getName().length() + (p.getIsDefault() ? 1 : 0));
            int before = records.size();
            for (String name : partitionNodes(p)) {
                NodeInfo n = byName.get(name);
                if (n != null && test.test(n)) {
                    records.add(new NodeRecord(p, i, n));
                    nodeWidth = Math.max(nodeWidth, name.length());
                }
            }
            // sinfo still reports a partition whose nodes were all filtered out, as 0 nodes in
            // state n/a, except in the node-oriented and reason listings.
            if (records.size() == before && filtered && !nodeOriented && !reasons) {
                records.add(new NodeRecord(p, i, null));
            }
        }

        if (format == null) {
            if (reasons) {
                format = longFormat ? SinfoOptions.REASONS_LONG : SinfoOptions.REASONS;
            } else if (summarize) {
                format = SinfoOptions.SUMMARIZE;
            } else if (nodeOriented) {
                format = longFormat ? SinfoOptions.NODE_LONG : SinfoOptions.NODE;
            } else {
                format = longFormat ? SinfoOptions.LONG : SinfoOptions.DEFAULT;
            }
            format = format.replace("#P", partitionWidth + "P").replace("#N", nodeWidth + "N");
        }
        SinfoReport report = new SinfoReport(
                format,
                sort,
                nodeOriented && !summarize && !reasons,
                inv.clock(),
                inv.users(),
                c -> err.println(PROG + ": error: Invalid node format specification: " + c));
        if (!noHeader) {
            if (longFormat) {
                out.println(CTIME.format(ZonedDateTime.ofInstant(
                        inv.clock().instant(), inv.clock().getZone())));
            }
            out.println(report.header());
        }
        report.lines(records).forEach(out::println);
        return 0;
    }

    private static List<String> partitionNodes(PartitionInfo p) {
        if (p.getNodeNamesCount() > 0) {
            return p.getNodeNamesList();
        }
        if (p.getNodes().isBlank()) {
            return List.of();
        }
        try {
            return HostList.expand(p.getNodes());
        } catch (IllegalArgumentException e) {
            return List.of();
        }
    }
}
