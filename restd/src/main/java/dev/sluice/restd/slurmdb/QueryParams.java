package dev.sluice.restd.slurmdb;

import dev.sluice.cli.view.JobStates;
import dev.sluice.protocol.v1.JobQuery;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The {@code /slurmdb/} requests' query parameters and path arguments, read into what sluice-dbd
 * is asked; a value that cannot be read is an {@link IllegalArgumentException}, which {@link
 * SlurmdbApi} answers as an invalid query. dbv0.0.38's job filters read their lists here too.
 */
public final class QueryParams {
    private QueryParams() {}

    /** The query parameters slurmrestd takes for /jobs that sacct has an option for. */
    static JobQuery.Builder query(Map<String, String> q) {
        JobQuery.Builder b = JobQuery.newBuilder();
        list(q, "users").forEach(b::addUsers);
        list(q, "account").forEach(b::addAccounts);
        list(q, "partition").forEach(b::addPartitions);
        list(q, "cluster").forEach(b::addClusters);
        list(q, "job_name").forEach(b::addJobNames);
        for (String s : list(q, "state")) {
            b.addStates(JobStates.parse(s).orElseThrow(() -> new IllegalArgumentException("unknown job state " + s)));
        }
        if (q.containsKey("start_time")) {
            b.setWindowStart(epoch(q.get("start_time"), "start_time"));
        }
        if (q.containsKey("end_time")) {
            b.setWindowEnd(epoch(q.get("end_time"), "end_time"));
        }
        if ("true".equalsIgnoreCase(q.get("skip_steps"))) {
            b.setAllocationsOnly(true);
        }
        return b;
    }

    /** A comma-separated parameter's values; none when it is absent or blank. */
    public static List<String> list(Map<String, String> q, String key) {
        String v = q.get(key);
        if (v == null || v.isBlank()) {
            return List.of();
        }
        return Arrays.stream(v.split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    private static long epoch(String text, String field) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field + " must be seconds since the epoch: " + text);
        }
    }

    static int jobId(String id) {
        try {
            int n = Integer.parseInt(id);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new IllegalArgumentException("invalid job id " + id);
    }
}
