package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

/**
 * A job's workload characterization key ({@code --wckey}, kept with {@code TrackWCKey=yes}). A
 * job that named none takes its user's default wckey, which Slurm marks as taken by default: it
 * shows {@code *NAME}, and a lone {@code *} when the user had no default (compat 218).
 *
 * @param name the wckey, empty for none
 * @param defaulted whether the controller chose it (the user's default) rather than the job
 */
public record JobWckey(String name, boolean defaulted) {
    /** No wckey: not asked for, or not tracked. */
    public static final JobWckey NONE = new JobWckey("", false);

    private static final String DEFAULT_MARK = "*";

    public JobWckey {
        requireNonNull(name, "name is null");
    }

    /** What the job asked for with {@code --wckey} (empty: nothing). */
    public static JobWckey asked(String name) {
        return name.isEmpty() ? NONE : new JobWckey(name, false);
    }

    /** Its user's default, or the mark alone when the user has none. */
    public static JobWckey userDefault(String name) {
        return new JobWckey(name, true);
    }

    /** Whether the job carries no wckey at all. */
    public boolean isNone() {
        return name.isEmpty() && !defaulted;
    }

    /** Slurm's form, as scontrol, squeue and sacct show it and as the journal keeps it. */
    public String text() {
        return defaulted ? DEFAULT_MARK + name : name;
    }

    /** The form {@link #text()} writes, read back. */
    public static JobWckey read(String text) {
        return text.startsWith(DEFAULT_MARK) ? userDefault(text.substring(1)) : asked(text);
    }
}
