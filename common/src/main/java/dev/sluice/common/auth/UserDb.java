package dev.sluice.common.auth;

import java.util.Map;
import java.util.Optional;

/**
 * The system's user database as the daemons need it: a name to its uid and primary gid, and
 * back. Daemons map names they were told (a {@code SLURM_JWT}'s user, a peer's credentials) to
 * numbers themselves; a name the database does not know authenticates nobody.
 */
public interface UserDb {
    /** One passwd entry. */
    record Account(String name, long uid, long gid) {}

    Optional<Account> byName(String name);

    Optional<Account> byUid(long uid);

    /** The name of a group, where this database knows groups (getgrgid(3) for the system's). */
    default Optional<String> groupName(long gid) {
        return Optional.empty();
    }

    /** getpwnam(3)/getpwuid(3) of this host, so NSS users (LDAP, SSSD) count too. */
    static UserDb system() {
        return LibcUserDb.INSTANCE;
    }

    /** A fixed table, for tests and for hosts where libc cannot be reached. */
    static UserDb of(Map<String, Account> byName) {
        Map<String, Account> copy = Map.copyOf(byName);
        return new UserDb() {
            @Override
            public Optional<Account> byName(String name) {
                return Optional.ofNullable(copy.get(name));
            }

            @Override
            public Optional<Account> byUid(long uid) {
                return copy.values().stream().filter(a -> a.uid() == uid).findFirst();
            }
        };
    }
}
