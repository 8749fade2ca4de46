package dev.sluice.restd.dbv0038;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdStats;
import dev.sluice.protocol.v1.RollupTally;
import dev.sluice.protocol.v1.RpcTally;
import dev.sluice.protocol.v1.StatsRequest;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Reply;

/**
 * dbv0.0.38's {@code diag}: the accounting daemon's statistics (what {@code sacctmgr show stats}
 * prints) in slurmrestd 22.05's shape (compat 191): the requests by type and by user in the order
 * the daemon first counted them, the rollup when it has run since the statistics were cleared,
 * and their start. A plain user's is refused by the daemon (2002).
 */
final class Diag38 {
    private Diag38() {}

    static Reply diag(AccountingSession dbd, DbEnvelope38 out) throws AccountingException {
        DbdStats s = dbd.call(DbdRequest.newBuilder().setGetStats(StatsRequest.getDefaultInstance()))
                .getStats();
        ObjectNode stats = out.body().putObject("statistics");
        ArrayNode rpcs = stats.putArray("RPCs");
        s.getByTypeList().forEach(t -> tally(rpcs.addObject(), "rpc", t));
        ArrayNode rollups = stats.putArray("rollups");
        if (s.hasInternalRollup()) {
            RollupTally r = s.getInternalRollup();
            ObjectNode o = rollups.addObject();
            o.put("type", "internal");
            o.put("last_run", r.getLastRun());
            o.put("last_cycle", r.getLastCycle());
            o.put("max_cycle", r.getMaxCycle());
            o.put("total_time", r.getTotalTime());
            o.put("total_cycles", r.getCycles());
            o.put("mean_cycles", r.getCycles() == 0 ? 0 : r.getTotalTime() / r.getCycles());
        }
        stats.put("time_start", s.getSince());
        ArrayNode users = stats.putArray("users");
        s.getByUserList().forEach(t -> tally(users.addObject(), "user", t));
        return out.reply(200);
    }

    private static void tally(ObjectNode o, String nameKey, RpcTally t) {
        o.put("count", t.getCount());
        o.put(nameKey, t.getName());
        ObjectNode time = o.putObject("time");
        time.put("average", t.getCount() == 0 ? 0 : t.getTotalMicros() / t.getCount());
        time.put("total", t.getTotalMicros());
    }
}
