package dev.sluice.noded.spool;

import dev.sluice.protocol.v1.JobCompleteRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The node daemon's spool (SlurmdSpoolDir): one directory per job holding its script and,
 * once it ended, the completion report. A report stays on disk until the controller has
 * acknowledged it, so a job's end survives a node daemon restart or a controller outage.
 */
public final class JobSpool {
    private static final String REPORT = "complete.pb";
    private final Path root;

    public JobSpool(Path root) throws IOException {
        this.root = root;
        Files.createDirectories(root);
    }

    public Path root() {
        return root;
    }

    public Path jobDir(int jobId) {
        return root.resolve("job" + String.format("%05d", jobId));
    }

    /** Writes the batch script, readable and executable by its owner only. */
    public Path writeScript(int jobId, String script) throws IOException {
        Path dir = jobDir(jobId);
        Files.createDirectories(dir);
        Path file = dir.resolve("slurm_script");
        Files.writeString(file, script);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }

    public boolean knows(int jobId) {
        return Files.isDirectory(jobDir(jobId));
    }

    /** Durably records a job's end before the controller is told. */
    public void saveReport(JobCompleteRequest report) throws IOException {
        Path dir = jobDir(report.getJobId());
        Files.createDirectories(dir);
        Path tmp = dir.resolve(REPORT + ".tmp");
        Files.write(tmp, report.toByteArray());
        Files.move(tmp, dir.resolve(REPORT), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Reports written but not yet acknowledged, oldest job first. */
    public List<JobCompleteRequest> pendingReports() throws IOException {
        List<JobCompleteRequest> out = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path dir : dirs.sorted().toList()) {
                Path report = dir.resolve(REPORT);
                if (Files.isRegularFile(report)) {
                    out.add(JobCompleteRequest.parseFrom(Files.readAllBytes(report)));
                }
            }
        }
        return out;
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
