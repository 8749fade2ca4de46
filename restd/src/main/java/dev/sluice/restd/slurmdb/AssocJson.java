package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.protocol.v1.AccountEntry;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.ListAssocResult;
import dev.sluice.protocol.v1.UserEntry;
import dev.sluice.restd.slurm.Numbers;
import java.util.List;

/** Accounts, users and associations as sacctmgr lists them, in the data parser's shapes. */
final class AssocJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private AssocJson() {}

    static ArrayNode accounts(ListAssocResult r) {
        ArrayNode out = F.arrayNode();
        for (AccountEntry a : r.getAccountsList()) {
            ObjectNode o = out.addObject();
            o.put("name", a.getName());
            o.put("description", a.getDescription());
            o.put("organization", a.getOrganization());
            ArrayNode assocs = o.putArray("associations");
            r.getAssociationsList().stream()
                    .filter(e ->
                            e.getAccount().equals(a.getName()) && e.getUser().isEmpty())
                    .forEach(e -> assocs.add(shortForm(e)));
            o.putArray("coordinators");
            o.putArray("flags");
        }
        return out;
    }

    static ArrayNode users(ListAssocResult r) {
        ArrayNode out = F.arrayNode();
        for (UserEntry u : r.getUsersList()) {
            ObjectNode o = out.addObject();
            o.put("name", u.getName());
            o.putArray("administrator_level").add(u.getAdminLevel().isEmpty() ? "None" : u.getAdminLevel());
            ArrayNode assocs = o.putArray("associations");
            r.getAssociationsList().stream()
                    .filter(e -> e.getUser().equals(u.getName()))
                    .forEach(e -> assocs.add(shortForm(e)));
            o.putArray("coordinators");
            o.putObject("default").put("account", u.getDefaultAccount());
            o.putArray("flags");
        }
        return out;
    }

    static ArrayNode associations(List<AssociationEntry> list) {
        ArrayNode out = F.arrayNode();
        for (AssociationEntry e : list) {
            ObjectNode o = out.addObject();
            o.put("account", e.getAccount());
            o.put("cluster", e.getCluster());
            o.put("partition", e.getPartition());
            o.put("user", e.getUser());
            o.put("id", e.getId());
            o.put("parent_account", e.getParentAccount());
            AssociationLimits l = e.getLimits();
            if (l.hasShares()) {
                o.put("shares_raw", l.getShares());
            }
            if (l.hasDefaultQos()) {
                o.putObject("default").put("qos", l.getDefaultQos());
            }
            if (l.hasQos()) {
                ArrayNode qos = o.putArray("qos");
                for (String q : l.getQos().split(",")) {
                    if (!q.isBlank()) {
                        qos.add(q.strip());
                    }
                }
            }
            ObjectNode max = F.objectNode();
            ObjectNode jobs = F.objectNode();
            if (l.hasMaxJobs()) {
                jobs.set("active", Numbers.set(l.getMaxJobs()));
            }
            if (l.hasMaxSubmitJobs()) {
                jobs.set("total", Numbers.set(l.getMaxSubmitJobs()));
            }
            if (l.hasGrpJobs() || l.hasGrpSubmitJobs() || l.hasMaxWallMinutes()) {
                ObjectNode per = jobs.putObject("per");
                if (l.hasGrpJobs()) {
                    per.set("count", Numbers.set(l.getGrpJobs()));
                }
                if (l.hasGrpSubmitJobs()) {
                    per.set("submitted", Numbers.set(l.getGrpSubmitJobs()));
                }
                if (l.hasMaxWallMinutes()) {
                    per.set("wall_clock", Numbers.set(l.getMaxWallMinutes()));
                }
            }
            if (!jobs.isEmpty()) {
                max.set("jobs", jobs);
            }
            if (!max.isEmpty()) {
                o.set("max", max);
            }
        }
        return out;
    }

    /**
     * Clusters as {@code sacctmgr show cluster} lists them: name, the controller's address where
     * known ({@code control}, only for the cluster this daemon serves; 22.05's RPC version with
     * it, as slurmdbd records it when a controller registers) and the root association. Sluice's
     * dbd keeps no node list, federation or cluster TRES for the listing, so those are left out.
     */
    static ArrayNode clusters(
            List<String> names, List<AssociationEntry> roots, String local, SlurmdbApi.Control control) {
        ArrayNode out = F.arrayNode();
        for (String name : names) {
            ObjectNode o = out.addObject();
            o.put("name", name);
            if (name.equals(local) && !control.host().isEmpty()) {
                o.putObject("controller").put("host", control.host()).put("port", control.port());
                o.put("rpc_version", RPC_VERSION);
            } else {
                o.putObject("controller").put("host", "").put("port", 0);
                o.put("rpc_version", 0);
            }
            o.putArray("flags");
            roots.stream()
                    .filter(a -> a.getCluster().equals(name)
                            && a.getAccount().equals("root")
                            && a.getUser().isEmpty())
                    .findFirst()
                    .ifPresent(root -> o.putObject("associations").set("root", shortForm(root)));
        }
        return out;
    }

    /** SLURM_PROTOCOL_VERSION of 22.05, as sacctmgr show cluster prints it for the controller. */
    private static final int RPC_VERSION = 9728;

    /** {@code assoc_short}: which association, by its names and id. */
    private static ObjectNode shortForm(AssociationEntry e) {
        ObjectNode o = F.objectNode();
        o.put("account", e.getAccount());
        o.put("cluster", e.getCluster());
        o.put("partition", e.getPartition());
        o.put("user", e.getUser());
        o.put("id", e.getId());
        return o;
    }
}
