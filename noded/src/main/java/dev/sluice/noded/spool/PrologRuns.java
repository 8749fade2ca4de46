package dev.sluice.noded.spool;

import dev.sluice.common.files.OwnerOnly;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.SequencedSet;
import java.util.stream.Stream;

/**
 * The allocation Prologs this node has started ({@code PrologFlags=Alloc}), kept in the spool so
 * that a restart of the daemon neither runs one twice nor forgets one that was running: the
 * controller asks each node once per run of a job and waits for its answer. One run of a job
 * ({@link Run}) leaves up to three files in {@code prologs/}: {@code J.R.run} once claimed (then
 * holding the Prolog's pid and start time), {@code J.R.status} once it ended (written by the
 * shell that ran it, so a Prolog that outlives the daemon still leaves it) until the controller
 * has been told, then {@code J.R.told}. The newest {@link #REMEMBERED} runs are kept.
 */
public final class PrologRuns {
    /** Far more runs than a node starts while a controller might still ask for one again. */
    public static final int REMEMBERED = 4096;

    private static final String RUN = ".run";
    private static final String STATUS = ".status";
    private static final String TOLD = ".told";

    /** One run of one job, as the controller names it in its request and the notice. */
    public record Run(int jobId, int restartCount) {
        String key() {
            return jobId + "." + restartCount;
        }

        static Optional<Run> of(String fileName) {
            int dot = fileName.lastIndexOf('.');
            String[] parts =
                    dot < 0 ? new String[0] : fileName.substring(0, dot).split("\\.");
            if (parts.length != 2 || !parts[0].matches("\\d{1,10}") || !parts[1].matches("\\d{1,10}")) {
                return Optional.empty();
            }
            try {
                return Optional.of(new Run(Integer.parseUnsignedInt(parts[0]), Integer.parseUnsignedInt(parts[1])));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
    }

    /** Where a claimed run stands: started (its process, if known), or ended with a status. */
    public record Standing(Run run, Optional<ProcessMark> process, Optional<Integer> status) {}

    /** The Prolog's process: its pid and start time, so a later pid of the same number is not it. */
    public record ProcessMark(long pid, long startMillis) {}

    private final Path dir;
    /** Claimed runs, oldest first, mirroring the {@code .run} files. */
    private final SequencedSet<Run> claimed = new LinkedHashSet<>();

    PrologRuns(Path dir) throws IOException {
        this.dir = dir;
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir);
        }
        // Root's: what runs as root reads its status from here.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        List<Path> runs = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> f.getFileName().toString().endsWith(RUN)).forEach(runs::add);
        }
        runs.sort(Comparator.comparing(PrologRuns::modified).thenComparing(Path::toString));
        for (Path f : runs) {
            String name = f.getFileName().toString();
            Run.of(name).ifPresent(claimed::add);
        }
        forgetOldest();
    }

    private static FileTime modified(Path f) {
        try {
            return Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    /**
     * Claims a run before its Prolog starts: false when it was claimed before, by this daemon or
     * an earlier one, running or done.
     */
    public synchronized boolean claim(Run run) throws IOException {
        if (claimed.contains(run)) {
            return false;
        }
        try {
            Files.createFile(file(run, RUN));
        } catch (FileAlreadyExistsException e) {
            claimed.add(run);
            return false;
        }
        claimed.add(run);
        forgetOldest();
        return true;
    }

    /** Records the started Prolog's process, for a later daemon to tell whether it still runs. */
    public void started(Run run, ProcessMark process) throws IOException {
        write(file(run, RUN), process.pid() + " " + process.startMillis());
    }

    /** The file the Prolog's shell writes its exit status to (atomically, through {@code .tmp}). */
    public Path statusFile(Run run) {
        return file(run, STATUS);
    }

    /** The run ended with {@code status}, when nothing (its shell) recorded it yet. */
    public void ended(Run run, int status) throws IOException {
        if (!Files.exists(statusFile(run)) && !Files.exists(file(run, TOLD))) {
            write(statusFile(run), Integer.toString(status));
        }
    }

    /** The run's recorded exit status, until the controller has been told. */
    public Optional<Integer> status(Run run) {
        return readNumber(statusFile(run)).map(Math::toIntExact);
    }

    /** The controller has been told that the run is done: nothing more to say about it. */
    public void told(Run run) throws IOException {
        try {
            Files.move(statusFile(run), file(run, TOLD), StandardCopyOption.REPLACE_EXISTING);
        } catch (NoSuchFileException alreadyTold) {
            // Told twice (a notice returned to the outbox and sent again).
        }
    }

    /** Runs claimed and not yet told, oldest first: running, or ended with a status to tell. */
    public synchronized List<Standing> untold() {
        List<Standing> out = new ArrayList<>();
        for (Run run : claimed) {
            if (Files.exists(file(run, TOLD))) {
                continue;
            }
            out.add(new Standing(run, process(run), status(run)));
        }
        return out;
    }

    private Optional<ProcessMark> process(Run run) {
        try {
            String[] text = Files.readString(file(run, RUN), StandardCharsets.US_ASCII)
                    .strip()
                    .split(" ");
            return text.length == 2
                    ? Optional.of(new ProcessMark(Long.parseLong(text[0]), Long.parseLong(text[1])))
                    : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private void forgetOldest() throws IOException {
        while (claimed.size() > REMEMBERED) {
            Run oldest = claimed.removeFirst();
            for (String suffix : List.of(RUN, STATUS, TOLD)) {
                Files.deleteIfExists(file(oldest, suffix));
            }
        }
    }

    private Path file(Run run, String suffix) {
        return dir.resolve(run.key() + suffix);
    }

    private static Optional<Long> readNumber(Path file) {
        try {
            return Optional.of(Long.parseLong(
                    Files.readString(file, StandardCharsets.US_ASCII).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static void write(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        OwnerOnly.write(tmp, (text + "\n").getBytes(StandardCharsets.US_ASCII));
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
