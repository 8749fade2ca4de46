package dev.sluice.noded.launch;

import static java.util.Objects.requireNonNull;

import dev.sluice.noded.spool.ForkLock;
import dev.sluice.noded.spool.Outbox;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.PrologCompleteRequest;
import java.io.File;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
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
 * from, one of which may have finished meanwhile with its notice still in the outbox. What runs
 * here is not kept across a restart of this daemon (its notices are not either).
 */
public final class AllocationPrologs {
    private static final Logger log = LoggerFactory.getLogger(AllocationPrologs.class);

    private final String nodeName;
    private final Supplier<LaunchPolicy> policy;
    private final Outbox outbox;
    /** How many runs {@link #started} remembers: far more than a node runs at once. */
    static final int REMEMBERED_RUNS = 4096;

    /**
     * Job id and run of each Prolog started here, running or done, so a repeated request does not
     * start it twice; the oldest are forgotten past {@link #REMEMBERED_RUNS}.
     */
    private final Set<String> started = Collections.synchronizedSet(Collections.newSetFromMap(new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > REMEMBERED_RUNS;
        }
    }));

    public AllocationPrologs(String nodeName, Supplier<LaunchPolicy> policy, Outbox outbox) {
        this.nodeName = requireNonNull(nodeName, "nodeName is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.outbox = requireNonNull(outbox, "outbox is null");
    }

    /** Starts the allocation's Prolog; the controller hears when it is done. */
    public void run(LaunchBatchJobRequest request) throws IOException {
        if (!started.add(request.getJobId() + "." + request.getRestartCount())) {
            return;
        }
        Optional<String> wrapper = PrologEpilog.wrapper(
                policy.get().prolog(),
                PrologEpilog.environment(request, nodeName, PrologEpilog.PROLOG_CONTEXT, gresEnvironment(request)));
        if (wrapper.isEmpty()) {
            done(request, 0);
            return;
        }
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", wrapper.get()).directory(new File("/"));
        pb.environment().clear();
        pb.environment().putAll(UserEnvironment.ROOT);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = ForkLock.start(pb);
        p.onExit().thenAccept(ended -> done(request, ended.exitValue()));
    }

    private void done(LaunchBatchJobRequest request, int status) {
        if (status != 0) {
            // The controller drains this node and gives the job back to the queue, as Slurm's.
            log.error(
                    "job {}: the allocation's Prolog exited with status {}; the node will be drained",
                    request.getJobId(),
                    status);
        }
        outbox.postPrologDone(PrologCompleteRequest.newBuilder()
                .setNodeName(nodeName)
                .setJobId(request.getJobId())
                .setRestartCount(request.getRestartCount())
                .setStatus(status)
                .build());
    }

    /** The job's physical GPUs, which the Prolog sees as a batch job's does. */
    private static Map<String, String> gresEnvironment(LaunchBatchJobRequest request) {
        return GresEnvironment.build(
                request.getGresList(),
                request.getMpsPerGpuMap().entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    }
}
