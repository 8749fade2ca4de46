package dev.sluice.restd.dbv0038;

import dev.sluice.common.hostlist.HostList;
import dev.sluice.protocol.v1.AccountedJob;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The fields of {@code GET /slurmdb/v0.0.38/jobs} that slurmdbd turns into conditions on a job's
 * row (compat 180), applied as its SQL applies them: a count's maximum only beside its minimum
 * ({@code between min and max}; a minimum alone is that count exactly), the nodes a job ran on,
 * and the lists compared with
 * columns that hold numbers (group ids, association ids, reasons), where a name is read as MySQL
 * reads a string beside a number: its leading digits, or 0. {@code reservation} chose every job
 * whatever it named (compat 180, 182), as {@code exit_code} did: both are read and not applied.
 */
record JobLimits38(
        int cpusMin,
        int cpusMax,
        int nodesMin,
        int nodesMax,
        List<Long> groups,
        List<Long> associations,
        List<Long> reasons,
        List<String> constraints,
        List<String> wckeys,
        Optional<List<String>> nodes) {

    /** What 22.05's data layer takes as an integer (a string of digits, maybe signed). */
    private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");

    /** The integer fields (slurmrestd refuses a value that is no integer). */
    static final List<String> INTEGERS = List.of("cpus_max", "cpus_min", "exit_code", "nodes_min", "nodes_max");

    static boolean isInteger(String text) {
        return INTEGER.matcher(text.strip()).matches();
    }

    /** The limits of a query whose integer fields {@link #isInteger} has checked. */
    static JobLimits38 read(Map<String, String> q) {
        String node = q.get("node");
        return new JobLimits38(
                integer(q, "cpus_min"),
                integer(q, "cpus_max"),
                integer(q, "nodes_min"),
                integer(q, "nodes_max"),
                numbers(q, "groups"),
                numbers(q, "association"),
                numbers(q, "reason"),
                JobFilter38.list(q, "constraints"),
                JobFilter38.list(q, "wckey"),
                node == null ? Optional.empty() : Optional.of(HostList.expand(node.strip())));
    }

    boolean keeps(AccountedJob j) {
        return range(j.getNumCpus(), cpusMin, cpusMax)
                && range(j.getNumNodes(), nodesMin, nodesMax)
                && (groups.isEmpty() || groups.contains(Integer.toUnsignedLong(j.getGid())))
                && (associations.isEmpty() || associations.contains(j.getAssocId()))
                && (reasons.isEmpty() || reasons.contains(reasonNumber(j.getReason())))
                && (constraints.isEmpty()
                        || constraints.stream().anyMatch(c -> j.getConstraints().contains(c)))
                // sluice-dbd keeps no wckeys: every job's is empty.
                && (wckeys.isEmpty() || wckeys.contains(""))
                && nodes.map(n -> ranOn(j, n)).orElse(true);
    }

    /** As slurmdbd: no minimum, no condition; a minimum alone, that count exactly. */
    private static boolean range(int value, int min, int max) {
        if (min == 0) {
            return true;
        }
        return max == 0 ? value == min : value >= min && value <= max;
    }

    private static boolean ranOn(AccountedJob j, List<String> wanted) {
        if (j.getNodeList().isEmpty()) {
            return false;
        }
        List<String> ran = HostList.expand(j.getNodeList());
        return wanted.stream().anyMatch(ran::contains);
    }

    /** The number slurmdbd keeps for a reason: only "None" (0) is told apart here. */
    private static long reasonNumber(String reason) {
        return reason.isEmpty() || reason.equals("None") ? 0 : -1;
    }

    private static int integer(Map<String, String> q, String key) {
        String v = q.get(key);
        // C keeps the low 32 bits of what it read as a 64-bit number.
        return v == null ? 0 : new BigInteger(v.strip()).intValue();
    }

    private static List<Long> numbers(Map<String, String> q, String key) {
        return JobFilter38.list(q, key).stream().map(JobLimits38::leadingNumber).toList();
    }

    /** A string as MySQL compares it with a number: its leading digits, or 0. */
    static long leadingNumber(String text) {
        int end = 0;
        while (end < text.length() && end < 18 && Character.isDigit(text.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Long.parseLong(text.substring(0, end));
    }
}
