package dev.sluice.cli.command.sacct;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.v1.AccountedJob;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * sacct's selections that slurmdbd applies in Slurm and Sluice applies to the records it is
 * sent: groups ({@code -g}), node and CPU counts ({@code -i}, {@code -I}), time limits
 * ({@code -k}, {@code -K}), nodes ({@code -N}), QOS ({@code -q}), reasons ({@code --reason}),
 * wckeys ({@code -W}), associations ({@code -x}) and constraints ({@code -C}). Each parser
 * returns Slurm's error text for a bad value.
 */
final class SacctFilters {
    final Set<Long> gids = new HashSet<>();
    long[] nodes;
    long[] cpus;
    Long timeMin;
    Long timeMax;
    String nodeList;
    final Set<String> qos = new HashSet<>();
    final Set<String> reasons = new HashSet<>();
    final Set<String> wckeys = new HashSet<>();
    final Set<String> associations = new HashSet<>();
    final Set<String> constraints = new HashSet<>();

    /** Slurm's job flags ({@code -F}), compared without case. */
    private static final List<String> JOB_FLAGS = List.of("schedsubmit", "schedmain", "schedbackfill", "startreceived");

    /**
     * One of the options above (and {@code -f}, {@code -F}, {@code --whole-hetjob}, whose values
     * are checked as Slurm checks them and then recorded); false after Slurm's message.
     */
    boolean apply(String key, String value, Invocation inv, PrintStream err) {
        switch (key) {
            case "file" -> {
                java.nio.file.Path f = inv.cwd().resolve(value);
                if (!java.nio.file.Files.isRegularFile(f)) {
                    err.println(value + " is not a valid file");
                    return false;
                }
            }
            case "flags" -> {
                for (String flag : value.split(",")) {
                    if (!JOB_FLAGS.contains(flag.toLowerCase(java.util.Locale.ROOT))) {
                        err.println("sacct: error: str_2_job_flags: Invalid job flag " + flag);
                        return false;
                    }
                }
            }
            case "gid" -> {
                Optional<String> bad = groups(value, inv.users());
                if (bad.isPresent()) {
                    err.println("sacct: error: " + bad.get());
                    return false;
                }
            }
            case "nnodes", "ncpus" -> {
                Optional<long[]> range = SacctFilters.range(value);
                if (range.isEmpty()) {
                    err.println("sacct: error: Invalid numeric value \"" + value + "\" for requested "
                            + (key.equals("nnodes") ? "node" : "cpu") + " range.");
                    return false;
                }
                if (key.equals("nnodes")) {
                    nodes = range.get();
                } else {
                    cpus = range.get();
                }
            }
            case "timelimit-min", "timelimit-max" -> {
                Optional<Long> limit = SacctFilters.limit(value);
                if (limit.isEmpty()) {
                    err.println("sacct: fatal: Invalid time limit specification");
                    return false;
                }
                if (key.equals("timelimit-min")) {
                    timeMin = limit.get();
                } else {
                    timeMax = limit.get();
                }
            }
            case "nodelist" -> {
                if (nodeList != null) {
                    err.println("sacct: error: Already asked for nodes '" + nodeList + "'");
                } else {
                    nodeList = value;
                }
            }
            case "reason" -> {
                Optional<String> bad = reasons(value);
                if (bad.isPresent()) {
                    err.println("sacct: fatal: unrecognized job reason value '" + bad.get() + "'");
                    return false;
                }
            }
            case "wckeys" -> wckeys.addAll(SacctFilters.list(value));
            case "associations" -> associations.addAll(SacctFilters.list(value));
            case "constraints" -> constraints.addAll(SacctFilters.list(value));
            case "whole-hetjob" -> {
                String v = value;
                if (v != null && !List.of("yes", "y", "no", "n").contains(v.toLowerCase(java.util.Locale.ROOT))) {
                    err.println("sacct: error: Invalid --whole-hetjob value \"" + v + "\". Valid values: [yes|no].");
                    return false;
                }
            }
            default -> throw new IllegalStateException("not a filter: " + key);
        }
        return true;
    }

    /** {@code -g}: gids or group names; Slurm's error for one it cannot resolve. */
    Optional<String> groups(String value, UserDirectory users) {
        for (String g : value.split(",")) {
            if (g.isEmpty()) {
                continue;
            }
            if (g.chars().allMatch(Character::isDigit)) {
                gids.add(Long.parseLong(g));
            } else {
                Optional<Long> gid = users.gid(g);
                if (gid.isEmpty()) {
                    return Optional.of("Invalid group id: " + g);
                }
                gids.add(gid.get());
            }
        }
        return Optional.empty();
    }

    /** {@code N} or {@code N-M} (a missing maximum is the minimum: exactly N). */
    static Optional<long[]> range(String value) {
        String[] parts = value.split("-", -1);
        if (parts.length > 2) {
            return Optional.empty();
        }
        try {
            long min = Long.parseLong(parts[0]);
            long max = parts.length == 2 ? Long.parseLong(parts[1]) : min;
            return Optional.of(new long[] {min, max});
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** {@code -k}/{@code -K}: a time limit in minutes; empty for Slurm's "invalid". */
    static Optional<Long> limit(String value) {
        long minutes;
        try {
            minutes = TimeLimit.parseMinutes(value);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return minutes <= 0 ? Optional.empty() : Optional.of(minutes);
    }

    /** {@code --reason}: names Slurm knows, any case; the first unknown one otherwise. */
    Optional<String> reasons(String value) {
        for (String r : value.split(",")) {
            if (r.isEmpty()) {
                continue;
            }
            Optional<JobReason> known = java.util.Arrays.stream(JobReason.values())
                    .filter(j -> j.slurmName().equalsIgnoreCase(r))
                    .findFirst();
            if (known.isEmpty()) {
                return Optional.of(r);
            }
            reasons.add(known.get().slurmName().toLowerCase(Locale.ROOT));
        }
        return Optional.empty();
    }

    static List<String> list(String value) {
        List<String> out = new ArrayList<>();
        for (String s : value.split(",")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    Predicate<AccountedJob> predicate() {
        Set<String> wantedNodes = nodeList == null ? Set.of() : new HashSet<>(HostList.expand(nodeList));
        return j -> (gids.isEmpty() || gids.contains(Integer.toUnsignedLong(j.getGid())))
                && inRange(nodes, j.getNumNodes())
                && inRange(cpus, j.getNumCpus())
                && timeLimitMatches(j.getTimeLimitMinutes())
                && (nodeList == null
                        || (!j.getNodeList().isEmpty()
                                && HostList.expand(j.getNodeList()).stream().anyMatch(wantedNodes::contains)))
                && (qos.isEmpty() || qos.contains(j.getQos().toLowerCase(Locale.ROOT)))
                && (reasons.isEmpty() || reasons.contains(j.getReason().toLowerCase(Locale.ROOT)))
                // The job's wckey as stored: one taken by default (*NAME) is not NAME's.
                && (wckeys.isEmpty() || wckeys.contains(j.getWckey()))
                && (associations.isEmpty() || associations.contains(Long.toUnsignedString(j.getAssocId())))
                && (constraints.isEmpty()
                        || constraints.stream().anyMatch(c -> features(j).contains(c)));
    }

    private static Set<String> features(AccountedJob j) {
        return Set.of(j.getConstraints().split("[&|,\\[\\]*]"));
    }

    private static boolean inRange(long[] range, long n) {
        return range == null || (n >= range[0] && n <= range[1]);
    }

    // Slurm: -k alone asks for that exact limit; with -K it is the low end of a range.
    private boolean timeLimitMatches(int wireMinutes) {
        if (timeMin == null) {
            return true;
        }
        long minutes = wireMinutes == -1 ? TimeLimit.INFINITE : Integer.toUnsignedLong(wireMinutes);
        return timeMax == null ? minutes == timeMin : minutes >= timeMin && minutes <= timeMax;
    }
}
