package dev.sluice.noded.launch;

import dev.sluice.common.text.RawText;
import dev.sluice.noded.spool.JobFacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A job's supervisor found again after this daemon restarted: a supervisor started alone for
 * the job, or the supervisor host (of this daemon's earlier run) that is the job's parent. A
 * recorded pid counts only if that process is still the job's supervisor, so a recycled pid is
 * never mistaken for it: a lone supervisor's command line names the job directory; a host's
 * command line ends in the token the job's {@link Supervisor#HOST} fact holds.
 *
 * @param pid the supervisor's
 * @param done completes once the supervisor has done with the job: a lone supervisor when it
 *     exits; a host, which outlives the job, when it has written {@link Supervisor#DONE} for it,
 *     or when the host is gone (then nobody will record the job's end)
 */
record KnownSupervisor(long pid, CompletableFuture<?> done) {
    /** What a host's command line holds before its system call numbers and token. */
    static final String SERVE = "--serve";

    // How often a re-adopted job under a host is looked at: only such jobs are polled, and only
    // after a restart of this daemon; a job of this run's host is reported by the host's line.
    private static final long POLL_MILLIS = 250;
    private static final ScheduledExecutorService POLL = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon(true).name("noded-supervisor-watch").factory());

    /** The supervisor of the job in {@code jobDir}, if it still runs and has not done with the job. */
    static Optional<KnownSupervisor> of(Path jobDir, Optional<String> recordedPid) {
        if (recordedPid.isEmpty()) {
            return Optional.empty();
        }
        long pid;
        try {
            pid = Long.parseLong(recordedPid.get());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (process.isEmpty()) {
            return Optional.empty();
        }
        List<String> argv = commandLine(pid);
        String dir = jobDir.toString();
        if (argv.contains(dir)) {
            return Optional.of(new KnownSupervisor(pid, process.get().onExit()));
        }
        Optional<String> token = token(jobDir);
        if (token.isEmpty()
                || argv.size() < 3
                || !argv.get(argv.size() - 3).equals(SERVE)
                || !argv.getLast().equals(token.get())
                || JobFacts.of(jobDir).has(Supervisor.DONE)) {
            return Optional.empty();
        }
        return Optional.of(new KnownSupervisor(pid, doneWith(jobDir, process.get())));
    }

    private static Optional<String> token(Path jobDir) {
        return JobFacts.of(jobDir).value(Supervisor.HOST);
    }

    private static CompletableFuture<?> doneWith(Path jobDir, ProcessHandle host) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        ScheduledFuture<?> poll = POLL.scheduleWithFixedDelay(
                () -> {
                    if (JobFacts.of(jobDir).has(Supervisor.DONE) || !host.isAlive()) {
                        done.complete(null);
                    }
                },
                POLL_MILLIS,
                POLL_MILLIS,
                TimeUnit.MILLISECONDS);
        done.whenComplete((v, e) -> poll.cancel(false));
        return done;
    }

    private static List<String> commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            List<String> out = new ArrayList<>();
            int from = 0;
            for (int i = 0; i <= raw.length; i++) {
                if (i == raw.length || raw[i] == 0) {
                    if (i > from) {
                        out.add(RawText.decode(raw, from, i - from));
                    }
                    from = i + 1;
                }
            }
            return out;
        } catch (IOException e) {
            return List.of();
        }
    }
}
