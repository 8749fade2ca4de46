package dev.sluice.dbd.server;

import dev.sluice.dbd.model.RpcStatistics;
import dev.sluice.protocol.v1.DbdStats;
import dev.sluice.protocol.v1.RollupTally;
import dev.sluice.protocol.v1.RpcTally;
import java.util.Map;

/** {@link RpcStatistics} on the wire ({@code DbdStats}), its tallies in the order first counted. */
final class StatsWire {
    private StatsWire() {}

    static DbdStats of(RpcStatistics s, long now) {
        DbdStats.Builder out = DbdStats.newBuilder().setSince(s.since()).setNow(now);
        if (s.rollup().ran()) {
            out.setInternalRollup(rollup(s.rollup()));
        }
        s.byType().entrySet().forEach(e -> out.addByType(tally(e)));
        s.byUser().entrySet().forEach(e -> out.addByUser(tally(e)));
        return out.build();
    }

    private static RpcTally tally(Map.Entry<RpcStatistics.Key, RpcStatistics.Tally> e) {
        return RpcTally.newBuilder()
                .setName(e.getKey().name())
                .setId((int) e.getKey().id())
                .setCount(e.getValue().count())
                .setTotalMicros(e.getValue().totalMicros())
                .build();
    }

    private static RollupTally rollup(RpcStatistics.Rollup r) {
        return RollupTally.newBuilder()
                .setLastRun(r.lastRun())
                .setLastCycle(r.lastCycle())
                .setMaxCycle(r.maxCycle())
                .setTotalTime(r.totalTime())
                .setCycles(r.cycles())
                .build();
    }
}
