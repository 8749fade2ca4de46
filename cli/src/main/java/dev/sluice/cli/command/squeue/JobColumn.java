package dev.sluice.cli.command.squeue;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.view.JobView;
import dev.sluice.cli.view.NodeLists;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.common.units.MemorySize;
import java.util.Locale;
import java.util.Map;

/**
 * One squeue {@code -o} field letter: its header and whether Slurm cuts header and value to the
 * column width; {@link #value} derives the text. Durations and node lists are never cut (Slurm
 * prints {@code n[1-2]} whole in {@code %.5N}); a pending job's reason in {@code %R} is cut but
 * its header is not.
 *
 * <p>Values come from one switch rather than a lambda per letter: every lambda is a class the
 * JVM must spin at start-up, and a command's whole run is its start-up.
 */
record JobColumn(String header, boolean cutHeader, boolean cutValue) {
    JobColumn {
        requireNonNull(header, "header is null");
    }

    private static JobColumn cut(String header) {
        return new JobColumn(header, true, true);
    }

    private static JobColumn whole(String header) {
        return new JobColumn(header, true, false);
    }

    // Fields only -O can name (22.05 has no -o letter for them): private-use characters, so
    // that no -o string can reach them.
    static final char CPUS_PER_TASK = '\uE000';
    static final char NUM_TASKS = '\uE001';

    /** Letters and the headers squeue 22.05 prints for them (observed: see TestGoldenOutputs). */
    static final Map<Character, JobColumn> LETTERS = Map.ofEntries(
            Map.entry('i', cut("JOBID")),
            Map.entry('A', cut("JOBID")),
            Map.entry('F', cut("ARRAY_JOB_ID")),
            Map.entry('K', cut("ARRAY_TASK_ID")),
            Map.entry('P', cut("PARTITION")),
            Map.entry('j', cut("NAME")),
            Map.entry('u', cut("USER")),
            Map.entry('U', cut("UID")),
            Map.entry('g', cut("GROUP")),
            Map.entry('G', cut("GROUP")),
            Map.entry('t', cut("ST")),
            Map.entry('T', cut("STATE")),
            Map.entry('M', whole("TIME")),
            Map.entry('l', whole("TIME_LIMIT")),
            Map.entry('L', whole("TIME_LEFT")),
            Map.entry('D', cut("NODES")),
            Map.entry('C', cut("CPUS")),
            Map.entry('c', cut("MIN_CPUS")),
            Map.entry('m', cut("MIN_MEMORY")),
            Map.entry('d', cut("MIN_TMP_DISK")),
            Map.entry('R', new JobColumn("NODELIST(REASON)", false, true)),
            Map.entry('N', new JobColumn("NODELIST", false, false)),
            Map.entry('B', cut("EXEC_HOST")),
            Map.entry('r', cut("REASON")),
            Map.entry('b', cut("TRES_PER_NODE")),
            Map.entry('S', cut("START_TIME")),
            Map.entry('e', cut("END_TIME")),
            Map.entry('V', cut("SUBMIT_TIME")),
            Map.entry('Q', cut("PRIORITY")),
            Map.entry('p', cut("PRIORITY")),
            Map.entry('y', cut("NICE")),
            Map.entry('Z', cut("WORK_DIR")),
            Map.entry('a', cut("ACCOUNT")),
            Map.entry('q', cut("QOS")),
            Map.entry('k', cut("COMMENT")),
            Map.entry('f', cut("FEATURES")),
            Map.entry('h', cut("OVER_SUBSCRIBE")),
            Map.entry('n', cut("REQ_NODES")),
            Map.entry('x', cut("EXC_NODES")),
            Map.entry('O', cut("CONTIGUOUS")),
            Map.entry('z', cut("S:C:T")),
            Map.entry('H', cut("SOCKETS_PER_NODE")),
            Map.entry('I', cut("CORES_PER_SOCKET")),
            Map.entry('J', cut("THREADS_PER_CORE")),
            Map.entry('X', cut("CORE_SPEC")),
            Map.entry('v', cut("RESERVATION")),
            Map.entry('w', cut("WCKEY")),
            Map.entry('W', cut("LICENSES")),
            Map.entry('E', cut("DEPENDENCY")),
            Map.entry('o', cut("COMMAND")),
            Map.entry('Y', cut("SCHEDNODES")),
            Map.entry(CPUS_PER_TASK, cut("CPUS_PER_TASK")),
            Map.entry(NUM_TASKS, cut("TASKS")));

    /** The text of {@code letter} for {@code j}; the letter is one of {@link #LETTERS}. */
    static String value(char letter, JobView j) {
        return switch (letter) {
            case 'i' -> j.jobId();
            case 'A' -> j.internalId();
            case 'F' -> j.arrayJobId();
            case 'K' -> j.arrayTaskId();
            case 'P' -> j.partition();
            case 'j' -> j.name();
            case 'u' -> j.userName();
            case 'U' -> Long.toString(j.uid());
            case 'g' -> j.groupName();
            case 'G' -> Long.toString(j.gid());
            case 't' -> j.stateCompact();
            case 'T' -> j.stateName();
            case 'M' -> j.elapsed();
            case 'l' -> TimeLimit.formatSqueue(j.timeLimitMinutes());
            case 'L' -> j.timeLeft();
            case 'D' -> Long.toString(j.nodeCount());
            case 'C' -> Long.toString(j.cpuCount());
            case CPUS_PER_TASK -> Long.toString(j.cpusPerTask());
            case NUM_TASKS ->
                Long.toString(Math.max(1, Integer.toUnsignedLong(j.spec().getNumTasks())));
            case 'c' -> Long.toString(j.minCpusPerNode());
            case 'm' -> minMemory(j);
            case 'd', 'O' -> "0";
            case 'R' -> j.nodesOrReason();
            case 'N' -> j.nodeList();
            case 'B' -> j.info().getBatchHost().isEmpty() ? "n/a" : j.info().getBatchHost();
            case 'r' -> j.described();
            case 'b' -> j.tresPerNode();
            case 'S' -> j.timeOrNa(j.info().getStartTime());
            case 'e' -> j.timeOrNa(j.endTime());
            case 'V' -> j.timeOrNa(j.info().getSubmitTime());
            case 'Q' -> j.priority();
            case 'p' -> normalizedPriority(j);
            case 'y' -> Integer.toString(j.spec().getNice());
            case 'Z' -> j.workDir();
            case 'a' -> JobView.orNull(j.spec().getAccount());
            case 'q' -> JobView.orNull(j.spec().getQos());
            case 'k' -> JobView.orNull(j.spec().getComment());
            case 'f' -> JobView.orNull(j.spec().getConstraint());
            case 'h' -> JobView.overSubscribe(j.spec());
            case 'n' -> NodeLists.ranged(j.spec().getReqNodes());
            case 'x' -> NodeLists.ranged(j.spec().getExcludeNodes());
            case 'z' -> "*:*:*";
            case 'H', 'I', 'J' -> "*";
            case 'X' -> "N/A";
            // Features Sluice does not have yet: Slurm prints (null) for them when unset, and
            // in Sluice they are always unset.
            case 'o' -> j.command();
            case 'E' -> JobView.orNull(j.info().getDependency());
            case 'W' -> JobView.orNull(j.spec().getLicenses());
            case 'v' -> JobView.orNull(j.spec().getReservation());
            case 'w' -> JobView.orNull(j.spec().getWckey());
            // The nodes backfill planned for a pending job (compat 261).
            case 'Y' -> JobView.orNull(j.info().getSchedNodes());
            default -> throw new IllegalArgumentException("no squeue field %" + letter);
        };
    }

    /** squeue {@code %m}: memory per node, or per CPU, in Slurm's unit form; 0 when unset. */
    /**
     * squeue {@code %m}: the memory the job asked for, per CPU or per node as it asked (Slurm
     * 22.05: {@code --mem-per-cpu=2001 -c4} shows 2001M, not the node's 8004M); what it holds
     * when it asked for none (a default was applied).
     */
    private static String minMemory(JobView j) {
        long asked = j.spec().getMemPerCpuMb() > 0
                ? j.spec().getMemPerCpuMb()
                : j.spec().getMemPerNodeMb();
        return MemorySize.format(asked > 0 ? asked : j.info().getMemPerNodeMb());
    }

    /** squeue {@code %p}: priority scaled into [0, 1] over the 32-bit range, 14 decimals. */
    private static String normalizedPriority(JobView j) {
        double p = Integer.toUnsignedLong(j.info().getPriority()) / (double) SlurmLimits.MAX_UINT32;
        return String.format(Locale.ROOT, "%.14f", p);
    }
}
