package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

/**
 * Where a configuration line was written: the file (as named by {@code Include}, relative to the
 * main file's directory) and its line number, for messages that point the administrator at it.
 */
public record ConfSource(String file, int line) {

    public ConfSource {
        requireNonNull(file, "file is null");
    }

    /** The line the entry was read from. */
    static ConfSource of(ConfEntry entry) {
        return new ConfSource(entry.file(), entry.line());
    }

    /** {@code file:line}, the way messages name it. */
    @Override
    public String toString() {
        return file + ":" + line;
    }
}
