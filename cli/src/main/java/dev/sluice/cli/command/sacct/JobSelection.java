package dev.sluice.cli.command.sacct;

import dev.sluice.common.slurm.SlurmLimits;
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
 * sacct's {@code -j} list: {@code 12} selects the job (or every task of array 12) and its steps,
 * {@code 12_3} one array task, {@code 12.batch} or {@code 12_3.0} only that step. Empty: every
 * job the query returned.
 */
final class JobSelection {
    private static final Pattern ITEM =
            Pattern.compile("([0-9]{1,10})(_[0-9]{1,10})?(?:\\.(batch|extern|[0-9]{1,10}))?");

    /** Job ids (and array task ids, "6_2") whose lines are all wanted; steps wanted by name. */
    private final Map<String, Set<String>> steps = new LinkedHashMap<>();

    private final Set<String> whole = new LinkedHashSet<>();
    private final Set<Integer> ids = new LinkedHashSet<>();

    /** @throws IllegalArgumentException naming the first bad item */
    static JobSelection parse(List<String> items) {
        JobSelection s = new JobSelection();
        for (String item : items) {
            Matcher m = ITEM.matcher(item);
            long id = m.matches() ? Long.parseLong(m.group(1)) : -1;
            if (id < 0 || id > SlurmLimits.MAX_UINT32) {
                throw new IllegalArgumentException(item);
            }
            s.ids.add((int) id);
            String key = m.group(1) + (m.group(2) == null ? "" : m.group(2));
            if (m.group(3) == null) {
                s.whole.add(key);
            } else {
                s.steps.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(m.group(3));
            }
        }
        return s;
    }

    boolean isEmpty() {
        return whole.isEmpty() && steps.isEmpty();
    }

    /** The job (or array) ids to ask the database for. */
    List<Integer> jobIds() {
        return List.copyOf(ids);
    }

    /** The names a job answers to: its id, its array's id, its task ("6_2"). */
    private static List<String> keys(AccountedJob job) {
        List<String> k = new ArrayList<>();
        k.add(Integer.toUnsignedString(job.getJobId()));
        if (job.getArrayJobId() != 0) {
            k.add(Integer.toUnsignedString(job.getArrayJobId()));
            k.add(job.getDisplayId());
        }
        return k;
    }

    /** The lines to print for the jobs the database returned, in its order. */
    List<SacctRow> rows(List<AccountedJob> jobs, boolean allocationsOnly) {
        List<SacctRow> rows = new ArrayList<>();
        for (AccountedJob job : jobs) {
            List<String> keys = keys(job);
            boolean all = isEmpty() || keys.stream().anyMatch(whole::contains);
            if (all) {
                rows.add(new SacctRow(job, null));
            }
            if (allocationsOnly) {
                continue;
            }
            Set<String> wanted = new LinkedHashSet<>();
            keys.forEach(k -> wanted.addAll(steps.getOrDefault(k, Set.of())));
            for (AccountedStep step : job.getStepsList()) {
                if (all || wanted.contains(SacctRow.stepName(step.getStepId()))) {
                    rows.add(new SacctRow(job, step));
                }
            }
        }
        return rows;
    }
}
