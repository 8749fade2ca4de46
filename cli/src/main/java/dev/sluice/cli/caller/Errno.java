package dev.sluice.cli.caller;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Map;

/**
 * A Linux errno as the native front end reports it, with glibc's strerror text. Only the
 * numbers a file open, read, write or exec can meet are named; any other prints as glibc does,
 * {@code Unknown error N}.
 */
public record Errno(int number) {
    public static final Errno EPERM = new Errno(1);
    public static final Errno ENOENT = new Errno(2);
    public static final Errno EIO = new Errno(5);
    public static final Errno EACCES = new Errno(13);
    public static final Errno EISDIR = new Errno(21);
    public static final Errno EFBIG = new Errno(27);

    private static final Map<Integer, String> TEXT = Map.ofEntries(
            Map.entry(1, "Operation not permitted"),
            Map.entry(2, "No such file or directory"),
            Map.entry(5, "Input/output error"),
            Map.entry(6, "No such device or address"),
            Map.entry(8, "Exec format error"),
            Map.entry(9, "Bad file descriptor"),
            Map.entry(12, "Cannot allocate memory"),
            Map.entry(13, "Permission denied"),
            Map.entry(16, "Device or resource busy"),
            Map.entry(17, "File exists"),
            Map.entry(19, "No such device"),
            Map.entry(20, "Not a directory"),
            Map.entry(21, "Is a directory"),
            Map.entry(22, "Invalid argument"),
            Map.entry(23, "Too many open files in system"),
            Map.entry(24, "Too many open files"),
            Map.entry(26, "Text file busy"),
            Map.entry(27, "File too large"),
            Map.entry(28, "No space left on device"),
            Map.entry(30, "Read-only file system"),
            Map.entry(36, "File name too long"),
            Map.entry(40, "Too many levels of symbolic links"),
            Map.entry(122, "Disk quota exceeded"));

    public String text() {
        String t = TEXT.get(number);
        return t != null ? t : "Unknown error " + number;
    }

    /** What the JDK's exception for a failed file operation stands for. */
    public static Errno of(java.io.IOException e) {
        if (e instanceof NoSuchFileException) {
            return ENOENT;
        }
        if (e instanceof AccessDeniedException) {
            return EACCES;
        }
        if (e instanceof NotDirectoryException) {
            return new Errno(20);
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            // The JDK words its UnixException with strerror itself: map the text back.
            for (Map.Entry<Integer, String> t : TEXT.entrySet()) {
                if (t.getValue().equals(f.getReason())) {
                    return new Errno(t.getKey());
                }
            }
        }
        return EIO;
    }
}
