package dev.sluice.cli;

import dev.sluice.common.auth.UserDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Optional;

/**
 * This host's users as its commands see them, as Slurm's commands do through getpwnam(3): the
 * passwd and group files first, then NSS (LDAP, SSSD) through libc for a name or number the files
 * lack. A long-lived holder (sluice-agent) asks {@link #current()} once per command, which reads
 * the files again only when they changed, so a user added while it runs is known at once.
 */
final class SystemUsers implements UserDirectory {
    private final Path passwd;
    private final Path group;
    private final UserDb nss;
    private volatile Snapshot snapshot;

    private record Snapshot(FileTime passwdTime, FileTime groupTime, UserDirectory files) {}

    SystemUsers(Path passwd, Path group, UserDb nss) {
        this.passwd = passwd;
        this.group = group;
        this.nss = nss;
        this.snapshot = read();
    }

    @Override
    public UserDirectory current() {
        Snapshot s = snapshot;
        if (!s.passwdTime().equals(modified(passwd)) || !s.groupTime().equals(modified(group))) {
            snapshot = read();
        }
        return this;
    }

    private Snapshot read() {
        // The times first: a change made while the files are read is seen on the next check.
        FileTime p = modified(passwd);
        FileTime g = modified(group);
        return new Snapshot(p, g, UserDirectory.fromFiles(passwd, group));
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    @Override
    public Optional<String> userName(long uid) {
        return snapshot.files().userName(uid).or(() -> nss.byUid(uid).map(UserDb.Account::name));
    }

    @Override
    public Optional<Long> uid(String userName) {
        return snapshot.files().uid(userName).or(() -> nss.byName(userName).map(UserDb.Account::uid));
    }

    @Override
    public Optional<String> groupName(long gid) {
        return snapshot.files().groupName(gid).or(() -> nss.groupName(gid));
    }

    @Override
    public Optional<Long> gid(String groupName) {
        return snapshot.files().gid(groupName);
    }

    @Override
    public Optional<String> properName(String userName) {
        return snapshot.files().properName(userName);
    }
}
