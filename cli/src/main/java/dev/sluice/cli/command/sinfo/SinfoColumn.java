package dev.sluice.cli.command.sinfo;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.view.NodeStates;
import dev.sluice.common.slurm.PartitionState;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.WireStates;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.protocol.v1.PartitionInfo;
import java.util.Locale;
import java.util.Map;

/**
 * One sinfo {@code -o} letter. A per-record column is printed from the first record of a line
 * and takes part in grouping (records that print differently get different lines); an aggregate
 * column ({@code %N}, {@code %D}, {@code %F}, ...) sums up all records of a line. Values come
 * from one switch, not a lambda per letter, to keep the command's start-up short.
 */
record SinfoColumn(String header, boolean aggregate) {
    SinfoColumn {
        requireNonNull(header, "header is null");
    }

    private static SinfoColumn one(String header) {
        return new SinfoColumn(header, false);
    }

    private static SinfoColumn total(String header) {
        return new SinfoColumn(header, true);
    }

    /** Letters and the headers sinfo 22.05 prints for them (observed: see the golden tests). */
    static final Map<Character, SinfoColumn> LETTERS = Map.ofEntries(
            Map.entry('P', one("PARTITION")),
            Map.entry('R', one("PARTITION")),
            Map.entry('a', one("AVAIL")),
            Map.entry('l', one("TIMELIMIT")),
            Map.entry('L', one("DEFAULTTIME")),
            Map.entry('s', one("JOB_SIZE")),
            Map.entry('r', one("ROOT")),
            Map.entry('h', one("OVERSUBSCRIBE")),
            Map.entry('g', one("GROUPS")),
            Map.entry('t', one("STATE")),
            Map.entry('T', one("STATE")),
            Map.entry('c', one("CPUS")),
            Map.entry('m', one("MEMORY")),
            Map.entry('d', one("TMP_DISK")),
            Map.entry('w', one("WEIGHT")),
            Map.entry('f', one("AVAIL_FEATURES")),
            Map.entry('b', one("ACTIVE_FEATURES")),
            Map.entry('G', one("GRES")),
            Map.entry('E', one("REASON")),
            Map.entry('H', one("TIMESTAMP")),
            Map.entry('u', one("USER")),
            Map.entry('U', one("USER")),
            Map.entry('z', one("S:C:T")),
            Map.entry('O', one("CPU_LOAD")),
            Map.entry('e', one("FREE_MEM")),
            Map.entry('X', one("SOCKETS")),
            Map.entry('Y', one("CORES")),
            Map.entry('Z', one("THREADS")),
            Map.entry('N', total("NODELIST")),
            Map.entry('n', total("HOSTNAMES")),
            Map.entry('o', total("NODE_ADDR")),
            Map.entry('D', total("NODES")),
            Map.entry('F', total("NODES(A/I/O/T)")),
            Map.entry('A', total("NODES(A/I)")),
            Map.entry('C', total("CPUS(A/I/O/T)")));

    // Columns -O names (and, for two of them, -o letters: %p PRIO_TIER and %M PREEMPT_MODE, as
    // sinfo 22.05 prints them): private-use characters, so that no other -o letter reaches them.
    static final char ALLOC_MEM = '\uE000';
    static final char GRES_USED = '\uE001';
    static final char PORT = '\uE002';
    static final char VERSION = '\uE003';
    static final char PRIORITY_TIER = '\uE004';
    static final char PRIORITY_JOB_FACTOR = '\uE005';
    static final char PREEMPT_MODE = '\uE006';

    /** Headers of the {@code -O}-only columns (observed: sinfo 22.05 {@code -O Name:40}). */
    private static final Map<Character, SinfoColumn> NAMED_ONLY = Map.of(
            ALLOC_MEM, one("ALLOCMEM"),
            GRES_USED, one("GRES_USED"),
            PORT, one("PORT"),
            VERSION, one("VERSION"),
            PRIORITY_TIER, one("PRIO_TIER"),
            PRIORITY_JOB_FACTOR, one("PRIO_JOB_FACTOR"),
            PREEMPT_MODE, one("PREEMPT_MODE"));

    /** The column of an {@code -o} letter or of an {@code -O}-only field. */
    static SinfoColumn of(char letter) {
        SinfoColumn c = LETTERS.get(letter);
        return c != null ? c : NAMED_ONLY.get(named(letter));
    }

    /** Every {@code -o} letter: those of {@code LETTERS}, {@code %p} and {@code %M}. */
    static java.util.Set<Character> letters() {
        java.util.Set<Character> all = new java.util.HashSet<>(LETTERS.keySet());
        all.add('p');
        all.add('M');
        return all;
    }

    /** The -O column an -o letter stands for: {@code %p} and {@code %M}; else the letter. */
    private static char named(char letter) {
        return switch (letter) {
            case 'p' -> PRIORITY_TIER;
            case 'M' -> PREEMPT_MODE;
            default -> letter;
        };
    }

    /** The text of {@code letter} for a line; the letter is one {@link #of} knows. */
    static String value(char given, SinfoLine line) {
        char letter = LETTERS.containsKey(given) ? given : named(given);
        switch (letter) {
            case 'N':
                return line.nodeList();
            case 'n':
                return line.hostNames();
            case 'o':
                return line.addresses();
            case 'D':
                return Integer.toString(line.nodeCount());
            case 'F':
                return line.nodesAiot();
            case 'A':
                return line.nodesAi();
            case 'C':
                return line.cpusAiot();
            case 'H':
                return line.reasonTime();
            case 'U':
                return line.reasonUserWithId();
            default:
                break;
        }
        NodeRecord first = line.first();
        if ("PRalLsrhg".indexOf(letter) >= 0
                || letter == PRIORITY_TIER
                || letter == PRIORITY_JOB_FACTOR
                || letter == PREEMPT_MODE) {
            return first.partition() == null ? "n/a" : partitionValue(letter, first.partition());
        }
        return first.empty() ? "n/a" : nodeValue(letter, first.node());
    }

    private static String partitionValue(char letter, PartitionInfo p) {
        return switch (letter) {
            case 'P' -> p.getName() + (p.getIsDefault() ? "*" : "");
            case 'R' -> p.getName();
            case 'a' -> avail(p);
            case 'l' -> TimeLimit.formatSinfo(SlurmLimits.fromWire(p.getMaxTimeMinutes()));
            case 'L' -> defaultTime(p);
            case 's' -> jobSize(p);
            case 'r' -> p.getRootOnly() ? "yes" : "no";
            case 'h' -> orDefault(p.getOverSubscribe(), "NO");
            case 'g' -> orDefault(p.getAllowGroups(), "all");
            case PRIORITY_TIER -> Integer.toUnsignedString(p.getPriorityTier());
            case PRIORITY_JOB_FACTOR -> Integer.toUnsignedString(p.getPriorityJobFactor());
            case PREEMPT_MODE -> orDefault(p.getPreemptMode(), "OFF");
            default -> throw new IllegalArgumentException("no sinfo partition field %" + letter);
        };
    }

    private static String nodeValue(char letter, NodeInfo n) {
        return switch (letter) {
            case 't' -> NodeStates.compactName(n);
            case 'T' -> NodeStates.longName(n);
            case 'c' -> Integer.toUnsignedString(n.getCpus());
            case 'm' -> Long.toUnsignedString(n.getRealMemoryMb());
            case 'd' -> Long.toUnsignedString(n.getTmpDiskMb());
            case 'w' -> Integer.toUnsignedString(n.getWeight());
            case 'f', 'b' -> orNull(String.join(",", n.getFeaturesList()));
            case 'G' -> orNull(n.getGres());
            case 'E' -> orDefault(n.getReason(), "none");
            case 'u' -> orDefault(n.getReasonUser(), "Unknown");
            case 'z' -> n.getSockets() + ":" + n.getCoresPerSocket() + ":" + n.getThreadsPerCore();
            case 'O' -> String.format(Locale.ROOT, "%.2f", n.getCpuLoad());
            case 'e' -> Long.toUnsignedString(n.getFreeMemoryMb());
            case 'X' -> Integer.toUnsignedString(n.getSockets());
            case 'Y' -> Integer.toUnsignedString(n.getCoresPerSocket());
            case 'Z' -> Integer.toUnsignedString(n.getThreadsPerCore());
            case ALLOC_MEM -> Long.toUnsignedString(n.getAllocMemoryMb());
            case GRES_USED -> orNull(n.getGresUsed());
            case PORT -> Integer.toUnsignedString(n.getPort());
            case VERSION -> orDefault(n.getVersion(), "N/A");
            default -> throw new IllegalArgumentException("no sinfo node field %" + letter);
        };
    }

    private static String avail(PartitionInfo p) {
        return WireStates.partitionState(p.getState())
                .map(PartitionState::sinfoName)
                .orElse("unk");
    }

    private static String defaultTime(PartitionInfo p) {
        // 0 on the wire is proto3's "unset": no DefaultTime configured, which sinfo shows as n/a.
        int wire = p.getDefaultTimeMinutes();
        return wire == 0 ? "n/a" : TimeLimit.formatSinfo(SlurmLimits.fromWire(wire));
    }

    private static String jobSize(PartitionInfo p) {
        long min = Math.max(1, Integer.toUnsignedLong(p.getMinNodes()));
        int max = p.getMaxNodes();
        String maxText = max == 0 || max == SlurmLimits.INFINITE32 ? "infinite" : Integer.toUnsignedString(max);
        return min + "-" + maxText;
    }

    static String orNull(String s) {
        return s.isEmpty() ? "(null)" : s;
    }

    static String orDefault(String s, String dflt) {
        return s.isEmpty() ? dflt : s;
    }
}
