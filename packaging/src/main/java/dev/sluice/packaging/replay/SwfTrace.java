package dev.sluice.packaging.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes the Standard Workload Format (Parallel Workloads Archive, version 2.2,
 * https://www.cs.huji.ac.il/labs/parallel/workload/swf.html): one job per line, 18
 * whitespace-separated numeric fields, {@code -1} for unknown, comment lines starting with
 * {@code ;}. Time fields may be fractional; the others are integers.
 */
public final class SwfTrace {
    /** The format's field names, numbered from 1 as the format's definition numbers them. */
    static final List<String> FIELDS = List.of(
            "Job Number",
            "Submit Time",
            "Wait Time",
            "Run Time",
            "Number of Allocated Processors",
            "Average CPU Time Used",
            "Used Memory",
            "Requested Number of Processors",
            "Requested Time",
            "Requested Memory",
            "Status",
            "User ID",
            "Group ID",
            "Executable (Application) Number",
            "Queue Number",
            "Partition Number",
            "Preceding Job Number",
            "Think Time from Preceding Job");

    // 1-based numbers of the fields that hold seconds and may carry a fraction.
    private static final List<Integer> TIME_FIELDS = List.of(2, 3, 4, 6, 9, 18);

    private SwfTrace() {}

    /** A line that is not SWF; nothing of the trace should be used. */
    public static final class FormatException extends Exception {
        private final int line;

        FormatException(int line, String message) {
            super("line " + line + ": " + message);
            this.line = line;
        }

        /** 1-based line number in the trace. */
        public int line() {
            return line;
        }
    }

    /**
     * Parses a whole trace; the first bad line fails it all.
     *
     * @param lines the file's lines in order
     */
    public static List<SwfJob> parse(List<String> lines) throws FormatException {
        List<SwfJob> jobs = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith(";")) {
                continue;
            }
            jobs.add(parseLine(line, i + 1));
        }
        return jobs;
    }

    static SwfJob parseLine(String line, int lineNumber) throws FormatException {
        String[] words = line.split("\\s+");
        if (words.length != FIELDS.size()) {
            throw new FormatException(lineNumber, words.length + " fields, but an SWF job line has " + FIELDS.size());
        }
        long[] v = new long[FIELDS.size()];
        for (int f = 1; f <= v.length; f++) {
            v[f - 1] = field(words[f - 1], f, lineNumber);
        }
        if (v[1] < 0) {
            throw fieldError(lineNumber, 2, words[1], "is negative: every job needs a submit time");
        }
        return new SwfJob(
                v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13], v[14], v[15],
                v[16], v[17]);
    }

    private static long field(String word, int field, int lineNumber) throws FormatException {
        boolean time = TIME_FIELDS.contains(field);
        long value;
        try {
            if (time) {
                double d = Double.parseDouble(word);
                if (!Double.isFinite(d) || Math.abs(d) > 1e15) {
                    throw fieldError(lineNumber, field, word, "is not a number of seconds");
                }
                value = Math.round(d);
            } else {
                value = Long.parseLong(word);
            }
        } catch (NumberFormatException e) {
            throw fieldError(lineNumber, field, word, time ? "is not a number of seconds" : "is not an integer");
        }
        // Think time is the one field the format lets be any number; elsewhere -1 is "unknown".
        if (value < -1 && field != 18) {
            throw fieldError(lineNumber, field, word, "is negative (only -1, unknown, may be)");
        }
        return value;
    }

    private static FormatException fieldError(int lineNumber, int field, String word, String why) {
        return new FormatException(
                lineNumber, "field " + field + " (" + FIELDS.get(field - 1) + "): '" + word + "' " + why);
    }

    /** One job as an SWF line: the fields in order, space-separated. */
    public static String format(SwfJob job) {
        StringBuilder out = new StringBuilder();
        for (long v : job.fields()) {
            if (!out.isEmpty()) {
                out.append(' ');
            }
            out.append(v);
        }
        return out.toString();
    }
}
