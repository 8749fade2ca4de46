package dev.sluice.cli.command.sacct;

import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * sacct's {@code -j} list: {@code 12} selects the job and its steps, {@code 12.batch} or
 * {@code 12.0} only that step. Empty: every job the query returned.
 */
final class JobSelection {
    private static final Pattern ITEM = Pattern.compile("([0-9]{1,10})(?:\\.(batch|extern|[0-9]{1,10}))?");

    private final Map<Integer, Set<String>> steps = new LinkedHashMap<>();
    private final Set<Integer> whole = new LinkedHashSet<>();

    /** @throws IllegalArgumentException naming the first bad item */
    static JobSelection parse(List<String> items) {
        JobSelection s = new JobSelection();
        for (String item : items) {
            Matcher m = ITEM.matcher(item);
            long id = m.matches() ? Long.parseLong(m.group(1)) : -1;
            if (id < 0 || id > 0xffffffffL) {
                throw new IllegalArgumentException(item);
            }
            int jobId = (int) id;
            if (m.group(2) == null) {
                s.whole.add(jobId);
            } else {
                s.steps.computeIfAbsent(jobId, k -> new LinkedHashSet<>()).add(m.group(2));
            }
        }
        return s;
    }

    boolean isEmpty() {
        return whole.isEmpty() && steps.isEmpty();
    }

    /** The job ids to ask the database for. */
    List<Integer> jobIds() {
        Set<Integer> ids = new LinkedHashSet<>(whole);
        ids.addAll(steps.keySet());
        return List.copyOf(ids);
    }

    /** The lines to print for the jobs the database returned, in its order. */
    List<SacctRow> rows(List<AccountedJob> jobs, boolean allocationsOnly) {
        List<SacctRow> rows = new ArrayList<>();
        for (AccountedJob job : jobs) {
            boolean all = isEmpty() || whole.contains(job.getJobId());
            if (all) {
                rows.add(new SacctRow(job, null));
            }
            if (allocationsOnly) {
                continue;
            }
            Set<String> wanted = steps.getOrDefault(job.getJobId(), Set.of());
            for (AccountedStep step : job.getStepsList()) {
                if (all || wanted.contains(SacctRow.stepName(step.getStepId()))) {
                    rows.add(new SacctRow(job, step));
                }
            }
        }
        return rows;
    }
}
