package dev.sluice.ctld.persistence;

import java.nio.file.Path;

/** The journal is damaged somewhere other than a torn final record: recovery must stop. */
public final class JournalCorruptException extends java.io.IOException {
    private final Path file;
    private final long offset;

    public JournalCorruptException(Path file, long offset, String problem) {
        super(file + " at byte offset " + offset + ": " + problem
                + " (records after this point would be lost; start with --truncate-corrupt-journal"
                + " to discard them explicitly)");
        this.file = file;
        this.offset = offset;
    }

    public Path file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}
