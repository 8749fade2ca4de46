package dev.sluice.cli.command.squeue;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.view.JobView;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.common.units.MemorySize;
import java.util.Map;
import java.util.function.Function;

/**
 * One squeue {@code -o} field letter: its header, whether Slurm cuts header and value to the
 * column width, and how the value is derived. Durations and node lists are never cut (Slurm
 * prints {@code n[1-2]} whole in {@code %.5N}); a pending job's reason in {@code %R} is cut
 * but its header is not.
 */
record JobColumn(String header, boolean cutHeader, boolean cutValue, Function<JobView, String> value) {
    JobColumn {
        requireNonNull(header, "header is null");
        requireNonNull(value, "value is null");
    }

    static JobColumn cut(String header, Function<JobView, String> value) {
        return new JobColumn(header, true, true, value);
    }

    static JobColumn whole(String header, Function<JobView, String> value) {
        return new JobColumn(header, true, false, value);
    }

    /** Letters and what squeue 22.05 prints for them (observed: see JobFormatterTest). */
    static final Map<Character, JobColumn> LETTERS = Map.ofEntries(
            Map.entry('i', cut("JOBID", JobView::jobId)),
            Map.entry('A', cut("JOBID", JobView::jobId)),
            Map.entry('F', cut("ARRAY_JOB_ID", JobView::jobId)),
            Map.entry('K', cut("ARRAY_TASK_ID", j -> "N/A")),
            Map.entry('P', cut("PARTITION", JobView::partition)),
            Map.entry('j', cut("NAME", JobView::name)),
            Map.entry('u', cut("USER", JobView::userName)),
            Map.entry('U', cut("UID", j -> Long.toString(j.uid()))),
            Map.entry('g', cut("GROUP", JobView::groupName)),
            Map.entry('G', cut("GROUP", j -> Long.toString(j.gid()))),
            Map.entry('t', cut("ST", j -> dev.sluice.cli.view.JobStates.compactName(j.state()))),
            Map.entry('T', cut("STATE", j -> dev.sluice.cli.view.JobStates.longName(j.state()))),
            Map.entry('M', whole("TIME", JobView::elapsed)),
            Map.entry('l', whole("TIME_LIMIT", j -> TimeLimit.formatSqueue(j.timeLimitMinutes()))),
            Map.entry('L', whole("TIME_LEFT", JobView::timeLeft)),
            Map.entry('D', cut("NODES", j -> Long.toString(j.nodeCount()))),
            Map.entry('C', cut("CPUS", j -> Long.toString(j.cpuCount()))),
            Map.entry('c', cut("MIN_CPUS", j -> Long.toString(j.minCpusPerNode()))),
            Map.entry('m', cut("MIN_MEMORY", JobColumn::minMemory)),
            Map.entry('d', cut("MIN_TMP_DISK", j -> "0")),
            Map.entry('R', new JobColumn("NODELIST(REASON)", false, true, JobView::nodesOrReason)),
            Map.entry('N', new JobColumn("NODELIST", false, false, JobView::nodeList)),
            Map.entry('B', cut("EXEC_HOST", j -> orNa(j.info().getBatchHost()))),
            Map.entry('r', cut("REASON", JobView::reason)),
            Map.entry('b', cut("TRES_PER_NODE", JobView::tresPerNode)),
            Map.entry('S', cut("START_TIME", j -> j.timeOrNa(j.info().getStartTime()))),
            Map.entry('e', cut("END_TIME", j -> j.timeOrNa(j.info().getEndTime()))),
            Map.entry('V', cut("SUBMIT_TIME", j -> j.timeOrNa(j.info().getSubmitTime()))),
            Map.entry('Q', cut("PRIORITY", JobView::priority)),
            Map.entry('p', cut("PRIORITY", JobColumn::normalizedPriority)),
            Map.entry('y', cut("NICE", j -> Integer.toString(j.spec().getNice()))),
            Map.entry('Z', cut("WORK_DIR", JobView::workDir)),
            Map.entry('a', cut("ACCOUNT", j -> JobView.orNull(j.spec().getAccount()))),
            Map.entry('q', cut("QOS", j -> JobView.orNull(j.spec().getQos()))),
            Map.entry('k', cut("COMMENT", j -> JobView.orNull(j.spec().getComment()))),
            Map.entry('f', cut("FEATURES", j -> JobView.orNull(j.spec().getConstraint()))),
            Map.entry('h', cut("OVER_SUBSCRIBE", j -> j.spec().getExclusive() ? "NO" : "OK")),
            Map.entry(
                    'n',
                    cut(
                            "REQ_NODES",
                            j -> dev.sluice.cli.view.NodeLists.ranged(j.spec().getReqNodes()))),
            Map.entry(
                    'x',
                    cut(
                            "EXC_NODES",
                            j -> dev.sluice.cli.view.NodeLists.ranged(j.spec().getExcludeNodes()))),
            Map.entry('O', cut("CONTIGUOUS", j -> "0")),
            Map.entry('z', cut("S:C:T", j -> "*:*:*")),
            Map.entry('H', cut("SOCKETS_PER_NODE", j -> "*")),
            Map.entry('I', cut("CORES_PER_SOCKET", j -> "*")),
            Map.entry('J', cut("THREADS_PER_CORE", j -> "*")),
            Map.entry('X', cut("CORE_SPEC", j -> "N/A")),
            // Features Sluice does not have yet: Slurm prints (null) for them when unset, and
            // in Sluice they are always unset.
            Map.entry('v', cut("RESERVATION", j -> "(null)")),
            Map.entry('w', cut("WCKEY", j -> "(null)")),
            Map.entry('W', cut("LICENSES", j -> "(null)")),
            Map.entry('E', cut("DEPENDENCY", j -> "(null)")),
            Map.entry('o', cut("COMMAND", j -> "(null)")),
            Map.entry('Y', cut("SCHEDNODES", j -> "(null)")));

    private static String orNa(String s) {
        return s.isEmpty() ? "n/a" : s;
    }

    /** squeue {@code %m}: memory per node, or per CPU, in Slurm's unit form; 0 when unset. */
    private static String minMemory(JobView j) {
        long perNode = j.info().getMemPerNodeMb() > 0
                ? j.info().getMemPerNodeMb()
                : j.spec().getMemPerNodeMb();
        long mb = perNode > 0 ? perNode : j.spec().getMemPerCpuMb();
        return MemorySize.format(mb);
    }

    /** squeue {@code %p}: priority scaled into [0, 1] over the 32-bit range, 14 decimals. */
    private static String normalizedPriority(JobView j) {
        double p = Integer.toUnsignedLong(j.info().getPriority()) / (double) 0xffffffffL;
        return String.format(java.util.Locale.ROOT, "%.14f", p);
    }
}
