package dev.sluice.protocol.auth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/** User name → uid from the local password file, for naming SlurmUser as a daemon account. */
final class Passwd {
    private static final Path FILE = Path.of("/etc/passwd");

    private Passwd() {}

    static OptionalLong uid(String user) {
        if (user == null || user.isBlank()) {
            return OptionalLong.empty();
        }
        if (user.chars().allMatch(Character::isDigit)) {
            return OptionalLong.of(Long.parseLong(user));
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(FILE);
        } catch (IOException e) {
            return OptionalLong.empty();
        }
        for (String line : lines) {
            String[] f = line.split(":", -1);
            if (f.length > 2 && f[0].equals(user)) {
                try {
                    return OptionalLong.of(Long.parseLong(f[2]));
                } catch (NumberFormatException e) {
                    return OptionalLong.empty();
                }
            }
        }
        return OptionalLong.empty();
    }
}
