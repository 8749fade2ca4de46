package dev.sluice.ctld.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code priority_starts}: where controllers before the journal kept their start times (one epoch
 * second a line). Read once on upgrade, journaled as {@code ControllerStarted} records, then
 * removed: the journal is the one durable store.
 */
final class PriorityStartsFile {
    static final String FILE = "priority_starts";

    private PriorityStartsFile() {}

    /** The starts the file lists, oldest first; none when there is no file. */
    static List<Long> read(Path stateDir) {
        Path file = stateDir.resolve(FILE);
        List<Long> starts = new ArrayList<>();
        try {
            if (Files.exists(file)) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    String t = line.strip();
                    if (!t.isEmpty() && t.length() < 19 && t.chars().allMatch(Character::isDigit)) {
                        starts.add(Long.parseLong(t));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the controller's starts in " + file, e);
        }
        starts.sort(null);
        return List.copyOf(starts);
    }

    /** Once its starts are journaled. */
    static void remove(Path stateDir) {
        try {
            Files.deleteIfExists(stateDir.resolve(FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + stateDir.resolve(FILE), e);
        }
    }
}
