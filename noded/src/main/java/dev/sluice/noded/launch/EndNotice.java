package dev.sluice.noded.launch;

import dev.sluice.common.slurm.JobState;
import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.spool.ForkLock;
import java.io.File;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The line slurmstepd writes to a job's standard error when it is told to end the job, before it
 * signals it: {@code slurmstepd-n1: error: *** JOB 12 ON n1 CANCELLED AT 2026-12-04T15:10:00 ***}
 * (with {@code DUE TO TIME LIMIT} for a time limit, {@code DUE TO PREEMPTION} for preemption),
 * in the node's local time. Appended by a
 * shell of the job's user, as the job's own files are opened, so the daemon never writes into a
 * user's file with its own rights.
 */
final class EndNotice {
    private static final Logger log = LoggerFactory.getLogger(EndNotice.class);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");

    private EndNotice() {}

    /** The line for a job ended as {@code state}; none for ends slurmstepd does not announce. */
    static Optional<String> text(String nodeName, int jobId, JobState state, Instant at, ZoneId zone) {
        String why = switch (state) {
            case CANCELLED -> "";
            case TIMEOUT -> " DUE TO TIME LIMIT";
            // Requeued by preemption too (compat 242, 243).
            case PREEMPTED -> " DUE TO PREEMPTION";
            default -> null;
        };
        if (why == null) {
            return Optional.empty();
        }
        String time = LocalDateTime.ofInstant(at, zone).format(TIME);
        return Optional.of("slurmstepd-" + nodeName + ": error: *** JOB " + jobId + " ON " + nodeName + " CANCELLED AT "
                + time + why + " ***");
    }

    /** slurmstepd's line for a step cancelled alone ({@code scancel J.S}), sent to the step's srun. */
    static String stepCancelled(String nodeName, int jobId, int stepId, Instant at, ZoneId zone) {
        return "slurmstepd-" + nodeName + ": error: *** STEP " + jobId + "." + stepId + " ON " + nodeName
                + " CANCELLED AT " + LocalDateTime.ofInstant(at, zone).format(TIME) + " ***";
    }

    /** The command that appends {@code line} to the job's standard error as the job's user. */
    static List<String> command(BatchJob job, String nodeName, int daemonUid, String line) {
        int uid = job.owner().uid();
        List<String> command = new ArrayList<>();
        if (daemonUid == 0 && uid != 0) {
            command.addAll(List.of(
                    "setpriv", "--reuid=" + uid, "--regid=" + job.owner().gid(), "--init-groups", "--"));
        }
        String workDir = job.io().runDir();
        command.addAll(List.of(
                "/bin/sh",
                "-c",
                "cd -- \"$1\" 2>/dev/null || cd /tmp; printf '%s\\n' \"$3\" >>\"$2\"",
                "slurmstepd",
                workDir,
                BatchCommand.errorPath(job, nodeName),
                line));
        return command;
    }

    /**
     * Appends {@code line} to the job's error file as the job's user: only once the job has opened
     * (truncated) it, else the line is lost; failures are only logged.
     */
    static void append(BatchJob job, String nodeName, int daemonUid, String line) {
        try {
            ForkLock.start(new ProcessBuilder(command(job, nodeName, daemonUid, line))
                            .directory(new File("/"))
                            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                            .redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD))
                    .waitFor();
        } catch (IOException e) {
            log.warn("job {}: cannot write its end to its error file: {}", job.jobId(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
