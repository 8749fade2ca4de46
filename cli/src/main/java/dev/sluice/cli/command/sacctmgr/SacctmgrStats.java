package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.cli.command.sdiag.SdiagReport;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdStats;
import dev.sluice.protocol.v1.RollupTally;
import dev.sluice.protocol.v1.RpcTally;
import dev.sluice.protocol.v1.StatsRequest;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.List;

/**
 * {@code sacctmgr show stats} and {@code sacctmgr clear stats}: the accounting daemon's request
 * counts in Slurm 22.05's layout (compat 190), operators only. The tallies are sorted as
 * sacctmgr sorts them: most counted first, then the longest in all.
 */
final class SacctmgrStats {
    private static final String STARS = "*******************************************************************";
    private static final Comparator<RpcTally> ORDER = Comparator.comparingLong(RpcTally::getCount)
            .thenComparingLong(RpcTally::getTotalMicros)
            .reversed();

    private final Session s;

    SacctmgrStats(Session s) {
        this.s = s;
    }

    int show() throws AccountingClient.AccountingException {
        DbdStats stats;
        try {
            stats = s.client
                    .call(DbdRequest.newBuilder().setGetStats(StatsRequest.getDefaultInstance()))
                    .getStats();
        } catch (AccountingClient.AccountingException e) {
            if (e.code() == ErrorCode.ACCESS_DENIED.number()) {
                s.err.println("sacctmgr: accounting_storage/slurmdbd: acct_storage_p_get_stats: RC:2002"
                        + " Your user doesn't have privilege to perform this action");
                return 1;
            }
            throw e;
        }
        s.out.print(render(stats, s.inv.clock().getZone()));
        return 0;
    }

    /** Slurm prints nothing on a refused clear: the exit status tells. */
    int clear() throws AccountingClient.AccountingException {
        try {
            s.client.call(DbdRequest.newBuilder().setClearStats(StatsRequest.getDefaultInstance()));
        } catch (AccountingClient.AccountingException e) {
            if (e.code() == ErrorCode.ACCESS_DENIED.number()) {
                return 1;
            }
            throw e;
        }
        return 0;
    }

    static String render(DbdStats stats, ZoneId zone) {
        StringBuilder b = new StringBuilder();
        b.append(STARS).append('\n');
        b.append("sacctmgr show stats output at ")
                .append(SdiagReport.when(stats.getNow(), zone))
                .append('\n');
        b.append("Data since                    ")
                .append(SdiagReport.when(stats.getSince(), zone))
                .append('\n');
        b.append("All statistics are in microseconds\n");
        b.append(STARS).append('\n');
        if (stats.hasInternalRollup()) {
            RollupTally r = stats.getInternalRollup();
            b.append("\nInternal DBD rollup last ran ")
                    .append(SdiagReport.when(r.getLastRun(), zone))
                    .append('\n');
            b.append("\tLast cycle:   ").append(r.getLastCycle()).append('\n');
            b.append("\tMax cycle:    ").append(r.getMaxCycle()).append('\n');
            b.append("\tTotal time:   ").append(r.getTotalTime()).append('\n');
            b.append("\tTotal cycles: ").append(r.getCycles()).append('\n');
            b.append("\tMean cycle:   ")
                    .append(r.getCycles() == 0 ? 0 : r.getTotalTime() / r.getCycles())
                    .append('\n');
        }
        b.append("\nRemote Procedure Call statistics by message type\n");
        sorted(stats.getByTypeList()).forEach(t -> line(b, "%-25s(%5d)", t));
        b.append("\nRemote Procedure Call statistics by user\n");
        sorted(stats.getByUserList()).forEach(t -> line(b, "%-20s(%10d)", t));
        return b.toString();
    }

    private static List<RpcTally> sorted(List<RpcTally> tallies) {
        return tallies.stream().sorted(ORDER).toList();
    }

    private static void line(StringBuilder b, String name, RpcTally t) {
        long average = t.getCount() == 0 ? 0 : t.getTotalMicros() / t.getCount();
        b.append('\t')
                .append(String.format(name, t.getName(), Integer.toUnsignedLong(t.getId())))
                .append(String.format(
                        " count:%-6d ave_time:%-6d total_time:%d%n", t.getCount(), average, t.getTotalMicros()));
    }
}
