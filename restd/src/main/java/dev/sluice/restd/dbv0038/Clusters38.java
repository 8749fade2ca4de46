package dev.sluice.restd.dbv0038;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.AddClusterRequest;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ConfigEntry;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.GetConfigRequest;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.ListAssocResult;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.slurmdb.SlurmdbApi;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Clusters in dbv0.0.38's shape (compat 153). slurmdbd knows what a controller told it when it
 * registered: its address, nodes, select plugin and TRES totals. Sluice's controller does not
 * register, so for the cluster this daemon serves the address, nodes and select plugin are
 * asked of the controller itself (its SelectType); another cluster has none of them. The TRES
 * are the totals the controller last reported to sluice-dbd (those {@code sacctmgr show cluster}
 * prints, compat 147, 289); before any report, its nodes' configured TRES.
 */
final class Clusters38 {
    /** SLURM_PROTOCOL_VERSION of 22.05, which slurmdbd records for a registered controller. */
    private static final int RPC_VERSION = 9728;

    private final String local;
    private final SlurmdbApi.Control control;

    Clusters38(String local, SlurmdbApi.Control control) {
        this.local = local;
        this.control = control;
    }

    /**
     * @param listed the clusters as sluice-dbd lists them, with the TRES each controller last
     *     registered
     */
    ArrayNode list(ListAssocResult listed, List<TresEntry> tres, ControllerSession controller) {
        ArrayNode out = DbEnvelope38.F.arrayNode();
        for (String name : listed.getClustersList()) {
            ObjectNode o = out.addObject();
            // 22.05's parser prints the root association of a cluster as null.
            o.putObject("associations").putNull("root");
            boolean registered = name.equals(local) && !control.host().isEmpty();
            o.putObject("controller")
                    .put("host", registered ? control.host() : "")
                    .put("port", registered ? control.port() : 0);
            // Debian's slurmdbd is built for several slurmd on one host, and says so per cluster.
            o.putArray("flags").add("MULTIPLE_SLURMD");
            o.put("name", name);
            List<NodeInfo> nodes = registered ? nodes(controller) : List.of();
            o.put(
                    "nodes",
                    nodes.isEmpty()
                            ? ""
                            : HostList.compress(
                                    nodes.stream().map(NodeInfo::getName).toList()));
            o.put("rpc_version", registered ? RPC_VERSION : 0);
            o.put("select_plugin", registered ? selectPlugin(controller) : "");
            ArrayNode list = o.putArray("tres");
            String reported = listed.getClusterTresOrDefault(name, "");
            if (!reported.isBlank()) {
                // What its controller registered, as slurmdbd keeps it: the TRES it tracks and
                // no other (a license AccountingStorageTRES named before is in the TRES table,
                // not in the cluster's: compat 181 after 287).
                Tres sent = Tres.parse(reported);
                for (TresEntry t : tres) {
                    if (sent.asMap().containsKey(Tres38.key(t))) {
                        list.add(Tres38.entry(t, sent.get(Tres38.key(t))));
                    }
                }
                continue;
            }
            Tres totals = Tres.empty();
            for (NodeInfo n : nodes) {
                totals = totals.plus(n.getCfgTres().isEmpty() ? Tres.empty() : Tres.parse(n.getCfgTres()));
            }
            totals = totals.with("node", nodes.size());
            for (TresEntry t : tres) {
                list.add(Tres38.entry(t, totals.get(Tres38.key(t))));
            }
        }
        return out;
    }

    /** {@code GET cluster/{name}}: that cluster; one the database does not have is 9003 with 500. */
    Reply one(ListAssocResult found, List<TresEntry> tres, ControllerSession controller, DbEnvelope38 out) {
        out.body().set("clusters", list(found, tres, controller));
        if (found.getClustersCount() == 0) {
            return out.nothingFound("slurmdb_clusters_get").reply(500);
        }
        return out.reply(200);
    }

    /**
     * {@code POST clusters}: each named cluster added, with its root associations, as {@code
     * sacctmgr add cluster} adds it (one that exists is left as it is); tried before it is
     * committed, so a refused request (a plain user's: 2002, compat 181) adds none. What else a
     * cluster record holds (controller, nodes, TRES) slurmdbd learns from a registering
     * controller, so a value there is refused rather than dropped.
     */
    static Reply add(AccountingSession dbd, DbEnvelope38 out, Optional<JsonNode> body) {
        try {
            AddClusterRequest.Builder add = AddClusterRequest.newBuilder();
            for (JsonNode c : Posts38.list(body, "clusters", out)) {
                Posts38.blank(c, Set.of("name"), SOURCE_ADD, out, 500);
                String name = Posts38.text(c, "name");
                if (name.isEmpty()) {
                    throw Posts38.unspecified(out, SOURCE_ADD, 500);
                }
                add.addNames(name);
            }
            return Posts38.apply(
                    dbd, List.of(DbdRequest.newBuilder().setAddClusters(add)), out, SOURCE_ADD, 500, false);
        } catch (Posts38.Refused r) {
            return r.out.reply(r.status);
        }
    }

    private static final String SOURCE_ADD = "slurmdb_clusters_add";

    private static List<NodeInfo> nodes(ControllerSession controller) {
        try {
            return controller
                    .call(ClientRequest.newBuilder().setGetNodes(GetNodesRequest.getDefaultInstance()))
                    .getGetNodes()
                    .getNodesList();
        } catch (ControllerException e) {
            return List.of();
        }
    }

    /** {@code cons_tres} for {@code SelectType=select/cons_tres}. */
    private static String selectPlugin(ControllerSession controller) {
        try {
            return controller
                    .call(ClientRequest.newBuilder().setGetConfig(GetConfigRequest.getDefaultInstance()))
                    .getGetConfig()
                    .getEntriesList()
                    .stream()
                    .filter(e -> e.getKey().equals("SelectType"))
                    .map(ConfigEntry::getValue)
                    .map(v -> v.startsWith("select/") ? v.substring("select/".length()) : v)
                    .findFirst()
                    .orElse("");
        } catch (ControllerException e) {
            return "";
        }
    }
}
