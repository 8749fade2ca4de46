package dev.sluice.noded.registration;

import dev.sluice.noded.launch.BatchLauncher;
import dev.sluice.noded.spool.Outbox;
import dev.sluice.protocol.v1.HeartbeatRequest;
import dev.sluice.protocol.v1.HeartbeatResponse;
import dev.sluice.protocol.v1.JobCompleteBatch;
import dev.sluice.protocol.v1.JobCompleteBatchResponse;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.NodeRegistryGrpc;
import dev.sluice.protocol.v1.PrologCompleteRequest;
import dev.sluice.protocol.v1.RefusedReport;
import dev.sluice.protocol.v1.RegisterNodeRequest;
import dev.sluice.protocol.v1.RegisterNodeResponse;
import io.grpc.ClientInterceptor;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this node known to the controller: registers (again whenever the controller asks or
 * was unreachable), heartbeats, and delivers completion reports from the spool until each is
 * acknowledged. Runs on one thread of its own; a controller outage only delays it. What it has
 * to send it takes from the {@link Outbox} (the launcher posts there), so it is built after the
 * launcher and nothing needs to call it back.
 */
public final class Registrar implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(Registrar.class);

    private final NodeRegistryGrpc.NodeRegistryBlockingStub stub;
    private final ManagedChannel channel;
    private final Supplier<RegisterNodeRequest> registration;
    private final BatchLauncher launcher;
    private final Outbox outbox;
    private final String nodeName;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean registered;
    private volatile int heartbeatSeconds = 5;
    /** Registrar thread only: false once the controller turned the batch call down as unknown. */
    private boolean batchReports = true;
    /**
     * Registrar thread only: when the controller asked for a report again soon (an end that waits
     * for another node's Prolog), how soon, in ms; 0 when it did not.
     */
    private long reportsAgainInMillis;

    /** Reports per call: well inside gRPC's message size and the controller's batch. */
    static final int REPORTS_PER_CALL = 1000;

    /**
     * The least time between two deliveries of job ends: an end after a quiet spell goes at once,
     * ends that follow within this time go together at its close. Each delivery is a batch of the
     * controller's loop, with its journal sync, a scheduling pass and a launch call for what the
     * ends freed; ends a few ms apart (a node busy with short jobs) made one each, about 2 ms of
     * the controller's CPU per job. 20 ms cut that by an eighth to a fifth at no cost in jobs/s
     * (docs/benchmarks.md, session 34). {@code -Dsluice.noded.reportIntervalMs=0} sends each at once.
     */
    static final long REPORT_INTERVAL_MS = Long.getLong("sluice.noded.reportIntervalMs", 20);

    private final long reportIntervalNanos;
    /** Registrar thread only: when the last delivery of ends began (System.nanoTime). */
    private long lastDelivery;

    public Registrar(
            ManagedChannel channel,
            ClientInterceptor signer,
            String nodeName,
            Supplier<RegisterNodeRequest> registration,
            BatchLauncher launcher,
            Outbox outbox) {
        this(channel, signer, nodeName, registration, launcher, outbox, Duration.ofMillis(REPORT_INTERVAL_MS));
    }

    /** @param reportInterval the least time between two deliveries of job ends */
    Registrar(
            ManagedChannel channel,
            ClientInterceptor signer,
            String nodeName,
            Supplier<RegisterNodeRequest> registration,
            BatchLauncher launcher,
            Outbox outbox,
            Duration reportInterval) {
        this.reportIntervalNanos = reportInterval.toNanos();
        this.lastDelivery = System.nanoTime() - reportIntervalNanos;
        this.channel = channel;
        this.stub = NodeRegistryGrpc.newBlockingStub(channel).withInterceptors(signer);
        this.nodeName = nodeName;
        this.registration = registration;
        this.launcher = launcher;
        this.outbox = outbox;
        this.thread = Thread.ofPlatform().daemon(true).name("noded-registrar").unstarted(this::run);
    }

    public void start() {
        thread.start();
    }

    public boolean isRegistered() {
        return registered;
    }

    /** The registration changed (reconfigure): send it now. */
    public void registerAgain() {
        registered = false;
        outbox.registrationChanged();
    }

    private void run() {
        boolean warned = false;
        long nextHeartbeat = System.nanoTime();
        while (running) {
            try {
                deliverReports();
                if (!registered) {
                    register();
                    nextHeartbeat = System.nanoTime() + TimeUnit.SECONDS.toNanos(heartbeatSeconds);
                } else if (System.nanoTime() - nextHeartbeat >= 0) {
                    // Only when due: a job's end wakes this loop to deliver its report, and a
                    // heartbeat each time would be one more controller batch per job.
                    nextHeartbeat = System.nanoTime() + TimeUnit.SECONDS.toNanos(heartbeatSeconds);
                    HeartbeatResponse hb = stub.withDeadlineAfter(10, TimeUnit.SECONDS)
                            .heartbeat(HeartbeatRequest.newBuilder()
                                    .setName(nodeName)
                                    .addAllRunningJobIds(launcher.runningJobIds())
                                    .setCpuLoad(HostReadings.loadAverage())
                                    .setFreeMemoryMb(HostReadings.freeMemoryMb())
                                    .build());
                    if (hb.getReregister()) {
                        registered = false;
                        continue;
                    }
                }
                warned = false;
            } catch (StatusRuntimeException e) {
                registered = false;
                if (!warned && e.getStatus().getCode() == io.grpc.Status.Code.FAILED_PRECONDITION) {
                    // The controller answered and said no (a node it does not know, say).
                    log.error(
                            "registration refused: {}; retrying", e.getStatus().getDescription());
                    warned = true;
                } else if (!warned) {
                    log.warn(
                            "controller unreachable ({}: {}); retrying",
                            e.getStatus().getCode(),
                            e.getStatus().getDescription());
                    warned = true;
                }
            } catch (IOException e) {
                log.error("spool error: {}", e.getMessage());
            }
            long untilHeartbeat = TimeUnit.NANOSECONDS.toMillis(nextHeartbeat - System.nanoTime());
            long pause = registered ? Math.max(1, untilHeartbeat) : 1000L;
            pause(reportsAgainInMillis > 0 ? Math.min(pause, reportsAgainInMillis) : pause);
        }
    }

    private void register() {
        RegisterNodeRequest request = registration.get().toBuilder()
                .clearRunningJobIds()
                .addAllRunningJobIds(launcher.runningJobIds())
                .build();
        RegisterNodeResponse answer =
                stub.withDeadlineAfter(10, TimeUnit.SECONDS).register(request);
        heartbeatSeconds = Math.max(1, answer.getHeartbeatIntervalSeconds());
        for (int orphan : answer.getOrphanJobIdsList()) {
            log.info("controller does not know job {} as running here; killing it", orphan);
            launcher.terminate(orphan, dev.sluice.common.slurm.JobState.CANCELLED, -1);
        }
        registered = true;
        log.info("registered with the controller as {} (cluster {})", nodeName, answer.getClusterName());
    }

    /**
     * Sends every waiting report, as few calls as possible: the jobs that ended while the last
     * call was under way go together (one controller sync for all of them). A controller that
     * predates the batch call gets them one at a time.
     */
    private void deliverReports() throws IOException {
        reportsAgainInMillis = 0;
        deliverPrologsDone();
        if (!outbox.hasReports()) {
            return;
        }
        long wait = reportIntervalNanos - (System.nanoTime() - lastDelivery);
        if (wait > 0) {
            // Not woken by the ends that come meanwhile: they are what it waits for.
            LockSupport.parkNanos(wait);
        }
        lastDelivery = System.nanoTime();
        List<JobCompleteRequest> reports = outbox.reports();
        if (batchReports) {
            try {
                deliverInBatches(reports);
                return;
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() != io.grpc.Status.Code.UNIMPLEMENTED) {
                    throw e;
                }
                // Only the first call can meet an older controller, so nothing of `reports`
                // was taken yet: all of it goes one at a time below.
                log.info("the controller takes job-end reports one at a time (an older version)");
                batchReports = false;
            }
        }
        for (JobCompleteRequest report : reports) {
            stub.withDeadlineAfter(10, TimeUnit.SECONDS).jobComplete(report);
            outbox.delivered(report.getJobId());
        }
    }

    /**
     * Before the ends: a job whose Prolog is done and that ended at once is told done before it
     * ends. One call each; what the controller did not get is tried again on the next round.
     */
    private void deliverPrologsDone() {
        List<PrologCompleteRequest> notices = outbox.takePrologsDone();
        for (int i = 0; i < notices.size(); i++) {
            try {
                stub.withDeadlineAfter(10, TimeUnit.SECONDS).prologComplete(notices.get(i));
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() != io.grpc.Status.Code.UNIMPLEMENTED) {
                    outbox.returnPrologsDone(notices.subList(i, notices.size()));
                    throw e;
                }
                // An older controller, which does not wait for the Prolog either.
            }
            try {
                outbox.prologDelivered(notices.get(i));
            } catch (IOException e) {
                // Told again by a restarted daemon, which the controller ignores.
                log.warn(
                        "cannot record that the Prolog of job {} was told: {}",
                        notices.get(i).getJobId(),
                        e.toString());
            }
        }
    }

    private void deliverInBatches(List<JobCompleteRequest> reports) throws IOException {
        for (int from = 0; from < reports.size(); from += REPORTS_PER_CALL) {
            List<JobCompleteRequest> chunk = reports.subList(from, Math.min(reports.size(), from + REPORTS_PER_CALL));
            JobCompleteBatchResponse answer = stub.withDeadlineAfter(60, TimeUnit.SECONDS)
                    .jobsComplete(
                            JobCompleteBatch.newBuilder().addAllReports(chunk).build());
            Set<Integer> refused = new HashSet<>();
            for (RefusedReport r : answer.getRefusedList()) {
                // Kept in the spool: delivered again on the next round, as a failed single
                // report always was.
                if (r.getRetryAfterMs() > 0) {
                    // Not yet (it waits for another node's Prolog): that is expected, and soon.
                    log.debug("the controller takes the end of job {} later: {}", r.getJobId(), r.getMessage());
                    reportsAgainInMillis = reportsAgainInMillis == 0
                            ? r.getRetryAfterMs()
                            : Math.min(reportsAgainInMillis, r.getRetryAfterMs());
                } else {
                    log.warn("controller did not take the end of job {}: {}", r.getJobId(), r.getMessage());
                }
                refused.add(r.getJobId());
            }
            for (JobCompleteRequest report : chunk) {
                if (!refused.contains(report.getJobId())) {
                    outbox.delivered(report.getJobId());
                }
            }
        }
    }

    private void pause(long millis) {
        try {
            outbox.await(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        channel.shutdownNow();
    }
}
