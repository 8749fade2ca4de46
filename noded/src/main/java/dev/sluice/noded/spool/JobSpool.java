package dev.sluice.noded.spool;

import dev.sluice.common.files.OwnerOnly;
import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.wire.BatchJobMapper;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The node daemon's spool (SlurmdSpoolDir): one directory per job holding its script, its launch
 * request, the facts its supervisor writes ({@link JobFacts}: pids, exit status) and, once it ended, the
 * completion report. A report stays on disk until the controller has
 * acknowledged it, so a job's end survives a node daemon restart or a controller outage.
 *
 * <p>Modes, whatever the daemon's umask: the spool 0755 and each job's directory 0711 (its user
 * must reach the script, nobody may list it); the script 0700 and the user's; everything else
 * (the launch request holds the job's environment) root's alone, 0600.
 */
public final class JobSpool {
    /** A fact only an earlier version's supervisor writes as a file of its own. */
    private static final String LEGACY_MARK = "supervisor.pid";
    /** The completion report as an earlier version kept it: a file of its own. */
    private static final String REPORT_FILE = "complete.pb";
    /** The completion report, a fact: the wire form in base64, so the job's end costs no new inode. */
    private static final String REPORT = "complete";

    private static final String LAUNCH = "launch.pb";
    private static final String SCRIPT = "slurm_script";
    private static final java.util.Set<java.nio.file.attribute.PosixFilePermission> JOB_DIR_MODE =
            PosixFilePermissions.fromString("rwx--x--x");
    /** The supervisor's name for it too. */
    public static final String ENVIRONMENT = "environment";

    private final Path root;
    private final PrologRuns prologRuns;

    public JobSpool(Path root) throws IOException {
        this.root = root;
        dev.sluice.common.files.PublicDirectories.create(root);
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        this.prologRuns = new PrologRuns(root.resolve("prologs"));
        // Directories and files an older version left readable to all.
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.toList()) {
                if (dir.getFileName().toString().matches("job\\d+")
                        && Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                    restrict(dir);
                }
            }
        }
    }

    private static void restrict(Path jobDir) throws IOException {
        Files.setPosixFilePermissions(jobDir, JOB_DIR_MODE);
        try (Stream<Path> files = Files.list(jobDir)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (!name.equals(SCRIPT) && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                    Files.setPosixFilePermissions(f, OwnerOnly.FILE_MODE);
                }
            }
        }
    }

    private Path createJobDir(int jobId) throws IOException {
        Path dir = jobDir(jobId);
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, JOB_DIR_MODE);
        }
        return dir;
    }

    public Path root() {
        return root;
    }

    /** The allocation Prologs started here ({@code PrologFlags=Alloc}), across restarts. */
    public PrologRuns prologRuns() {
        return prologRuns;
    }

    public Path jobDir(int jobId) {
        return root.resolve("job" + String.format("%05d", jobId));
    }

    /** Writes the batch script, byte for byte as submitted, readable and executable by its owner only. */
    public Path writeScript(int jobId, byte[] script) throws IOException {
        return writeExecutable(jobId, SCRIPT, script);
    }

    /** An owner-only program in the job's directory: its Prolog and Epilog wrappers. */
    public Path writeExecutable(int jobId, String name, String text) throws IOException {
        return writeExecutable(jobId, name, text.getBytes(StandardCharsets.UTF_8));
    }

    private Path writeExecutable(int jobId, String name, byte[] bytes) throws IOException {
        Path dir = createJobDir(jobId);
        Path file = dir.resolve(name);
        ForkLock.write(file, bytes);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }

    /** A job's user, numerically. */
    public record Owner(int uid, int gid) {}

    /**
     * A job's (or one step task's) environment, for the loader that runs as the job's user
     * ({@code launch.UserEnvironment}): created owner-only, then given to {@code owner} when this
     * daemon is root, so that the user and no one else can read it. The job's directory stays
     * root's: the user cannot replace the file.
     */
    public Path writeEnvironment(int jobId, byte[] bytes, Optional<Owner> owner) throws IOException {
        return writeOwned(createJobDir(jobId).resolve(ENVIRONMENT), bytes, owner);
    }

    /**
     * One step task's environment, as {@link #writeEnvironment}: in {@code steps/} rather than
     * a job directory, which a node that only runs steps never has (nor cleans up); the caller
     * removes it when the task has started.
     */
    public Path writeStepEnvironment(int jobId, int stepId, int task, byte[] bytes, Optional<Owner> owner)
            throws IOException {
        Path dir = root.resolve("steps");
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir);
            Files.setPosixFilePermissions(dir, JOB_DIR_MODE);
        }
        return writeOwned(dir.resolve("job" + jobId + "." + stepId + "." + task + ".environment"), bytes, owner);
    }

    private static Path writeOwned(Path file, byte[] bytes, Optional<Owner> owner) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, OwnerOnly.file());
        Files.write(file, bytes);
        if (owner.isPresent()) {
            chown(file, owner.get());
        }
        return file;
    }

    /**
     * Gives {@code path} to {@code owner} with chown(2) itself (the JDK's "unix" view): a chown
     * process per launch, inside the launch lock, cost as much as the rest of the launch on a
     * busy node and capped how many jobs a node could start per second.
     */
    public static void chown(Path path, Owner owner) throws IOException {
        Files.setAttribute(path, "unix:uid", owner.uid(), LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(path, "unix:gid", owner.gid(), LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Keeps the job's launch beside the script, so a restarted daemon can re-adopt the job: as
     * the controller's launch message, the form every earlier daemon wrote.
     *
     * @param record a {@code LaunchBatchJobRequest}'s bytes: the launch as it came, as the
     *     credential check gave them ({@link #launchRecord} makes them from a job); {@link
     *     #launch} reads it back
     */
    public void saveLaunch(int jobId, byte[] record) throws IOException {
        writeAtomically(jobDir(jobId).resolve(LAUNCH), record);
    }

    /** What {@link #saveLaunch} keeps of a job: the launch message an older daemon wrote too. */
    public static byte[] launchRecord(BatchJob job) {
        return BatchJobMapper.toWire(job).toByteArray();
    }

    /** The launch of a job saved here (by this daemon or an earlier one), mapped as one that arrives is. */
    public Optional<BatchJob> launch(int jobId) throws IOException {
        Path file = jobDir(jobId).resolve(LAUNCH);
        return Files.isRegularFile(file)
                ? Optional.of(BatchJobMapper.toJob(LaunchBatchJobRequest.parseFrom(Files.readAllBytes(file))))
                : Optional.empty();
    }

    /**
     * A small fact about a running job (a pid, an exit status, an end state), written whole ({@link
     * JobFacts}). A job an earlier version started has a supervisor that reads facts a file each
     * (its pid is such a file): it gets the file too, so that it sees an end asked for before its
     * job runs.
     */
    public void writeFact(int jobId, String name, String value) throws IOException {
        Path dir = createJobDir(jobId);
        JobFacts.append(dir, name, value);
        if (Files.isRegularFile(dir.resolve(LEGACY_MARK), LinkOption.NOFOLLOW_LINKS)) {
            writeAtomically(dir.resolve(name), (value + "\n").getBytes(StandardCharsets.US_ASCII));
        }
    }

    /**
     * A file of its own, written whole, for what one reader claims by renaming it (the end line
     * the job or this daemon writes, whichever renames it first): not a fact, which stays.
     */
    public void writeClaimable(int jobId, String name, String text) throws IOException {
        writeAtomically(createJobDir(jobId).resolve(name), (text + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** A fact's value; empty when it was not written or was written empty. */
    public Optional<String> fact(int jobId, String name) {
        return facts(jobId).value(name);
    }

    /** A job's facts as they are now, read once for several. */
    public JobFacts facts(int jobId) {
        return JobFacts.of(jobDir(jobId));
    }

    /** Jobs launched here whose end has not been reported yet: the ones to re-adopt. */
    public List<Integer> unfinishedJobs() throws IOException {
        List<Integer> out = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.sorted().toList()) {
                String name = dir.getFileName().toString();
                if (name.matches("job\\d+") && report(dir).isEmpty()) {
                    out.add(Integer.parseInt(name.substring(3)));
                }
            }
        }
        return out;
    }

    private void writeAtomically(Path file, byte[] bytes) throws IOException {
        if (!Files.isDirectory(file.getParent())) {
            Files.createDirectories(file.getParent());
            Files.setPosixFilePermissions(file.getParent(), JOB_DIR_MODE);
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        OwnerOnly.write(tmp, bytes);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    public boolean knows(int jobId) {
        return Files.isDirectory(jobDir(jobId));
    }

    /**
     * Durably records a job's end before the controller is told: as much as the rest of its
     * facts, one line appended to them (a restarted daemon reads it whole or not at all).
     */
    public void saveReport(JobCompleteRequest report) throws IOException {
        JobFacts.append(
                createJobDir(report.getJobId()), REPORT, Base64.getEncoder().encodeToString(report.toByteArray()));
    }

    /** Reports written but not yet acknowledged, oldest job first. */
    public List<JobCompleteRequest> pendingReports() throws IOException {
        List<JobCompleteRequest> out = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.sorted().toList()) {
                if (dir.getFileName().toString().matches("job\\d+")) {
                    Optional<byte[]> report = report(dir);
                    if (report.isPresent()) {
                        out.add(JobCompleteRequest.parseFrom(report.get()));
                    }
                }
            }
        }
        return out;
    }

    /** The wire form of a job's saved report; one an earlier version saved is a file. */
    private static Optional<byte[]> report(Path jobDir) throws IOException {
        Optional<String> fact = JobFacts.of(jobDir).value(REPORT);
        if (fact.isPresent()) {
            try {
                return Optional.of(Base64.getDecoder().decode(fact.get()));
            } catch (IllegalArgumentException e) {
                throw new IOException("job directory " + jobDir + ": its saved report is not base64", e);
            }
        }
        Path file = jobDir.resolve(REPORT_FILE);
        return Files.isRegularFile(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
    }

    /** The controller acknowledged the report: the job leaves this node. */
    public void forget(int jobId) throws IOException {
        Path dir = jobDir(jobId);
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
