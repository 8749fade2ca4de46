package dev.sluice.cli.command.squeue;

import dev.sluice.cli.format.Cell;
import dev.sluice.cli.format.FormatString;
import dev.sluice.cli.format.FormatToken;
import dev.sluice.cli.view.JobView;
import java.util.List;
import java.util.function.Consumer;

/**
 * Renders jobs through a squeue format string. Pure: the caller supplies the jobs, already
 * filtered and ordered, with their "now".
 */
final class JobFormatter {
    /** squeue's default {@code -o}. */
    static final String DEFAULT_FORMAT = "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R";
    /** squeue {@code -l}. */
    static final String LONG_FORMAT = "%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R";
    /** squeue {@code --start}. */
    static final String START_FORMAT = "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R";

    private final List<FormatToken> tokens;

    private JobFormatter(List<FormatToken> tokens) {
        this.tokens = tokens;
    }

    /** A formatter for {@code -O} field names ({@link LongFormat}). */
    static JobFormatter ofNames(String spec, Consumer<String> invalid) {
        return new JobFormatter(LongFormat.parse(spec, invalid));
    }

    /** Parses {@code format}; letters squeue does not know go to {@code invalid} and print as text. */
    static JobFormatter of(String format, Consumer<Character> invalid) {
        return new JobFormatter(FormatString.parse(format, JobColumn.LETTERS.keySet(), invalid));
    }

    String header() {
        StringBuilder line = new StringBuilder();
        for (FormatToken token : tokens) {
            switch (token) {
                case FormatToken.Literal l -> line.append(l.text());
                case FormatToken.Field f -> {
                    JobColumn c = JobColumn.LETTERS.get(f.letter());
                    line.append(Cell.fit(c.header(), f.width(), f.rightJustify(), c.cutHeader()));
                }
            }
        }
        return line.toString();
    }

    String row(JobView job) {
        StringBuilder line = new StringBuilder();
        for (FormatToken token : tokens) {
            switch (token) {
                case FormatToken.Literal l -> line.append(l.text());
                case FormatToken.Field f -> {
                    JobColumn c = JobColumn.LETTERS.get(f.letter());
                    // A running job's %R is a node list, which Slurm never cuts.
                    boolean cut = c.cutValue() && !(f.letter() == 'R' && !job.showsReason());
                    line.append(Cell.fit(JobColumn.value(f.letter(), job), f.width(), f.rightJustify(), cut));
                }
            }
        }
        return line.toString();
    }
}
