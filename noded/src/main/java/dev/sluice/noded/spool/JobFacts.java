package dev.sluice.noded.spool;

import dev.sluice.common.files.OwnerOnly;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The small facts about a job that its supervisor and this daemon write in its spool directory
 * (pids, wait status, an end state asked for): one file, {@value #FILE}, of {@code name=value}
 * lines, each appended by a single write(2) with {@code O_APPEND}, so that writers in four
 * languages (this daemon, the C and Perl supervisor hosts, the shell supervisor) never overwrite
 * one another. A name written again takes its last value; a last line without its newline was
 * cut short by a crash and does not count, which keeps what renaming a file per fact kept: a
 * restarted daemon reads a fact whole or not at all.
 *
 * <p>Why one file: a fact a file was six new inodes per job, and creating an inode is the dearest
 * part of a job's files (ext4 without a journal scans past every inode freed in the last minute
 * for each one it creates; on any file system the inode and its directory entry are written). The
 * daemon's completion report is one of them too.
 *
 * <p>A job that an earlier version started keeps its facts a file each, as its supervisor, still
 * running, writes them: a name the log does not hold is read from that file.
 */
public final class JobFacts {
    /** The facts' file in a job's directory. */
    public static final String FILE = "facts";

    /** The supervisor's pid: the first fact every supervisor of this version writes. */
    private static final String SUPERVISOR_PID = "supervisor.pid";

    private final Path jobDir;
    private final Map<String, String> values;

    private JobFacts(Path jobDir, Map<String, String> values) {
        this.jobDir = jobDir;
        this.values = values;
    }

    /** The facts of {@code text}, as its writers left it in {@code jobDir}. */
    static JobFacts parse(Path jobDir, byte[] text) {
        Map<String, String> values = new HashMap<>();
        int from = 0;
        for (int i = 0; i < text.length; i++) {
            if (text[i] == '\n') {
                String line = new String(text, from, i - from, StandardCharsets.US_ASCII);
                int eq = line.indexOf('=');
                if (eq > 0) {
                    values.put(line.substring(0, eq), line.substring(eq + 1));
                }
                from = i + 1;
            }
        }
        return new JobFacts(jobDir, values);
    }

    /** The facts of a job's directory as they are now; none when it has none (yet). */
    public static JobFacts of(Path jobDir) {
        try {
            return parse(jobDir, Files.readAllBytes(jobDir.resolve(FILE)));
        } catch (IOException e) {
            return new JobFacts(jobDir, Map.of());
        }
    }

    /** Whether {@code name} was written, with any value (an empty one marks an event). */
    public boolean has(String name) {
        return values.containsKey(name) || (legacy() && Files.exists(jobDir.resolve(name)));
    }

    /**
     * Whether the job may keep facts a file each: its supervisor (an earlier version's) has not
     * written its pid here. This version's supervisors write it first, so a job of theirs reads
     * no file for a fact it lacks (an absent Prolog failure, say, costs no failed open per job).
     */
    private boolean legacy() {
        return !values.containsKey(SUPERVISOR_PID);
    }

    /** The value of {@code name}; empty when it was not written or was written empty. */
    public Optional<String> value(String name) {
        String value = values.get(name);
        if (value == null) {
            value = legacy() ? fileValue(jobDir, name) : "";
        }
        value = value.strip();
        return value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    private static String fileValue(Path jobDir, String name) {
        try {
            return Files.readString(jobDir.resolve(name), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Appends {@code name=value} in one write, creating the file owner-only (root's, as the rest
     * of the spool but the script).
     *
     * @throws IOException when it could not be written whole
     */
    public static void append(Path jobDir, String name, String value) throws IOException {
        if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\n') >= 0 || value.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("not a fact: " + name + "=" + value);
        }
        ByteBuffer line = ByteBuffer.wrap((name + "=" + value + "\n").getBytes(StandardCharsets.US_ASCII));
        try (FileChannel out = FileChannel.open(
                jobDir.resolve(FILE),
                Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND),
                OwnerOnly.file())) {
            int written = out.write(line);
            if (line.hasRemaining()) {
                throw new IOException("wrote " + written + " of the " + line.capacity() + " bytes of fact " + name);
            }
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(jobDir.toString(), null, "the job's directory is gone");
        }
    }
}
