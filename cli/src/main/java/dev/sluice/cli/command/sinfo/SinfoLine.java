package dev.sluice.cli.command.sinfo;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.view.NodeLists;
import dev.sluice.cli.view.NodeStates;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.protocol.v1.NodeInfo;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The records that share one sinfo line, with what aggregate columns need. A node reached
 * through two partitions counts once ({@code sinfo -o "%N %t"} lists {@code n[1-2]}, not
 * {@code n[1,1-2,2]}).
 */
final class SinfoLine {
    private final List<NodeRecord> records = new ArrayList<>();
    private final Clock zone;
    private final UserDirectory users;

    SinfoLine(Clock zone, UserDirectory users) {
        this.zone = requireNonNull(zone, "zone is null");
        this.users = requireNonNull(users, "users is null");
    }

    void add(NodeRecord record) {
        records.add(record);
    }

    NodeRecord first() {
        return records.get(0);
    }

    /** Distinct nodes of the line, by name, first occurrence kept. */
    List<NodeInfo> nodes() {
        Map<String, NodeInfo> byName = new LinkedHashMap<>();
        for (NodeRecord r : records) {
            if (!r.empty()) {
                byName.putIfAbsent(r.node().getName(), r.node());
            }
        }
        return List.copyOf(byName.values());
    }

    int nodeCount() {
        return nodes().size();
    }

    String nodeList() {
        return NodeLists.ranged(
                String.join(",", nodes().stream().map(NodeInfo::getName).toList()));
    }

    String hostNames() {
        return HostList.compress(nodes().stream()
                .map(n -> n.getHostname().isEmpty() ? n.getName() : n.getHostname())
                .toList());
    }

    String addresses() {
        return HostList.compress(nodes().stream()
                .map(n -> n.getAddr().isEmpty() ? n.getName() : n.getAddr())
                .toList());
    }

    String nodesAiot() {
        int a = 0, i = 0, o = 0;
        for (NodeInfo n : nodes()) {
            if (NodeStates.countsAllocated(n)) {
                a++;
            } else if (NodeStates.unavailable(n)) {
                o++;
            } else {
                i++;
            }
        }
        return a + "/" + i + "/" + o + "/" + (a + i + o);
    }

    String nodesAi() {
        String[] aiot = nodesAiot().split("/");
        return aiot[0] + "/" + aiot[1];
    }

    String cpusAiot() {
        long a = 0, i = 0, o = 0;
        for (NodeInfo n : nodes()) {
            long total = Integer.toUnsignedLong(n.getCpus());
            long alloc = Math.min(total, Integer.toUnsignedLong(n.getAllocCpus()));
            a += alloc;
            if (NodeStates.unavailable(n)) {
                o += total - alloc;
            } else {
                i += total - alloc;
            }
        }
        return a + "/" + i + "/" + o + "/" + (a + i + o);
    }

    String reasonTime() {
        if (first().empty()) {
            return "n/a";
        }
        long t = first().node().getReasonTime();
        return t <= 0 ? SlurmTimestamp.UNKNOWN : SlurmTimestamp.format(Instant.ofEpochSecond(t), zone.getZone());
    }

    String reasonUserWithId() {
        if (first().empty()) {
            return "n/a";
        }
        String name = first().node().getReasonUser();
        if (name.isEmpty()) {
            return "Unknown";
        }
        String id = users.uid(name).map(String::valueOf).orElse("?");
        return name + "(" + id + ")";
    }
}
