package dev.sluice.restd.dbv0038;

import dev.sluice.cli.view.JobStates;
import dev.sluice.common.slurm.StepIds;
import dev.sluice.common.time.BeginTime;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.JobState;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
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
record JobFilter38(Optional<JobQuery> query, List<Integer> qosIds, Optional<String> step) {
    /** The fields 22.05's dbv0.0.38 takes; those Sluice has no filter for are accepted and ignored. */
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
            "group",
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
        for (String key : q.keySet()) {
            if (!KNOWN.contains(key)) {
                throw new BadQuery("Unknown Query field", null);
            }
        }
        JobQuery.Builder b = JobQuery.newBuilder();
        list(q, "job_name").forEach(b::addJobNames);
        list(q, "partition").forEach(b::addPartitions);
        list(q, "account").forEach(b::addAccounts);
        list(q, "cluster").forEach(b::addClusters);
        b.setAllocationsOnly("true".equalsIgnoreCase(q.get("skip_steps")));
        long start = time(q, "start_time", now);
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
            start = start == 0 ? now.getEpochSecond() : start;
            end = end == 0 ? now.getEpochSecond() : end;
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
        return new JobFilter38(impossible ? Optional.empty() : Optional.of(b.build()), qos, step);
    }

    /** job/{id}: that job, its steps included; an id that is no number finds nothing. */
    static JobFilter38 one(String id) {
        int n = number(id);
        return new JobFilter38(
                n <= 0
                        ? Optional.empty()
                        : Optional.of(JobQuery.newBuilder().addJobIds(n).build()),
                List.of(),
                Optional.empty());
    }

    boolean keeps(AccountedJob j) {
        return qosIds.isEmpty() || qosIds.contains(j.getQosId());
    }

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

    private static List<String> list(Map<String, String> q, String key) {
        String v = q.get(key);
        if (v == null || v.isBlank()) {
            return List.of();
        }
        return Arrays.stream(v.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
    }
}
