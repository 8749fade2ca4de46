package dev.sluice.packaging.load;

import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Submits batch jobs through the controller's command socket with many requests in flight (one
 * kept connection per in-flight request, each on its own virtual thread), optionally waits until
 * every job it submitted has ended, and prints one line of {@code key=value} figures for
 * {@code scripts/bench-e2e}:
 *
 * <pre>
 * ApiLoad --socket PATH [--name NAME] [--jobs N] [--in-flight K] [--hold] [--wrap CMD] [--array SPEC]
 *         [--wait] [--pollers P] [--timeout SECONDS]
 * </pre>
 *
 * {@code --pollers} keeps P more connections asking for the whole job list in a loop while the
 * jobs run (what a dashboard or many {@code squeue} users do to the controller).
 */
public final class ApiLoad {
    /** How often the waiting side asks whether the jobs have ended. */
    private static final long POLL_MILLIS = 200;

    record Options(
            Path socket,
            String name,
            int jobs,
            int inFlight,
            boolean hold,
            String wrap,
            String array,
            boolean await,
            int pollers,
            long timeoutSeconds) {}

    private ApiLoad() {}

    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("ApiLoad: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(o));
    }

    static Options parse(String[] args) {
        Path socket = null;
        String name = "wrap";
        int jobs = 1000;
        int inFlight = 256;
        boolean hold = false;
        String wrap = "/bin/true";
        String array = "";
        boolean await = false;
        int pollers = 0;
        long timeout = 3600;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--hold" -> hold = true;
                case "--wait" -> await = true;
                case "--socket", "--name", "--jobs", "--in-flight", "--wrap", "--array", "--pollers", "--timeout" -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(a + " needs a value");
                    }
                    String v = args[++i];
                    switch (a) {
                        case "--socket" -> socket = Path.of(v);
                        case "--name" -> name = v;
                        case "--jobs" -> jobs = positive(a, v);
                        case "--in-flight" -> inFlight = positive(a, v);
                        case "--wrap" -> wrap = v;
                        case "--array" -> array = v;
                        case "--pollers" -> pollers = Integer.parseInt(v);
                        default -> timeout = positive(a, v);
                    }
                }
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (socket == null) {
            throw new IllegalArgumentException("--socket is required");
        }
        return new Options(socket, name, jobs, Math.min(inFlight, jobs), hold, wrap, array, await, pollers, timeout);
    }

    private static int positive(String option, String value) {
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " wants a number, not " + value);
        }
        if (n < 1) {
            throw new IllegalArgumentException(option + " must be positive");
        }
        return n;
    }

    /** The request sbatch sends for {@code sbatch -J NAME [-H] [--array=SPEC] --wrap=CMD}. */
    static JobSpec spec(Options o, Identity owner, String cwd) {
        JobSpec.Builder spec = JobSpec.newBuilder()
                .setName(o.name())
                .setScript(com.google.protobuf.ByteString.copyFromUtf8(
                        "#!/bin/sh\n# This script was created by sbatch --wrap.\n\n" + o.wrap() + "\n"))
                .setWrapped(true)
                .setWorkDir(cwd)
                .putEnvironment("PATH", com.google.protobuf.ByteString.copyFromUtf8("/usr/bin:/bin"))
                .setMinNodes(1)
                .setNumTasks(1)
                .setTimeLimitMinutes(SlurmLimits.NO_VAL32)
                .setRequeue(true)
                .setOwner(owner)
                .setSubmitHost(owner.getHost())
                .setHold(o.hold());
        if (!o.array().isEmpty()) {
            spec.setArray(o.array());
        }
        return spec.build();
    }

    static int run(Options o) throws Exception {
        com.sun.security.auth.module.UnixSystem me = new com.sun.security.auth.module.UnixSystem();
        Identity owner = Identity.newBuilder()
                .setUid((int) me.getUid())
                .setGid((int) me.getGid())
                .setUserName(me.getUsername())
                .setHost("localhost")
                .build();
        JobSpec spec = spec(o, owner, Path.of("").toAbsolutePath().toString());
        List<LocalConnection> connections = new ArrayList<>();
        for (int i = 0; i < o.inFlight() + o.pollers(); i++) {
            connections.add(new LocalConnection(o.socket(), owner));
        }
        AtomicBoolean polling = new AtomicBoolean(true);
        AtomicLong polls = new AtomicLong();
        List<Thread> pollers = new ArrayList<>();
        for (int p = 0; p < o.pollers(); p++) {
            LocalConnection c = connections.get(o.inFlight() + p);
            pollers.add(Thread.ofVirtual().start(() -> poll(c, polling, polls)));
        }
        AtomicInteger next = new AtomicInteger();
        AtomicInteger firstId = new AtomicInteger(Integer.MAX_VALUE);
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        List<Thread> submitters = new ArrayList<>();
        for (int k = 0; k < o.inFlight(); k++) {
            LocalConnection c = connections.get(k);
            submitters.add(Thread.ofVirtual().start(() -> {
                try {
                    while (next.getAndIncrement() < o.jobs()) {
                        int id = c.call(ClientRequest.newBuilder()
                                        .setSubmitBatchJob(SubmitBatchJobRequest.newBuilder()
                                                .setSpec(spec)))
                                .getSubmitBatchJob()
                                .getJobId();
                        firstId.accumulateAndGet(id, Math::min);
                    }
                } catch (IOException | RuntimeException e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : submitters) {
            t.join();
        }
        long submitted = System.nanoTime();
        if (!failures.isEmpty()) {
            System.err.println("ApiLoad: " + failures.size() + " submitters failed: "
                    + failures.get(0).getMessage());
            return 1;
        }
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "submitted=%d submit_s=%.3f submit_rate=%.0f",
                o.jobs(),
                seconds(submitted - start),
                o.jobs() / seconds(submitted - start)));
        int code = 0;
        if (o.await()) {
            Outcome outcome = awaitEnd(connections.get(0), firstId.get(), start, o.timeoutSeconds());
            long ended = System.nanoTime();
            line.append(String.format(
                    Locale.ROOT,
                    " done_s=%.3f failed=%d timed_out=%b",
                    seconds(ended - start),
                    outcome.failed,
                    outcome.timedOut));
            code = outcome.timedOut ? 1 : 0;
        }
        polling.set(false);
        for (Thread t : pollers) {
            t.join();
        }
        if (o.pollers() > 0) {
            line.append(" polls=").append(polls.get());
        }
        for (LocalConnection c : connections) {
            c.close();
        }
        System.out.println(line);
        return code;
    }

    private record Outcome(int failed, boolean timedOut) {}

    /**
     * Waits until no job numbered from {@code firstId} up is pending, running or suspended
     * (array tasks split off later get higher ids). Jobs that ended other than COMPLETED are
     * counted: a launch that fails fast would otherwise pass for throughput.
     */
    private static Outcome awaitEnd(LocalConnection c, int firstId, long start, long timeoutSeconds)
            throws IOException, InterruptedException {
        java.util.Map<Integer, String> failed = new java.util.TreeMap<>();
        while (true) {
            boolean active = false;
            for (JobInfo job : c.call(ClientRequest.newBuilder().setGetJobs(GetJobsRequest.getDefaultInstance()))
                    .getGetJobs()
                    .getJobsList()) {
                if (job.getJobId() < firstId) {
                    continue;
                }
                JobState s = job.getState();
                if (s == JobState.PENDING || s == JobState.RUNNING || s == JobState.SUSPENDED) {
                    active = true;
                } else if (s != JobState.COMPLETED) {
                    failed.put(job.getJobId(), s + " " + job.getReason() + " exit " + job.getExitStatus());
                }
            }
            boolean late = System.nanoTime() - start > timeoutSeconds * 1_000_000_000L;
            if (!active || late) {
                failed.entrySet().stream()
                        .limit(5)
                        .forEach(f -> System.err.println("ApiLoad: job " + f.getKey() + " ended " + f.getValue()));
                return new Outcome(failed.size(), late);
            }
            // A poll, not synchronisation: the controller has no "tell me when these end" call.
            Thread.sleep(POLL_MILLIS);
        }
    }

    private static void poll(LocalConnection c, AtomicBoolean polling, AtomicLong polls) {
        try {
            while (polling.get()) {
                c.call(ClientRequest.newBuilder().setGetJobs(GetJobsRequest.getDefaultInstance()));
                polls.incrementAndGet();
            }
        } catch (IOException e) {
            System.err.println("ApiLoad: a poller stopped: " + e.getMessage());
        }
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
