package dev.sluice.dbd.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * slurmdbd's statistics as {@code sacctmgr show stats} and dbv0.0.38's {@code diag} report them:
 * the requests served since {@link #since} (the daemon's start or the last {@code sacctmgr clear
 * stats}), tallied by message type and by user, each with its count and total time, in the
 * order each was first counted (diag lists them so; sacctmgr sorts them itself), and the usage
 * rollup's cycles. Immutable: each request makes a new value, so a reader sees whole requests.
 */
public record RpcStatistics(long since, Map<Key, Tally> byType, Map<Key, Tally> byUser, Rollup rollup) {

    /** A message type (Slurm's name and number) or a user (name and uid). */
    public record Key(String name, long id) {}

    /** How many, and how long in all (microseconds). */
    public record Tally(long count, long totalMicros) {
        Tally plus(long micros) {
            return new Tally(count + 1, totalMicros + micros);
        }

        /** Slurm's ave_time: the total over the count, rounded down; 0 for none. */
        public long averageMicros() {
            return count == 0 ? 0 : totalMicros / count;
        }
    }

    /** The rollup's cycles (microseconds); {@code lastRun} 0 when it has not run since {@link #since}. */
    public record Rollup(long lastRun, long lastCycle, long maxCycle, long totalTime, long cycles) {
        static final Rollup NONE = new Rollup(0, 0, 0, 0, 0);

        Rollup plus(long ranAt, long micros) {
            return new Rollup(ranAt, micros, Math.max(maxCycle, micros), totalTime + micros, cycles + 1);
        }

        /** Slurm's mean cycle: the total over the cycles, rounded down; 0 for none. */
        public long meanCycle() {
            return cycles == 0 ? 0 : totalTime / cycles;
        }

        public boolean ran() {
            return cycles > 0;
        }
    }

    public RpcStatistics {
        byType = Collections.unmodifiableMap(new LinkedHashMap<>(byType));
        byUser = Collections.unmodifiableMap(new LinkedHashMap<>(byUser));
    }

    /** Nothing counted since {@code now} (epoch seconds). */
    public static RpcStatistics since(long now) {
        return new RpcStatistics(now, Map.of(), Map.of(), Rollup.NONE);
    }

    /** With one more request of {@code type} by {@code user}, which took {@code micros}. */
    public RpcStatistics count(Key type, Key user, long micros) {
        return new RpcStatistics(since, added(byType, type, micros), added(byUser, user, micros), rollup);
    }

    /** With one more rollup, run at {@code ranAt} (epoch seconds), which took {@code micros}. */
    public RpcStatistics rolledUp(long ranAt, long micros) {
        return new RpcStatistics(since, byType, byUser, rollup.plus(ranAt, micros));
    }

    private static Map<Key, Tally> added(Map<Key, Tally> tallies, Key key, long micros) {
        Map<Key, Tally> m = new LinkedHashMap<>(tallies);
        m.put(key, m.getOrDefault(key, new Tally(0, 0)).plus(micros));
        return m;
    }
}
