package dev.sluice.ctld.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * When the controllers on this state directory started ({@code priority_starts}, one epoch second
 * a line), the counterpart of slurmctld's {@code priority_last_decay_ran}: a controller charges
 * fair-share usage at calculations every PriorityCalcPeriod from its own start, so what a job
 * that ran under an earlier controller was charged follows that controller's clock, also after a
 * restart (compat 239). Only the latest {@link #KEPT} are kept: older ones concern jobs purged
 * long since.
 */
final class ControllerStarts {
    static final String FILE = "priority_starts";
    static final int KEPT = 100;

    private ControllerStarts() {}

    /** Notes {@code started} and returns the earlier starts, oldest first. */
    static List<Long> record(Path stateDir, long started) {
        Path file = stateDir.resolve(FILE);
        List<Long> earlier = new ArrayList<>();
        try {
            if (Files.exists(file)) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    String t = line.strip();
                    if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
                        long s = Long.parseLong(t);
                        if (s < started) {
                            earlier.add(s);
                        }
                    }
                }
            }
            earlier.sort(null);
            if (earlier.size() > KEPT - 1) {
                earlier = new ArrayList<>(earlier.subList(earlier.size() - (KEPT - 1), earlier.size()));
            }
            StringBuilder out = new StringBuilder();
            earlier.forEach(s -> out.append(s).append('\n'));
            out.append(started).append('\n');
            Files.createDirectories(stateDir);
            Path tmp = stateDir.resolve(FILE + ".new");
            Files.writeString(tmp, out, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the controller's starts in " + file, e);
        }
        return List.copyOf(earlier);
    }
}
