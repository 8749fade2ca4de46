package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

/**
 * A key Slurm documents that Sluice accepts but does not act on, with where it was set, so the
 * controller can log it once at start-up. {@code note} says more where there is more to say (for
 * example that current Slurm calls the key defunct).
 */
public record IgnoredKey(String key, String value, String file, int line, String note) {
    public IgnoredKey {
        requireNonNull(key, "key is null");
        requireNonNull(value, "value is null");
        requireNonNull(file, "file is null");
        requireNonNull(note, "note is null");
    }

    @Override
    public String toString() {
        return file + ":" + line + ": " + key + "=" + value + (note.isEmpty() ? "" : " (" + note + ")");
    }
}
