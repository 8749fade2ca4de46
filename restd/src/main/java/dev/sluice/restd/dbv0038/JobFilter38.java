package dev.sluice.restd.dbv0038;

import dev.sluice.cli.view.JobStates;
import dev.sluice.common.slurm.StepIds;
import dev.sluice.common.time.BeginTime;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.restd.slurmdb.QueryParams;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The query of {@code GET /slurmdb/v0.0.38/jobs} as slurmrestd 22.05 reads it (compat 154): the
 * fields it knows (any other, {@code users} among them, refuses the whole query), applied as
 * slurmdbd applies them. A state is the state during the query's window, which without times
 * is the present moment, so a state alone finds no job that has ended; QOS are chosen by their
 * numbers (a name finds none).
 */
record JobFilter38(Optional<JobQuery> query, List<Integer> qosIds, Optional<String> step, JobLimits38 limits) {
    /**
     * The fields 22.05's dbv0.0.38 takes (compat 180: {@code groups}, not {@code group}). {@code
     * exit_code} and {@code reservation} are read but slurmdbd 22.05 chose every job with them
     * (compat 180, 182); {@code format} and {@code
     * disable_wait_for_result} change nothing slurmrestd prints.
     */
    private static final Set<String> KNOWN = Set.of(
            "submit_time",
            "start_time",
            "end_time",
            "account",
            "association",
            "cluster",
            "constraints",
            "cpus_max",
            "cpus_min",
            "skip_steps",
            "disable_wait_for_result",
            "exit_code",
            "format",
            "groups",
            "job_name",
            "nodes_max",
            "nodes_min",
            "partition",
            "qos",
            "reason",
            "reservation",
            "state",
            "step",
            "node",
            "wckey");

    /** What slurmrestd refuses before asking slurmdbd: its description and (maybe null) source. */
    static final class BadQuery extends Exception {
        private final String source;

        BadQuery(String description, String source) {
            super(description);
            this.source = source;
        }

        String source() {
            return source;
        }
    }

    static JobFilter38 read(Map<String, String> q, Instant now) throws BadQuery {
        // In the query's order, as slurmrestd walks it: the first field it cannot take refuses
        // the query, and of submit_time and start_time the second one is refused.
        boolean submitTime = false;
        boolean startTime = false;
        for (String key : q.keySet()) {
            if (!KNOWN.contains(key)) {
                throw new BadQuery("Unknown Query field", null);
            }
            if ((key.equals("start_time") && submitTime) || (key.equals("submit_time") && startTime)) {
                throw new BadQuery("start_time and submit_time are mutually exclusive", key);
            }
            submitTime |= key.equals("submit_time");
            startTime |= key.equals("start_time");
            if (JobLimits38.INTEGERS.contains(key) && !JobLimits38.isInteger(q.get(key))) {
                throw new BadQuery("must be an integer", key);
            }
        }
        JobQuery.Builder b = JobQuery.newBuilder();
        list(q, "job_name").forEach(b::addJobNames);
        list(q, "partition").forEach(b::addPartitions);
        list(q, "account").forEach(b::addAccounts);
        list(q, "cluster").forEach(b::addClusters);
        b.setAllocationsOnly(q.containsKey("skip_steps") && bool(q.get("skip_steps")));
        // submit_time is the window's start as start_time is, without slurmdbd's defaults.
        long start = time(q, submitTime ? "submit_time" : "start_time", now);
        long end = time(q, "end_time", now);
        List<String> states = list(q, "state");
        boolean impossible = false;
        for (String s : states) {
            Optional<JobState> state = JobStates.parse(s);
            if (state.isEmpty()) {
                impossible = true;
            } else {
                b.addStates(state.get());
            }
        }
        if (!states.isEmpty()) {
            // slurmdbd's defaults for a state (slurmdb_job_cond_def_start_end): with a job, the
            // window runs from the epoch to its start or else now; without, from now to its
            // start. submit_time turns the defaults off, and a state in a window that ends at 0
            // finds nothing (compat 182).
            boolean job = q.containsKey("step") && !q.get("step").isBlank();
            if (submitTime) {
                impossible |= end == 0;
            } else if (job) {
                end = end == 0 ? (start == 0 ? now.getEpochSecond() : start) : end;
            } else {
                start = start == 0 ? now.getEpochSecond() : start;
                end = end == 0 ? start : end;
            }
        }
        b.setWindowStart(start).setWindowEnd(end);
        List<Integer> qos = List.of();
        if (q.containsKey("qos")) {
            qos = list(q, "qos").stream().map(JobFilter38::qosNumber).toList();
        }
        // step: one job (JOB) or one of its steps (JOB.STEP: the job with that step alone).
        Optional<String> step = Optional.empty();
        String wanted = q.get("step");
        if (wanted != null && !wanted.isBlank()) {
            String[] parts = wanted.strip().split("\\.", 2);
            int job = number(parts[0]);
            if (job <= 0) {
                impossible = true;
            } else {
                b.addJobIds(job);
            }
            if (parts.length > 1) {
                step = Optional.of(parts[1]);
            }
        }
        return new JobFilter38(impossible ? Optional.empty() : Optional.of(b.build()), qos, step, JobLimits38.read(q));
    }

    /** job/{id}: that job, its steps included; an id that is no number finds nothing. */
    static JobFilter38 one(String id) {
        int n = number(id);
        return new JobFilter38(
                n <= 0
                        ? Optional.empty()
                        : Optional.of(JobQuery.newBuilder().addJobIds(n).build()),
                List.of(),
                Optional.empty(),
                JobLimits38.read(Map.of()));
    }

    boolean keeps(AccountedJob j) {
        return (qosIds.isEmpty() || qosIds.contains(j.getQosId())) && limits.keeps(j);
    }

    /**
     * A boolean as 22.05's data layer forces one from text: y, yes, t, true are true; n, no, f,
     * false, null, ~, an empty value and a number that is 0 are false; any other text is true
     * (compat 180's {@code skip_steps=maybe} left the steps out).
     */
    static boolean bool(String text) {
        String t = text.strip().toLowerCase(java.util.Locale.ROOT);
        if (t.isEmpty() || FALSE.contains(t)) {
            return false;
        }
        if (TRUE.contains(t)) {
            return true;
        }
        try {
            return Double.parseDouble(t) != 0;
        } catch (NumberFormatException e) {
            return true;
        }
    }

    private static final Set<String> TRUE = Set.of("y", "yes", "t", "true");
    private static final Set<String> FALSE = Set.of("n", "no", "f", "false", "null", "~");

    /** The job with only the step asked for, where one was. */
    AccountedJob steps(AccountedJob j) {
        if (step.isEmpty()) {
            return j;
        }
        return j.toBuilder()
                .clearSteps()
                .addAllSteps(j.getStepsList().stream()
                        .filter(s -> StepIds.name(s.getStepId()).equals(step.get()))
                        .toList())
                .build();
    }

    private static long time(Map<String, String> q, String key, Instant now) throws BadQuery {
        String text = q.get(key);
        if (text == null) {
            return 0;
        }
        try {
            return BeginTime.parse(text, now.atZone(ZoneId.systemDefault())).getEpochSecond();
        } catch (IllegalArgumentException e) {
            throw new BadQuery("Unable to parse time format", key);
        }
    }

    /** A QOS by its number; a name is none (slurmdbd compares numbers: compat 154's qos=normal found nothing). */
    private static int qosNumber(String text) {
        int n = number(text);
        return n > 0 ? n : -1;
    }

    /** As C's atoi: what is no number is 0, which no job has. */
    private static int number(String text) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static List<String> list(Map<String, String> q, String key) {
        return QueryParams.list(q, key);
    }
}
