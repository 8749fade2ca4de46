package dev.sluice.noded.launch;

import com.sun.jna.ptr.IntByReference;
import dev.sluice.common.os.LibC;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A user's groups as the system's name service knows them, by getgrouplist(3): what initgroups,
 * {@code setpriv --init-groups} and slurmstepd give a job. Walking the group file instead
 * (getgrent) misses every group a directory service holds without enumerating it, which is
 * sssd's default: a job would lose its LDAP project groups.
 */
final class UserGroups {
    private UserGroups() {}

    private static LibC.Calls libc() throws IOException {
        try {
            return LibC.get();
        } catch (LinkageError | RuntimeException e) {
            throw new IOException("cannot load libc for getgrouplist: " + e.getMessage(), e);
        }
    }

    /** {@code user}'s groups, {@code gid} first and once. */
    static List<Integer> of(String user, int gid) throws IOException {
        LibC.Calls c = libc();
        int[] groups = new int[64];
        IntByReference n = new IntByReference(groups.length);
        if (c.getgrouplist(user, gid, groups, n) < 0) {
            // Too small: n now says how many there are (a user in thousands of groups exists).
            groups = new int[n.getValue()];
            n.setValue(groups.length);
            if (c.getgrouplist(user, gid, groups, n) < 0) {
                throw new IOException("getgrouplist(" + user + ") failed");
            }
        }
        List<Integer> out = new ArrayList<>(n.getValue());
        out.add(gid);
        for (int i = 0; i < n.getValue(); i++) {
            if (groups[i] != gid && !out.contains(groups[i])) {
                out.add(groups[i]);
            }
        }
        return out;
    }
}
