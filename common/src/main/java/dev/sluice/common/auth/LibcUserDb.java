package dev.sluice.common.auth;

import com.sun.jna.Pointer;
import dev.sluice.common.os.LibC;
import java.util.Optional;

/**
 * {@link UserDb} over libc's getpwnam/getpwuid/getgrgid through JNA. {@code struct passwd} is read by
 * offset: on every LP64 Linux it is {@code char *pw_name; char *pw_passwd; uid_t pw_uid;
 * gid_t pw_gid; ...}. Calls are serialised because both functions return a static buffer.
 */
final class LibcUserDb implements UserDb {
    static final LibcUserDb INSTANCE = new LibcUserDb();

    private static final int UID_OFFSET = 2 * 8;
    private static final int GID_OFFSET = UID_OFFSET + 4;

    private static LibC.Calls libc() {
        return LibC.get();
    }

    @Override
    public synchronized Optional<Account> byName(String name) {
        if (name == null || name.isEmpty() || name.indexOf('\0') >= 0) {
            return Optional.empty();
        }
        return read(libc().getpwnam(name));
    }

    @Override
    public synchronized Optional<Account> byUid(long uid) {
        if (uid < 0 || uid > 0xFFFF_FFFFL) {
            return Optional.empty();
        }
        return read(libc().getpwuid((int) uid));
    }

    @Override
    public synchronized Optional<String> groupName(long gid) {
        if (gid < 0 || gid > 0xFFFF_FFFFL) {
            return Optional.empty();
        }
        // struct group starts with char *gr_name, as struct passwd with pw_name.
        Pointer gr = libc().getgrgid((int) gid);
        return gr == null ? Optional.empty() : Optional.of(gr.getPointer(0).getString(0));
    }

    private static Optional<Account> read(Pointer pw) {
        if (pw == null) {
            return Optional.empty();
        }
        String name = pw.getPointer(0).getString(0);
        long uid = Integer.toUnsignedLong(pw.getInt(UID_OFFSET));
        long gid = Integer.toUnsignedLong(pw.getInt(GID_OFFSET));
        return Optional.of(new Account(name, uid, gid));
    }
}
