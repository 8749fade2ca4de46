package dev.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.auth.UserDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestSystemUsers {
    @TempDir
    Path dir;

    @Test
    void aUserAddedAfterStartIsKnownToTheNextCommand() throws Exception {
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0:root:/root:/bin/sh\n");
        Path group = Files.writeString(dir.resolve("group"), "root:x:0:\n");
        UserDirectory users = new SystemUsers(passwd, group, UserDb.of(Map.of()));
        assertThat(users.current().uid("alice")).isEmpty();

        Files.writeString(
                passwd, "alice:x:1001:1001:Alice A,,,:/home/alice:/bin/sh\n", java.nio.file.StandardOpenOption.APPEND);
        Files.writeString(group, "alice:x:1001:\n", java.nio.file.StandardOpenOption.APPEND);
        // A distinct modification time, as a later edit has (file systems may keep whole seconds).
        Files.setLastModifiedTime(
                passwd, FileTime.fromMillis(Files.getLastModifiedTime(passwd).toMillis() + 2000));
        Files.setLastModifiedTime(
                group, FileTime.fromMillis(Files.getLastModifiedTime(group).toMillis() + 2000));

        UserDirectory now = users.current();
        assertThat(now.uid("alice")).contains(1001L);
        assertThat(now.userName(1001)).contains("alice");
        assertThat(now.groupName(1001)).contains("alice");
        assertThat(now.properName("alice")).contains("Alice A");
    }

    @Test
    void namesTheFilesLackComeFromNss() throws Exception {
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0:root:/root:/bin/sh\n");
        Path group = Files.writeString(dir.resolve("group"), "root:x:0:\n");
        UserDb ldap = UserDb.of(Map.of("ldapuser", new UserDb.Account("ldapuser", 50001, 50001)));
        UserDirectory users = new SystemUsers(passwd, group, ldap).current();
        assertThat(users.uid("ldapuser")).contains(50001L);
        assertThat(users.userName(50001)).contains("ldapuser");
        assertThat(users.uid("nosuch")).isEmpty();
        assertThat(users.userName(0)).contains("root");
    }

    @Test
    void theSystemDirectoryAgreesWithLibc() {
        // root is uid 0 on every Linux host, in the files and through getpwuid alike.
        UserDirectory users = UserDirectory.system().current();
        assertThat(users.userName(0)).contains("root");
        assertThat(users.uid("root")).contains(0L);
        assertThat(users.groupName(0)).contains("root");
        assertThat(UserDb.system().groupName(0)).contains("root");
    }
}
