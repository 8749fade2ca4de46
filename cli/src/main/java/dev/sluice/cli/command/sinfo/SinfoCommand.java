package dev.sluice.cli.command.sinfo;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.ClusterOption;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.Iteration;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.GetPartitionsRequest;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;
import java.io.PrintStream;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;

/** {@code sinfo}. Command line over {@code SINFO_*} variables; exit status 1 on any error. */
public final class SinfoCommand implements Command {
    private static final String PROG = "sinfo";
    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US);
    private final Iteration.Sleeper sleeper;

    public SinfoCommand() {
        this(Iteration.REAL);
    }

    /** A sinfo whose {@code -i} waits through {@code sleeper}. */
    public SinfoCommand(Iteration.Sleeper sleeper) {
        this.sleeper = sleeper;
    }

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line =
                CommandSupport.parseOptionsOnly(PROG, SinfoOptions.TABLE, SinfoOptions.USAGE, inv, out, err);
        if (line.isEmpty()) {
            return 1;
        }
        Settings s = new Settings(inv);
        for (ParsedOption o : line.get().options()) {
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
                    out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                    return 0;
                }
                case "iterate" -> {
                    OptionalLong n = Iteration.seconds(o.value());
                    if (n.isEmpty()) {
                        err.println(PROG + ": error: Error: invalid entry for --iterate=" + o.value());
                        return 1;
                    }
                    s.iterate = n.getAsLong();
                }
                default -> s.apply(o.key(), o.value());
            }
        }

        List<Predicate<NodeInfo>> stateTests = new ArrayList<>();
        for (String name : CommandSupport.commaList(s.states)) {
            Optional<Predicate<NodeInfo>> t = NodeFilter.state(name);
            if (t.isEmpty()) {
                err.println(PROG + ": error: Bad state string: \"" + name + "\"");
                err.println(PROG + ": error: valid states: " + NodeFilter.VALID_STATES);
                return 1;
            }
            stateTests.add(t.get());
        }
        Set<String> wantedNodes = null;
        if (s.nodeNames != null) {
            try {
                wantedNodes = new HashSet<>(HostList.expand(s.nodeNames));
            } catch (IllegalArgumentException e) {
                err.println(PROG + ": error: Invalid node name specified: " + s.nodeNames);
                return 1;
            }
        }
        Predicate<NodeInfo> test = n -> true;
        if (!stateTests.isEmpty()) {
            test = test.and(NodeFilter.anyOf(stateTests));
        }
        if (wantedNodes != null) {
            Set<String> w = wantedNodes;
            test = test.and(n -> w.contains(n.getName()));
        }
        if (s.responding) {
            test = test.and(NodeFilter::responding);
        }
        if (s.dead) {
            test = test.and(n -> !NodeFilter.responding(n));
        }
        if (s.reasons) {
            test = test.and(NodeFilter::hasReasonState);
        }
        s.filtered = !stateTests.isEmpty() || wantedNodes != null || s.responding || s.dead;
        if (s.fieldNames != null) {
            s.fields = SinfoLongFormat.parse(
                    s.fieldNames, n -> err.println(PROG + ": error: Invalid job format specification: " + n));
        }

        Optional<String> cluster = Optional.empty();
        if (s.clusters != null) {
            Optional<List<String>> known = ClusterOption.resolve(inv, PROG, s.clusters, err);
            if (known.isEmpty()) {
                return 1;
            }
            cluster = Optional.of(known.get().get(0));
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        // -M names the cluster above each listing (observed; not with -h).
        Optional<String> clusterLine = cluster.filter(c -> !s.noHeader && !s.json && !s.yaml);
        if (s.reservations) {
            clusterLine.ifPresent(c -> out.println("CLUSTER: " + c));
            return reservations(inv, out, err, client.get(), !s.noHeader);
        }
        s.clusterLine = clusterLine.orElse(null);
        Predicate<NodeInfo> nodeTest = test;
        if (s.iterate == null) {
            return report(inv, out, err, client.get(), s, nodeTest);
        }
        return Iteration.repeat(
                () -> report(inv, out, err, client.get(), s, nodeTest), Duration.ofSeconds(s.iterate), sleeper, out);
    }

    private static int report(
            Invocation inv,
            PrintStream out,
            PrintStream err,
            ControllerClient client,
            Settings s,
            Predicate<NodeInfo> test) {
        List<PartitionInfo> partitions;
        List<NodeInfo> nodes;
        try {
            partitions = client.call(
                            ClientRequest.newBuilder().setGetPartitions(GetPartitionsRequest.getDefaultInstance()))
                    .getGetPartitions()
                    .getPartitionsList();
        } catch (ControllerException e) {
            err.println("slurm_load_partitions: " + e.getMessage());
            return 1;
        }
        try {
            nodes = client.call(ClientRequest.newBuilder().setGetNodes(GetNodesRequest.getDefaultInstance()))
                    .getGetNodes()
                    .getNodesList();
        } catch (ControllerException e) {
            err.println("slurm_load_node: " + e.getMessage());
            return 1;
        }

        Set<String> wantedPartitions = new HashSet<>(CommandSupport.commaList(s.partitionNames));
        Map<String, NodeInfo> byName = new HashMap<>();
        nodes.forEach(n -> byName.put(n.getName(), n));
        List<NodeRecord> records = new ArrayList<>();
        int partitionWidth = "PARTITION".length();
        int nodeWidth = 9;
        for (int i = 0; i < partitions.size(); i++) {
            PartitionInfo p = partitions.get(i);
            if ((p.getHidden() && !s.all) || (!wantedPartitions.isEmpty() && !wantedPartitions.contains(p.getName()))) {
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
            if (records.size() == before && s.filtered && !s.nodeOriented && !s.reasons) {
                records.add(new NodeRecord(p, i, null));
            }
        }
        if (s.json || s.yaml) {
            Set<String> shown = new LinkedHashSet<>();
            records.stream()
                    .filter(r -> !r.empty())
                    .forEach(r -> shown.add(r.node().getName()));
            String document = NodeJson.document(
                    nodes.stream().filter(n -> shown.contains(n.getName())).toList(), partitions);
            out.print(s.yaml ? dev.sluice.cli.json.SlurmYaml.fromJson(document) : document);
            return 0;
        }

        // -s with -N: one summary line per node (real sinfo 22.05, compat 301).
        boolean nodeLines = s.nodeOriented && !s.reasons;
        SinfoReport report;
        if (s.fields != null) {
            report = new SinfoReport(s.fields, s.sort, nodeLines, inv.clock(), inv.users());
        } else {
            String format = s.format;
            if (format == null) {
                format = defaultFormat(s).replace("#P", partitionWidth + "P").replace("#N", nodeWidth + "N");
            }
            report = new SinfoReport(
                    format,
                    s.sort,
                    nodeLines,
                    inv.clock(),
                    inv.users(),
                    // Observed: unlike -O's complaint, this one has no "sinfo: error: " prefix.
                    c -> err.println("Invalid node format specification: " + c));
        }
        if (!s.noHeader) {
            // The time stamp of -l, and of every -i report (observed: 22.05 prints it once
            // when both are given).
            if (s.longFormat || s.iterate != null) {
                out.println(CTIME.format(ZonedDateTime.ofInstant(
                        inv.clock().instant(), inv.clock().getZone())));
            }
            // After the time stamp (observed).
            if (s.clusterLine != null) {
                out.println("CLUSTER: " + s.clusterLine);
            }
            out.println(report.header());
        }
        report.lines(records).forEach(out::println);
        return 0;
    }

    private static String defaultFormat(Settings s) {
        if (s.reasons) {
            return s.longFormat ? SinfoOptions.REASONS_LONG : SinfoOptions.REASONS;
        } else if (s.summarize) {
            return SinfoOptions.SUMMARIZE;
        } else if (s.nodeOriented) {
            return s.longFormat ? SinfoOptions.NODE_LONG : SinfoOptions.NODE;
        }
        return s.longFormat ? SinfoOptions.LONG : SinfoOptions.DEFAULT;
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

    /** Option values after environment and command line; {@code null} means not given. */
    private static final class Settings {
        String format;
        String fieldNames;
        List<dev.sluice.cli.format.FormatToken> fields;
        String partitionNames;
        String sort;
        String states;
        String nodeNames;
        boolean all;
        boolean nodeOriented;
        boolean longFormat;
        boolean noHeader;
        boolean reasons;
        boolean summarize;
        boolean responding;
        boolean dead;
        boolean json;
        boolean yaml;
        boolean reservations;
        String clusters;
        /** The cluster -M named, printed above the header; null without -M. */
        String clusterLine;

        boolean filtered;
        Long iterate;

        Settings(Invocation inv) {
            clusters = inv.env().get("SLURM_CLUSTERS");
            format = inv.env().get("SINFO_FORMAT");
            partitionNames = inv.env().get("SINFO_PARTITION");
            sort = inv.env().get("SINFO_SORT");
            all = inv.env().containsKey("SINFO_ALL");
        }

        void apply(String key, String value) {
            switch (key) {
                case "all" -> all = true;
                case "hide" -> all = false;
                case "dead" -> dead = true;
                case "responding" -> responding = true;
                case "format" -> {
                    format = value;
                    fieldNames = null;
                }
                case "Format" -> fieldNames = value;
                case "json" -> json = true;
                case "list-reasons" -> reasons = true;
                case "long" -> longFormat = true;
                case "Node" -> nodeOriented = true;
                case "nodes" -> nodeNames = value;
                case "noheader" -> noHeader = true;
                case "partition" -> partitionNames = value;
                case "states" -> states = value;
                case "sort" -> sort = value;
                case "summarize" -> summarize = true;
                case "yaml" -> yaml = true;
                case "reservation" -> reservations = true;
                case "clusters" -> clusters = value;
                // Sluice groups on exact matches already; no federations exist; sizes are
                // printed in Slurm's units with or without --noconvert's exact values.
                case "exact", "federation", "local", "verbose", "noconvert" -> {}
                default -> throw new IllegalStateException("unhandled sinfo option " + key);
            }
        }
    }

    /** {@code sinfo -T}: the reservations as a table, or 22.05's line when there is none (stdout). */
    private static int reservations(
            Invocation inv, PrintStream out, PrintStream err, ControllerClient client, boolean header) {
        dev.sluice.protocol.v1.GetReservationsResponse answer;
        try {
            answer = client.call(dev.sluice.protocol.v1.ClientRequest.newBuilder()
                            .setGetReservations(dev.sluice.protocol.v1.GetReservationsRequest.getDefaultInstance()))
                    .getGetReservations();
        } catch (dev.sluice.cli.client.ControllerException e) {
            err.println("slurm_load_reservations: " + e.getMessage());
            return 1;
        }
        if (answer.getReservationsCount() == 0) {
            out.println(dev.sluice.cli.view.ReservationText.NONE);
            return 0;
        }
        out.print(dev.sluice.cli.view.ReservationText.table(
                answer.getReservationsList(), answer.getNow(), inv.clock().getZone(), header));
        return 0;
    }
}
