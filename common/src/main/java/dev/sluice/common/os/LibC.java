package dev.sluice.common.os;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/**
 * The C library, bound once by name (JNA) on first use. A call that fails sets errno, which
 * {@link Native#getLastError()} reads; the calls declared to throw {@link LastErrorException}
 * raise it instead.
 */
public final class LibC {
    /** The calls the daemons make, as libc declares them. */
    public interface Calls extends Library {
        int umask(int mask);

        Pointer getpwnam(String name);

        Pointer getpwuid(int uid);

        Pointer getgrgid(int gid);

        int getgrouplist(String user, int group, int[] groups, IntByReference ngroups);

        long syscall(long number, Object... args);

        int open(String path, int flags);

        int close(int fd);

        int socket(int domain, int type, int protocol) throws LastErrorException;

        long sendto(int fd, byte[] buf, long len, int flags, byte[] addr, int addrlen) throws LastErrorException;
    }

    private static volatile Calls calls;

    private LibC() {}

    /**
     * libc's calls.
     *
     * @throws LinkageError where the C library cannot be loaded (not Linux, no JNA native part)
     */
    public static Calls get() {
        Calls c = calls;
        if (c == null) {
            c = Native.load("c", Calls.class);
            calls = c;
        }
        return c;
    }
}
