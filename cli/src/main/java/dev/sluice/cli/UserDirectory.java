package dev.sluice.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * User and group names, for filters ({@code squeue -u alice}) and displays
 * ({@code UserId=alice(1000)}). The default reads {@code /etc/passwd} and {@code /etc/group};
 * users known only to NSS modules (LDAP, SSSD) are not found there, which is a known limit
 * recorded in docs/commands.md.
 */
public interface UserDirectory {
    Optional<String> userName(long uid);

    Optional<Long> uid(String userName);

    Optional<String> groupName(long gid);

    /** The gid of a group name (sacct -g); unknown by default. */
    default Optional<Long> gid(String groupName) {
        return Optional.empty();
    }

    /** The GECOS full name of a user (up to its first comma), as sreport's "Proper Name". */
    default Optional<String> properName(String userName) {
        return Optional.empty();
    }

    /**
     * The directory as it is now: a holder that lives longer than one command (sluice-agent) asks
     * this once per command, so that users added meanwhile are known.
     */
    default UserDirectory current() {
        return this;
    }

    /** This host's users: {@code /etc/passwd} and {@code /etc/group}, then NSS through libc. */
    static UserDirectory system() {
        return new SystemUsers(Path.of("/etc/passwd"), Path.of("/etc/group"), dev.sluice.common.auth.UserDb.system());
    }

    /** A directory over {@code passwd}/{@code group} files, read once; a missing file is empty. */
    static UserDirectory fromFiles(Path passwd, Path group) {
        return fromLines(readLines(passwd), readLines(group));
    }

    /** A directory over the lines of passwd(5) and group(5) files: {@code name:x:id:...}. */
    static UserDirectory fromLines(List<String> passwdLines, List<String> groupLines) {
        Map<Long, String> users = new HashMap<>();
        Map<String, Long> uids = new HashMap<>();
        Map<Long, String> groups = new HashMap<>();
        Map<String, String> gecos = new HashMap<>();
        for (String line : passwdLines) {
            String[] f = line.split(":", -1);
            if (f.length >= 5 && !line.startsWith("#")) {
                String full = f[4].split(",", -1)[0];
                if (!full.isEmpty()) {
                    gecos.putIfAbsent(f[0], full);
                }
            }
            if (f.length >= 3 && !line.startsWith("#")) {
                parseId(f[2]).ifPresent(id -> {
                    users.putIfAbsent(id, f[0]);
                    uids.putIfAbsent(f[0], id);
                });
            }
        }
        for (String line : groupLines) {
            String[] f = line.split(":", -1);
            if (f.length >= 3 && !line.startsWith("#")) {
                parseId(f[2]).ifPresent(id -> groups.putIfAbsent(id, f[0]));
            }
        }
        return new UserDirectory() {
            @Override
            public Optional<String> userName(long uid) {
                return Optional.ofNullable(users.get(uid));
            }

            @Override
            public Optional<Long> uid(String userName) {
                return Optional.ofNullable(uids.get(userName));
            }

            @Override
            public Optional<String> groupName(long gid) {
                return Optional.ofNullable(groups.get(gid));
            }

            @Override
            public Optional<Long> gid(String groupName) {
                return groups.entrySet().stream()
                        .filter(e -> e.getValue().equals(groupName))
                        .map(Map.Entry::getKey)
                        .findFirst();
            }

            @Override
            public Optional<String> properName(String userName) {
                return Optional.ofNullable(gecos.get(userName));
            }
        };
    }

    private static Optional<Long> parseId(String s) {
        try {
            return Optional.of(Long.parseLong(s));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }
}
