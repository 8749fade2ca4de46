package dev.sluice.common.slurm;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The events {@code --mail-type} asks mail for, declared in the order Slurm 22.05's
 * {@code scontrol show job} prints them as {@code MailType=}, whatever order they were given in
 * ({@code --mail-type=time_limit_80,time_limit_50,end} shows {@code END,TIME_LIMIT_50,TIME_LIMIT_80}).
 */
public enum MailType {
    ARRAY_TASKS,
    INVALID_DEPEND,
    BEGIN,
    END,
    FAIL,
    REQUEUE,
    STAGE_OUT,
    TIME_LIMIT_50,
    TIME_LIMIT_80,
    TIME_LIMIT_90,
    TIME_LIMIT;

    /** What {@code ALL} stands for. */
    private static final Set<MailType> ALL = EnumSet.of(INVALID_DEPEND, BEGIN, END, FAIL, REQUEUE, STAGE_OUT);

    /**
     * {@code --mail-type} as sbatch takes it: a comma-separated list of event names in any case,
     * {@code ALL} for the usual ones, {@code NONE} adding nothing.
     *
     * @return the events, empty for none
     * @throws IllegalArgumentException for a name (the empty one included) that is no event
     */
    public static Set<MailType> parseList(String text) {
        Set<MailType> chosen = EnumSet.noneOf(MailType.class);
        for (String item : text.split(",", -1)) {
            String name = item.strip().toUpperCase(Locale.ROOT);
            if (name.equals("ALL")) {
                chosen.addAll(ALL);
            } else if (!name.equals("NONE")) {
                chosen.add(named(name, text));
            }
        }
        return Collections.unmodifiableSet(chosen);
    }

    private static MailType named(String name, String text) {
        for (MailType t : values()) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("Invalid --mail-type specification: " + text);
    }

    /** The events as {@code scontrol show job} prints them, in Slurm's order; "" for none. */
    public static String text(Collection<MailType> events) {
        List<String> out = new ArrayList<>(events.size());
        for (MailType t : values()) {
            if (events.contains(t)) {
                out.add(t.name());
            }
        }
        return String.join(",", out);
    }
}
