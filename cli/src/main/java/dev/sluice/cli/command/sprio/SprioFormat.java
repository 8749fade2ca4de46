package dev.sluice.cli.command.sprio;

import dev.sluice.cli.format.Cell;
import dev.sluice.protocol.v1.JobPriorityInfo;
import dev.sluice.protocol.v1.PriorityWeightsInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * sprio's {@code -o} formats and its default ones. A field is {@code %[.][width]letter} and
 * the text after it up to the next {@code %} belongs to it: an unknown letter is reported and
 * dropped with that text (observed: {@code %N|%n|%a} prints {@code NICE|AGE}). Lower-case factor
 * letters are the normalized factors, upper-case the weighted ones. Pure.
 */
final class SprioFormat {
    /** Slurm's normalized priority is the priority over 2^32 - 1 (the largest uint32_t). */
    private static final double PRIORITY_SCALE = (double) dev.sluice.common.slurm.SlurmLimits.INFINITE;

    record Field(char letter, int width, boolean right, String suffix) {}

    private SprioFormat() {}

    /**
     * The default format for these weights: the factors whose weight is not 0 (observed: a
     * weight of 0 hides its column, except in {@code -l}); {@code user} adds USER (as {@code -u} does).
     */
    static String defaults(PriorityWeightsInfo w, boolean longFormat, boolean normalized, boolean user) {
        StringBuilder f = new StringBuilder("%.15i %9r");
        if (longFormat || user) {
            f.append(" %.8u");
        }
        if (normalized) {
            f.append(" %10y");
            if (longFormat || w.getAge() != 0) {
                f.append(" %10a");
            }
            if (longFormat) {
                f.append(" %10b");
            }
            if (longFormat || w.getFairshare() != 0) {
                f.append(" %10f");
            }
            if (longFormat || w.getJobSize() != 0) {
                f.append(" %10j");
            }
            if (longFormat || w.getPartition() != 0) {
                f.append(" %10p");
            }
            if (longFormat || w.getQos() != 0) {
                f.append(" %10q");
            }
            if (longFormat) {
                f.append(" %20t");
            }
            return f.toString();
        }
        f.append(" %.10Y %.10S");
        if (longFormat || w.getAge() != 0) {
            f.append(" %.10A");
        }
        if (longFormat) {
            f.append(" %.10B");
        }
        if (longFormat || w.getFairshare() != 0) {
            f.append(" %.10F");
        }
        if (longFormat || w.getJobSize() != 0) {
            f.append(" %.10J");
        }
        if (longFormat || w.getPartition() != 0) {
            f.append(" %.10P");
        }
        if (longFormat || w.getQos() != 0) {
            f.append(" %.10Q");
        }
        if (longFormat) {
            f.append(" %.11N %.20T");
        }
        return f.toString();
    }

    /** The fields of {@code format}; its text before the first field is kept as {@code prefix[0]}. */
    static List<Field> parse(String format, StringBuilder prefix, Consumer<Character> invalid) {
        List<Field> out = new ArrayList<>();
        int i = format.indexOf('%');
        prefix.append(i < 0 ? format : format.substring(0, i));
        while (i >= 0 && i < format.length()) {
            int j = i + 1;
            boolean right = false;
            if (j < format.length() && format.charAt(j) == '.') {
                right = true;
                j++;
            }
            int width = 0;
            while (j < format.length() && Character.isDigit(format.charAt(j))) {
                width = Math.min(width * 10 + (format.charAt(j) - '0'), 10_000);
                j++;
            }
            if (j >= format.length()) {
                break;
            }
            char letter = format.charAt(j);
            int next = format.indexOf('%', j + 1);
            String suffix = next < 0 ? format.substring(j + 1) : format.substring(j + 1, next);
            if (header(letter) == null) {
                invalid.accept(letter);
            } else {
                out.add(new Field(letter, width, right, suffix));
            }
            i = next;
        }
        return out;
    }

    static String header(char letter) {
        return switch (letter) {
            case 'a', 'A' -> "AGE";
            case 'b', 'B' -> "ASSOC";
            case 'c' -> "CLUSTER";
            case 'f', 'F' -> "FAIRSHARE";
            case 'i' -> "JOBID";
            case 'j', 'J' -> "JOBSIZE";
            case 'N' -> "NICE";
            case 'p', 'P' -> "PARTITION";
            case 'q', 'Q' -> "QOS";
            case 'r' -> "PARTITION";
            case 'S' -> "SITE";
            case 't', 'T' -> "TRES";
            case 'u' -> "USER";
            case 'y', 'Y' -> "PRIORITY";
            default -> null;
        };
    }

    /**
     * What sprio prints: the header unless {@code -h}, then the jobs' lines, or with {@code -w}
     * the weights' line instead of them (observed, and as its manual says: "Actual job data is
     * suppressed").
     */
    static List<String> render(
            String prefix,
            List<Field> fields,
            boolean header,
            boolean weights,
            List<JobPriorityInfo> jobs,
            PriorityWeightsInfo w) {
        List<String> out = new ArrayList<>();
        if (header) {
            out.add(headerLine(prefix, fields));
        }
        if (weights) {
            out.add(weightsLine(prefix, fields, w));
            return out;
        }
        for (JobPriorityInfo j : jobs) {
            out.add(jobLine(prefix, fields, j, w));
        }
        return out;
    }

    static String headerLine(String prefix, List<Field> fields) {
        return line(prefix, fields, f -> header(f.letter()));
    }

    static String jobLine(String prefix, List<Field> fields, JobPriorityInfo job, PriorityWeightsInfo w) {
        return line(prefix, fields, f -> value(f.letter(), job, w));
    }

    /** The {@code -w} line: each factor's weight where its column is (SITE's is 1). */
    static String weightsLine(String prefix, List<Field> fields, PriorityWeightsInfo w) {
        return line(prefix, fields, f -> switch (f.letter()) {
            case 'i' -> "Weights";
            case 'S' -> "1";
            case 'a', 'A' -> Long.toString(w.getAge());
            case 'b', 'B' -> "0";
            case 'f', 'F' -> Long.toString(w.getFairshare());
            case 'j', 'J' -> Long.toString(w.getJobSize());
            case 'p', 'P' -> Long.toString(w.getPartition());
            case 'q', 'Q' -> Long.toString(w.getQos());
            case 'T' -> "(null)";
            default -> "";
        });
    }

    private static String line(String prefix, List<Field> fields, java.util.function.Function<Field, String> cell) {
        StringBuilder b = new StringBuilder(prefix);
        for (Field f : fields) {
            b.append(Cell.fit(cell.apply(f), f.width(), f.right(), true)).append(f.suffix());
        }
        return b.toString();
    }

    static String value(char letter, JobPriorityInfo job, PriorityWeightsInfo w) {
        return switch (letter) {
            case 'a' -> norm(job.getAge());
            case 'A' -> weighted(w.getAge(), job.getAge());
            case 'b' -> norm(0);
            case 'B' -> "0";
            case 'c' -> "(null)";
            case 'f' -> norm(job.getFairshare());
            case 'F' -> weighted(w.getFairshare(), job.getFairshare());
            case 'i' -> Integer.toString(job.getJobId());
            case 'j' -> norm(job.getJobSize());
            case 'J' -> weighted(w.getJobSize(), job.getJobSize());
            case 'N' -> Integer.toString(job.getNice());
            case 'p' -> norm(job.getPartitionFactor());
            case 'P' -> weighted(w.getPartition(), job.getPartitionFactor());
            case 'q' -> norm(job.getQos());
            case 'Q' -> weighted(w.getQos(), job.getQos());
            case 'r' -> job.getPartition();
            case 'S' -> "0";
            case 't', 'T' -> "";
            case 'u' -> job.getUserName();
            case 'y' ->
                String.format(
                        Locale.ROOT,
                        "%.14f",
                        (job.getPrioritySum() > 0 ? job.getPrioritySum() : job.getPriority()) / PRIORITY_SCALE);
            case 'Y' -> Long.toString(job.getPriority());
            default -> "";
        };
    }

    private static String norm(double factor) {
        return String.format(Locale.ROOT, "%.7f", factor);
    }

    /** {@code weight * factor} rounded as printf's {@code %.0f} does (ties to even: 62.5 prints 62). */
    static String weighted(long weight, double factor) {
        return Long.toString((long) Math.rint(weight * factor));
    }
}
