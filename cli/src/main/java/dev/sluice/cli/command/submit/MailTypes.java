package dev.sluice.cli.command.submit;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code --mail-type}: a comma-separated list of events, in any case, printed back by
 * {@code scontrol show job} as {@code MailType=} in Slurm's fixed order, whatever order they were
 * given in ({@code --mail-type=time_limit_80,time_limit_50,end} shows
 * {@code END,TIME_LIMIT_50,TIME_LIMIT_80} in Slurm 22.05). {@code ALL} is
 * INVALID_DEPEND, BEGIN, END, FAIL, REQUEUE and STAGE_OUT; {@code NONE} adds nothing.
 */
final class MailTypes {
    /** Slurm 22.05's printing order. */
    private static final List<String> ORDER = List.of(
            "ARRAY_TASKS",
            "INVALID_DEPEND",
            "BEGIN",
            "END",
            "FAIL",
            "REQUEUE",
            "STAGE_OUT",
            "TIME_LIMIT_50",
            "TIME_LIMIT_80",
            "TIME_LIMIT_90",
            "TIME_LIMIT");

    private static final List<String> ALL = List.of("INVALID_DEPEND", "BEGIN", "END", "FAIL", "REQUEUE", "STAGE_OUT");

    private MailTypes() {}

    /** The events as {@code scontrol show job} prints them ("" for none), or empty when one is unknown. */
    static Optional<String> canonical(String spec) {
        Set<String> chosen = new LinkedHashSet<>();
        for (String item : spec.split(",", -1)) {
            String name = item.strip().toUpperCase(Locale.ROOT);
            if (name.equals("ALL")) {
                chosen.addAll(ALL);
            } else if (ORDER.contains(name)) {
                chosen.add(name);
            } else if (!name.equals("NONE")) {
                return Optional.empty();
            }
        }
        List<String> out = new ArrayList<>();
        for (String name : ORDER) {
            if (chosen.contains(name)) {
                out.add(name);
            }
        }
        return Optional.of(String.join(",", out));
    }
}
