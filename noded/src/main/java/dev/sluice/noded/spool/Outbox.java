package dev.sluice.noded.spool;

import static java.util.Objects.requireNonNull;

import dev.sluice.noded.job.JobEnd;
import dev.sluice.noded.job.PrologDone;
import dev.sluice.noded.wire.JobEndMapper;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.PrologCompleteRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * What this node has yet to tell the controller: job-end reports, kept in the spool until the
 * controller acknowledges them, that a job's allocation Prolog is done (its status kept in
 * the spool until delivered, {@link PrologRuns}), and that the registration changed. The launcher and reconfigure
 * post here; the Registrar alone drains it. Being the one channel between them, it lets the
 * launcher be built with no registrar to call back, and the registrar after the launcher it
 * asks about running jobs: the two never refer to each other in a cycle.
 */
public final class Outbox {
    private final JobSpool spool;
    private final Object bell = new Object();
    // Set under `bell` by every post and read and cleared by await: a bare notify is lost when
    // the reader is busy (delivering or heartbeating) rather than waiting, and a job that ended
    // then would wait for the next heartbeat, seconds later.
    private boolean posted;
    private final ConcurrentLinkedDeque<PrologCompleteRequest> prologsDone = new ConcurrentLinkedDeque<>();
    /**
     * The reports in the spool not yet acknowledged, by job, in the order they were posted: the
     * spool is read once, here, rather than listed at each delivery (a listing and a stat per
     * running job, for every job that ends).
     */
    private final Map<Integer, JobCompleteRequest> pending = new LinkedHashMap<>();

    /** Over {@code spool}, with the reports a daemon before this one saved and did not deliver. */
    public Outbox(JobSpool spool) throws IOException {
        this.spool = requireNonNull(spool, "spool is null");
        for (JobCompleteRequest r : spool.pendingReports()) {
            pending.put(r.getJobId(), r);
        }
    }

    /**
     * Durably records a job's end (it survives this daemon) and has it sent now rather than at
     * the next heartbeat.
     */
    public void post(JobEnd end) throws IOException {
        JobCompleteRequest report = JobEndMapper.toWire(end);
        spool.saveReport(report);
        synchronized (pending) {
            pending.put(report.getJobId(), report);
        }
        ring();
    }

    /** A job's Prolog is done ({@code PrologFlags=Alloc}): told now. */
    public void postPrologDone(PrologDone notice) {
        prologsDone.add(JobEndMapper.toWire(notice));
        ring();
    }

    /** The Prolog notices posted since the last call, oldest first; they leave the outbox. */
    public List<PrologCompleteRequest> takePrologsDone() {
        List<PrologCompleteRequest> out = new ArrayList<>();
        for (PrologCompleteRequest n = prologsDone.poll(); n != null; n = prologsDone.poll()) {
            out.add(n);
        }
        return out;
    }

    /** The controller was told {@code notice}: a restarted daemon does not tell it again. */
    public void prologDelivered(PrologCompleteRequest notice) throws IOException {
        spool.prologRuns().told(new PrologRuns.Run(notice.getJobId(), notice.getRestartCount()));
    }

    /** Notices the controller could not be told (unreachable): first in line again, in order. */
    public void returnPrologsDone(List<PrologCompleteRequest> notices) {
        for (int i = notices.size() - 1; i >= 0; i--) {
            prologsDone.addFirst(notices.get(i));
        }
    }

    /** The registration changed (reconfigure): the reader registers again now. */
    public void registrationChanged() {
        ring();
    }

    /** Whether any report is posted and not yet acknowledged. */
    public boolean hasReports() {
        synchronized (pending) {
            return !pending.isEmpty();
        }
    }

    /** Reports posted but not yet acknowledged, first posted first. */
    public List<JobCompleteRequest> reports() {
        synchronized (pending) {
            return List.copyOf(pending.values());
        }
    }

    /**
     * The controller acknowledged the job's report: the job leaves this node. Should its
     * directory not go, the report stays and is sent again (the controller ignores a repeat).
     */
    public void delivered(int jobId) throws IOException {
        spool.forget(jobId);
        synchronized (pending) {
            pending.remove(jobId);
        }
    }

    /**
     * Waits until something is posted or {@code millis} pass (clearing the post), whichever
     * comes first. Posts made while nobody waited end the next wait at once.
     */
    public void await(long millis) throws InterruptedException {
        synchronized (bell) {
            // A monotonic deadline: how long to wait, not what time it is.
            long until = System.nanoTime() + millis * 1_000_000L;
            long left = millis;
            while (!posted && left > 0) {
                bell.wait(left);
                left = (until - System.nanoTime()) / 1_000_000L;
            }
            posted = false;
        }
    }

    private void ring() {
        synchronized (bell) {
            posted = true;
            bell.notifyAll();
        }
    }
}
