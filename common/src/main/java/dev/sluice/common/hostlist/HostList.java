package dev.sluice.common.hostlist;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Slurm hostlist expressions.
 *
 * <p>Behaviour was checked against Slurm 22.05.8's {@code scontrol show hostnames}, {@code show
 * hostlist} and {@code show hostlistsorted} (see {@code TestHostList}):
 *
 * <ul>
 *   <li>Items are separated by commas or white space; empty items are skipped.
 *   <li>A bracket group lists numbers and ranges ({@code [1-3,7]}); a range's print width is the
 *       length of its low bound ({@code [009-10]} gives {@code 009,010}, {@code [9-010]} gives
 *       {@code 9,10}).
 *   <li>Several bracket groups multiply out, the first group varying slowest ({@code
 *       rack[1-2]-n[1-3]}).
 *   <li>{@link #compress} keeps order and duplicates, joining only adjacent runs; {@link
 *       #compressSorted} sorts first, as Slurm does for node lists ({@code SLURM_JOB_NODELIST},
 *       {@code NodeList=}).
 * </ul>
 *
 * <p>Deliberate departures:
 *
 * <ul>
 *   <li>text after the last bracket group is kept as a suffix ({@code login[1-2]-ib} gives {@code
 *       login1-ib,login2-ib}) where Slurm 22.05 calls the list invalid, because sites write such
 *       {@code NodeAddr} values and Slurm's config parser lets them through;
 *   <li>an unclosed bracket ({@code n[1-}) or open range ({@code n[6-]}) is an error where Slurm
 *       22.05 prints {@code n]} or {@code n6};
 *   <li>suffixes of more than 18 digits are kept as plain names where Slurm clamps them to {@code
 *       ULONG_MAX}.
 * </ul>
 */
public final class HostList {

    /** Upper bound on the hosts one expression may expand to; guards against {@code n[0-999999999]}. */
    public static final int MAX_HOSTS = 1 << 20;

    private HostList() {}

    /**
     * Expands a hostlist expression into host names, in the order written.
     *
     * @throws IllegalArgumentException on bad syntax (unbalanced or nested brackets, a reversed,
     *     empty or non-numeric range) or when the expression names more than {@link
     *     #MAX_HOSTS} hosts
     */
    public static List<String> expand(String expr) {
        requireNonNull(expr, "expr is null");
        List<String> out = new ArrayList<>();
        for (String item : splitTopLevel(expr)) {
            expandItem(expr, item, out);
        }
        return out;
    }

    /** Slurm's ranged form, keeping the given order and duplicates ({@code scontrol show hostlist}). */
    public static String compress(Collection<String> names) {
        requireNonNull(names, "names is null");
        List<HostName> hosts = new ArrayList<>(names.size());
        for (String name : names) {
            hosts.add(checkedName(name));
        }
        return render(ranges(hosts));
    }

    /**
     * Slurm's ranged form after sorting the names ({@code scontrol show hostlistsorted}, and every
     * node list Slurm prints for a job or partition). Duplicates are kept, as Slurm keeps them.
     */
    public static String compressSorted(Collection<String> names) {
        requireNonNull(names, "names is null");
        List<HostName> hosts = new ArrayList<>(names.size());
        for (String name : names) {
            hosts.add(checkedName(name));
        }
        hosts.sort(HostName.SLURM_ORDER);
        return render(ranges(hosts));
    }

    private static HostName checkedName(String name) {
        requireNonNull(name, "host name is null");
        if (name.isEmpty() || hasSeparator(name)) {
            throw new IllegalArgumentException("Invalid host name: \"" + name + "\"");
        }
        return HostName.parse(name);
    }

    // A loop, not a stream: every job's node list (launch, accounting, the job log) passes here.
    private static boolean hasSeparator(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == ',' || c == '[' || c == ']' || Character.isWhitespace(c)) {
                return true;
            }
        }
        return false;
    }

    private static List<Range> ranges(List<HostName> hosts) {
        List<Range> ranges = new ArrayList<>();
        for (HostName h : hosts) {
            if (ranges.isEmpty() || !ranges.getLast().tryExtend(h)) {
                ranges.add(new Range(h));
            } else {
                ranges.getLast().hi = h.number();
            }
        }
        return ranges;
    }

    private static String render(List<Range> ranges) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < ranges.size()) {
            int j = i + 1;
            while (j < ranges.size() && ranges.get(j - 1).sharesBracketWith(ranges.get(j))) {
                j++;
            }
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            Range first = ranges.get(i);
            if (j - i == 1 && (first.single() || first.lo == first.hi)) {
                sb.append(first.firstHost());
            } else {
                sb.append(first.prefix).append('[');
                for (int k = i; k < j; k++) {
                    sb.append(k > i ? "," : "").append(ranges.get(k).body());
                }
                sb.append(']');
            }
            i = j;
        }
        return sb.toString();
    }

    private static List<String> splitTopLevel(String expr) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < expr.length(); i++) {
            char c = expr.charAt(i);
            if (c == '[') {
                if (++depth > 1) {
                    throw bad(expr, "nested '['");
                }
            } else if (c == ']') {
                if (--depth < 0) {
                    throw bad(expr, "']' without '['");
                }
            } else if (depth == 0 && (c == ',' || Character.isWhitespace(c))) {
                addIfNotEmpty(items, expr.substring(start, i));
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw bad(expr, "'[' without ']'");
        }
        addIfNotEmpty(items, expr.substring(start));
        return items;
    }

    private static void addIfNotEmpty(List<String> items, String s) {
        if (!s.isEmpty()) {
            items.add(s);
        }
    }

    private static void expandItem(String expr, String item, List<String> out) {
        int open = item.indexOf('[');
        if (open < 0) {
            add(expr, out, item);
            return;
        }
        int close = item.indexOf(']', open);
        String literal = item.substring(0, open);
        String rest = item.substring(close + 1);
        for (String number : bracketNumbers(expr, item.substring(open + 1, close))) {
            if (rest.indexOf('[') < 0) {
                add(expr, out, literal + number + rest);
            } else {
                expandItem(expr, literal + number + rest, out);
            }
        }
    }

    private static void add(String expr, List<String> out, String host) {
        if (out.size() >= MAX_HOSTS) {
            throw bad(expr, "more than " + MAX_HOSTS + " hosts");
        }
        out.add(host);
    }

    private static List<String> bracketNumbers(String expr, String body) {
        List<String> numbers = new ArrayList<>();
        for (String part : body.split(",", -1)) {
            int dash = part.indexOf('-');
            String loText = dash < 0 ? part : part.substring(0, dash);
            String hiText = dash < 0 ? part : part.substring(dash + 1);
            if (!isNumber(loText) || !isNumber(hiText)) {
                throw bad(expr, "invalid range `" + part + "'");
            }
            long lo = Long.parseLong(loText);
            long hi = Long.parseLong(hiText);
            if (lo > hi) {
                throw bad(expr, "invalid range `" + part + "'");
            }
            if (hi - lo >= MAX_HOSTS || numbers.size() + (hi - lo) >= MAX_HOSTS) {
                throw bad(expr, "too many hosts in range `" + part + "'");
            }
            for (long n = lo; n <= hi; n++) {
                numbers.add(HostName.format("", n, loText.length()));
            }
        }
        return numbers;
    }

    private static boolean isNumber(String s) {
        if (s.isEmpty() || s.length() > HostName.MAX_DIGITS) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static IllegalArgumentException bad(String expr, String why) {
        return new IllegalArgumentException("Invalid hostlist: " + expr + " (" + why + ")");
    }
}
