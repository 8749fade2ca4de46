package dev.sluice.noded.launch;

import static java.util.Objects.requireNonNull;

import dev.sluice.noded.job.BatchJob;
import dev.sluice.noded.job.PrologDone;
import dev.sluice.noded.spool.ForkLock;
import dev.sluice.noded.spool.Outbox;
import dev.sluice.noded.spool.PrologRuns;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code PrologFlags=Alloc} for an allocation without a batch script (salloc): the node's
 * {@code Prolog=} programs run here as root when the controller allocates the job, with the
 * environment a batch job's Prolog gets ({@link PrologEpilog}), and the controller is told when
 * they are done (and how: one that fails drains the node), so that salloc, which waits for that,
 * runs its command; the same on a batch job's nodes other than its batch host, whose Prolog runs
 * inside the job's supervisor instead (see {@link BatchLauncher}). Each run of a job runs it once:
 * the controller journals what it waits for and, restarted, asks again the nodes it has not heard
 * from. This daemon keeps what it started in the spool ({@link PrologRuns}): restarted, it runs
 * none again, watches those still running ({@link #recover}) and tells what it had not told.
 */
public final class AllocationPrologs {
    private static final Logger log = LoggerFactory.getLogger(AllocationPrologs.class);

    /**
     * Runs the Prolog (its text is {@code $2}) and writes its exit status to {@code $1} when it
     * ends, whether or not this daemon still runs then. In a session of its own, so that a signal
     * to the daemon's process group (a terminal's Ctrl-C, a service stop) does not end it.
     */
    private static final String RUN_AND_RECORD =
            "/bin/sh -c \"$2\"; s=$?; echo $s > \"$1.tmp\" && mv -f \"$1.tmp\" \"$1\"";

    /** A Prolog that ended while no daemon watched and left no status: told as failed. */
    static final int LOST_STATUS = 1;

    private final String nodeName;
    private final Supplier<LaunchPolicy> policy;
    private final Outbox outbox;
    private final PrologRuns runs;

    public AllocationPrologs(String nodeName, Supplier<LaunchPolicy> policy, Outbox outbox, PrologRuns runs) {
        this.nodeName = requireNonNull(nodeName, "nodeName is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.outbox = requireNonNull(outbox, "outbox is null");
        this.runs = requireNonNull(runs, "runs is null");
    }

    /** Starts the allocation's Prolog, unless this run's was started before; the controller hears when it is done. */
    public void run(BatchJob job) throws IOException {
        PrologRuns.Run run = new PrologRuns.Run(job.jobId(), job.restartCount());
        if (!runs.claim(run)) {
            return;
        }
        Optional<String> wrapper = PrologEpilog.wrapper(
                policy.get().prolog(),
                PrologEpilog.environment(
                        job, nodeName, PrologEpilog.PROLOG_CONTEXT, BatchCommand.gresEnvironment(job)));
        if (wrapper.isEmpty()) {
            runs.ended(run, 0);
            done(run, 0);
            return;
        }
        Path statusFile = runs.statusFile(run);
        ProcessBuilder pb = new ProcessBuilder(
                        "setsid", "/bin/sh", "-c", RUN_AND_RECORD, "sh", statusFile.toString(), wrapper.get())
                .directory(new File("/"));
        pb.environment().clear();
        pb.environment().putAll(UserEnvironment.ROOT);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = ForkLock.start(pb);
        p.info().startInstant().ifPresent(at -> {
            try {
                runs.started(run, new PrologRuns.ProcessMark(p.pid(), at.toEpochMilli()));
            } catch (IOException e) {
                log.warn("job {}: cannot record its Prolog's process: {}", run.jobId(), e.toString());
            }
        });
        p.onExit().thenAccept(ended -> finished(run, ended.exitValue()));
    }

    /**
     * Takes up what an earlier daemon started: tells the runs that ended without being told, and
     * watches those still running. Called once at start, before the first registration.
     */
    public void recover() {
        for (PrologRuns.Standing s : runs.untold()) {
            if (s.status().isPresent()) {
                done(s.run(), s.status().get());
                continue;
            }
            Optional<ProcessHandle> running = s.process()
                    .flatMap(mark -> ProcessHandle.of(mark.pid())
                            .filter(h -> h.info()
                                    .startInstant()
                                    .map(at -> at.toEpochMilli() == mark.startMillis())
                                    .orElse(false)));
            if (running.isPresent()) {
                log.info(
                        "job {}: its allocation Prolog still runs (pid {}); watching it",
                        s.run().jobId(),
                        running.get().pid());
                running.get().onExit().thenAccept(ended -> finished(s.run(), LOST_STATUS));
            } else {
                finished(s.run(), LOST_STATUS);
            }
        }
    }

    /**
     * The Prolog's process ended: its status as its shell recorded it, or {@code fallback} when
     * it recorded none (killed before it could).
     */
    private void finished(PrologRuns.Run run, int fallback) {
        Optional<Integer> recorded = runs.status(run);
        int status = recorded.orElse(fallback);
        if (recorded.isEmpty()) {
            log.error("job {}: the allocation's Prolog ended without recording its exit status", run.jobId());
            try {
                runs.ended(run, status);
            } catch (IOException e) {
                log.warn("job {}: cannot record its Prolog's status: {}", run.jobId(), e.toString());
            }
        }
        done(run, status);
    }

    private void done(PrologRuns.Run run, int status) {
        if (status != 0) {
            // The controller drains this node and gives the job back to the queue, as Slurm's.
            log.error(
                    "job {}: the allocation's Prolog exited with status {}; the node will be drained",
                    run.jobId(),
                    status);
        }
        outbox.postPrologDone(new PrologDone(nodeName, run.jobId(), run.restartCount(), status));
    }
}
