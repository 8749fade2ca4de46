package dev.sluice.cli.command.squeue;

import dev.sluice.cli.format.Cell;
import dev.sluice.cli.format.FormatString;
import dev.sluice.cli.format.FormatToken;
import dev.sluice.common.time.Elapsed;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.protocol.v1.StepInfo;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code squeue -s}: steps through a format string. The letters, headers and default format are
 * Slurm 22.05's, observed on /work/shared/tools/real-slurm ({@code squeue -s -o '%i %l %S %U %A'}
 * prints {@code STEPID TIME_LIMIT START_TIME UID TASKS}; other letters are refused with
 * {@code Invalid job step format specification: C}). Pure.
 */
final class StepFormatter {
    /** Slurm's default step format. */
    static final String DEFAULT_FORMAT = "%.15i %.8j %.9P %.8u %.9M %N";

    /** SLURM_BATCH_SCRIPT. */
    static final int BATCH_STEP = dev.sluice.common.slurm.StepIds.BATCH;

    private static final Map<Character, String> HEADERS = Map.of(
            'i', "STEPID",
            'j', "NAME",
            'P', "PARTITION",
            'u', "USER",
            'U', "UID",
            'M', "TIME",
            'N', "NODELIST",
            'l', "TIME_LIMIT",
            'S', "START_TIME",
            'A', "TASKS");

    private final List<FormatToken> tokens;

    private StepFormatter(List<FormatToken> tokens) {
        this.tokens = tokens;
    }

    static StepFormatter of(String format, Consumer<Character> invalid) {
        return new StepFormatter(FormatString.parse(format, HEADERS.keySet(), invalid));
    }

    /** {@code 12.0}, {@code 12.batch}. */
    static String stepId(StepInfo s) {
        return s.getJobId() + "." + dev.sluice.common.slurm.StepIds.name(s.getStepId());
    }

    String header() {
        StringBuilder line = new StringBuilder();
        for (FormatToken token : tokens) {
            switch (token) {
                case FormatToken.Literal l -> line.append(l.text());
                case FormatToken.Field f ->
                    line.append(Cell.fit(HEADERS.get(f.letter()), f.width(), f.rightJustify(), true));
            }
        }
        return line.toString();
    }

    String row(StepInfo step, Instant now, ZoneId zone) {
        StringBuilder line = new StringBuilder();
        for (FormatToken token : tokens) {
            switch (token) {
                case FormatToken.Literal l -> line.append(l.text());
                case FormatToken.Field f -> {
                    // Node lists are never cut, as in the job listing.
                    boolean cut = f.letter() != 'N';
                    line.append(Cell.fit(value(f.letter(), step, now, zone), f.width(), f.rightJustify(), cut));
                }
            }
        }
        return line.toString();
    }

    private static String value(char letter, StepInfo s, Instant now, ZoneId zone) {
        return switch (letter) {
            case 'i' -> stepId(s);
            case 'j' -> s.getName();
            case 'P' -> s.getPartition();
            case 'u' -> s.getUserName().isEmpty() ? Integer.toUnsignedString(s.getUserId()) : s.getUserName();
            case 'U' -> Integer.toUnsignedString(s.getUserId());
            case 'M' -> Elapsed.format(Math.max(0, now.getEpochSecond() - s.getStartTime()));
            case 'N' -> s.getNodeList();
            // Steps have no time limit of their own in Sluice (srun -t inside a job is not kept).
            case 'l' -> "UNLIMITED";
            case 'S' -> SlurmTimestamp.format(Instant.ofEpochSecond(s.getStartTime()), zone);
            case 'A' -> Integer.toUnsignedString(s.getNumTasks());
            default -> throw new IllegalArgumentException("no step column " + letter);
        };
    }
}
