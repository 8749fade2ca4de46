package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetSharesRequest;
import dev.sluice.protocol.v1.GetSharesResponse;
import dev.sluice.protocol.v1.ShareInfo;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * GET shares[?accounts=A,B&users=U]: the fair-share tree sshare prints, from the same controller
 * request, each association as a {@code assoc_shares_obj_wrap}.
 */
final class Shares {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Shares() {}

    static Reply shares(SlurmApi.Call call, Envelope out) throws ControllerException {
        GetSharesResponse answer = call.controller()
                .call(ClientRequest.newBuilder().setGetShares(GetSharesRequest.getDefaultInstance()))
                .getGetShares();
        Set<String> accounts = csv(call.query().get("accounts"));
        Set<String> users = csv(call.query().get("users"));
        ObjectNode msg = out.body().putObject("shares");
        ArrayNode list = msg.putArray("shares");
        // The answer lists the tree depth first: an account line's parent is the last account
        // line one level up, a user line's its own account.
        List<String> path = new ArrayList<>();
        long total = 0;
        for (ShareInfo s : answer.getSharesList()) {
            boolean user = !s.getUser().isEmpty();
            int depth = (int) s.getDepth();
            String parent = user ? s.getAccount() : depth > 0 && depth - 1 < path.size() ? path.get(depth - 1) : "";
            if (!user) {
                while (path.size() > depth) {
                    path.removeLast();
                }
                path.add(s.getAccount());
                if (depth == 1) {
                    total += s.getRawShares();
                }
            }
            // As the controller filters a shares request: user lines by user, every line by account.
            if ((user && users != null && !users.contains(s.getUser()))
                    || (accounts != null && !accounts.contains(s.getAccount()))) {
                continue;
            }
            list.add(one(s, user, parent, answer.getCluster()));
        }
        msg.put("total_shares", total);
        return out.reply(200);
    }

    private static ObjectNode one(ShareInfo s, boolean user, String parent, String cluster) {
        ObjectNode o = F.objectNode();
        o.put("id", s.getId());
        o.put("cluster", cluster);
        o.put("name", user ? s.getUser() : s.getAccount());
        o.put("parent", parent);
        o.put("partition", s.getPartition());
        o.set("shares_normalized", real(s.getNormShares()));
        // A line whose shares are its parent's (root's own) has no number of its own.
        o.set("shares", s.getParentShares() ? Numbers.unset() : Numbers.set(s.getRawShares()));
        ObjectNode tres = o.putObject("tres");
        ArrayNode run = tres.putArray("run_seconds");
        for (Map.Entry<String, Long> t : s.getTresRunMinsMap().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .collect(Collectors.toList())) {
            run.addObject().put("name", t.getKey()).set("value", Numbers.set(t.getValue() * 60));
        }
        tres.putArray("group_minutes");
        tres.putArray("usage");
        o.set("effective_usage", real(s.getEffectiveUsage()));
        o.set("usage_normalized", real(s.getNormUsage()));
        o.put("usage", s.getRawUsage());
        ObjectNode fairshare = o.putObject("fairshare");
        fairshare.set("factor", real(s.getFairshare()));
        fairshare.set("level", real(s.getLevelFs()));
        o.putArray("type").add(user ? "USER" : "ASSOCIATION");
        return o;
    }

    /** A {@code float64_no_val_struct}; NaN (Slurm prints nothing there) is unset. */
    private static ObjectNode real(double x) {
        if (Double.isNaN(x)) {
            return Numbers.unset();
        }
        if (Double.isInfinite(x)) {
            return Numbers.infinite();
        }
        return F.objectNode().put("set", true).put("infinite", false).put("number", x);
    }

    private static Set<String> csv(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        return Arrays.stream(text.split(","))
                .map(String::strip)
                .filter(x -> !x.isEmpty())
                .collect(Collectors.toSet());
    }
}
