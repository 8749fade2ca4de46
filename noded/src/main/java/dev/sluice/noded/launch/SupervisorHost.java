package dev.sluice.noded.launch;

import dev.sluice.common.text.RawText;
import dev.sluice.noded.spool.ForkLock;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervisor run once per daemon in its serving mode ({@code sluice-supervise-host --serve
 * SETSID:EXIT_GROUP TOKEN}, or {@code sluice-supervise.pl --serve ...}): the parent of every job this daemon starts, which carries out each
 * job's life (Prolog, the job, its exact wait status, Epilog) as a lone supervisor would, so a job
 * costs one fork there and the job's own exec, with no process of its own beside the job. The
 * host leads a session of its own and outlives this daemon: when the daemon stops, the host reads
 * the end of its input, takes no more jobs, and exits once its last job's life is over; a
 * restarted daemon knows it again by the token its command line ends in ({@link KnownSupervisor}).
 *
 * <p>The host says when each job's life is over ({@code X KEY}, after its facts are written), so
 * this daemon learns of an end from a line instead of polling. Should the host die, nothing will
 * record its jobs' ends: each is reported at once as one without a status (the report kills what
 * is left of the job), and the next launch starts another host.
 */
final class SupervisorHost implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SupervisorHost.class);
    private static final long ANSWER_SECONDS = 30;
    // Whoever waits on a supervisor's end runs there, never on a host's reader: a launch holds
    // the launcher's monitor while it waits for its answer, which a report on that reader
    // (it takes the same monitor) would then never deliver.
    // Bounded: ends queue when many come at once, and none is refused.
    private static final java.util.concurrent.ThreadPoolExecutor ENDS = ends();

    /** A job the host took: the host's pid (the job's supervisor), and the end of the job's life. */
    record Started(long pid, CompletableFuture<Void> ended) {}

    private static java.util.concurrent.ThreadPoolExecutor ends() {
        var pool = new java.util.concurrent.ThreadPoolExecutor(
                4,
                4,
                30,
                TimeUnit.SECONDS,
                new java.util.concurrent.LinkedBlockingQueue<>(),
                Thread.ofPlatform()
                        .daemon(true)
                        .name("noded-supervisor-end-", 0)
                        .factory());
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    private final List<String> command;
    private Link link;

    SupervisorHost(List<String> command) {
        this.command = List.copyOf(command);
    }

    /**
     * Starts a job's life with {@code arguments} (what follows the program on a lone supervisor's
     * command line).
     *
     * @throws IOException when the host cannot be started or cannot start the job
     */
    synchronized Started start(List<String> arguments) throws IOException {
        byte[] request = encode(arguments);
        // A host whose end its reader has seen may still look alive to Process.isAlive (the JVM
        // reaps it later): a request sent there would wait for an answer nobody gives.
        if (link == null || link.ended() || !link.host.isAlive()) {
            link = Link.open(command);
        }
        try {
            return link.start(request);
        } catch (Gone e) {
            // It ended before this request was sent: the job is started by the next host.
            link = Link.open(command);
            return link.start(request);
        }
    }

    /** The host had ended before the request was sent: nothing of it was started. */
    private static final class Gone extends IOException {
        Gone() {
            super("the supervisor host ended");
        }
    }

    /** Length, newline, then each argument ended by a NUL: what the host reads. */
    static byte[] encode(List<String> arguments) throws IOException {
        var body = new java.io.ByteArrayOutputStream();
        for (String argument : arguments) {
            byte[] bytes = RawText.encode(argument);
            for (byte b : bytes) {
                if (b == 0) {
                    throw new IOException("an argument holds a NUL byte and cannot reach a program");
                }
            }
            body.writeBytes(bytes);
            body.write(0);
        }
        var out = new java.io.ByteArrayOutputStream();
        out.writeBytes((body.size() + "\n").getBytes(StandardCharsets.US_ASCII));
        body.writeTo(out);
        return out.toByteArray();
    }

    /** One host process and what is waiting on it. */
    private static final class Link {
        private final Process host;
        private final OutputStream requests;
        // Answers come in request order; a request waits here for its "S KEY" or "F".
        private final Deque<CompletableFuture<Started>> waiting = new ArrayDeque<>();
        private final Map<Long, CompletableFuture<Void>> ends = new ConcurrentHashMap<>();
        // Set, under waiting's lock, once the reader has seen the host's end.
        private boolean gone;

        private Link(Process host) {
            this.host = host;
            this.requests = host.getOutputStream();
        }

        static Link open(List<String> command) throws IOException {
            List<String> tokened = new ArrayList<>(command);
            tokened.add(java.util.UUID.randomUUID().toString());
            ProcessBuilder pb = new ProcessBuilder(tokened).directory(new File("/"));
            pb.environment().clear();
            pb.environment().putAll(UserEnvironment.ROOT);
            pb.redirectError(ProcessBuilder.Redirect.DISCARD);
            Link link = new Link(ForkLock.start(pb));
            Thread.ofPlatform().daemon(true).name("noded-supervisor-host").start(link::read);
            log.info("supervisor host started: pid {}, {}", link.host.pid(), command.getFirst());
            return link;
        }

        Started start(byte[] request) throws IOException {
            CompletableFuture<Started> answer = new CompletableFuture<>();
            synchronized (waiting) {
                if (gone) {
                    throw new Gone();
                }
                waiting.add(answer);
            }
            try {
                requests.write(request);
                requests.flush();
                return answer.get(ANSWER_SECONDS, TimeUnit.SECONDS);
            } catch (IOException e) {
                host.destroy();
                throw new IOException("the supervisor host did not take the request: " + e.getMessage(), e);
            } catch (ExecutionException e) {
                throw new IOException("the supervisor host could not start the job", e.getCause());
            } catch (TimeoutException e) {
                host.destroy();
                throw new IOException("the supervisor host did not answer in " + ANSWER_SECONDS + " s");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting the supervisor");
            }
        }

        private void read() {
            try (var lines =
                    new BufferedReader(new InputStreamReader(host.getInputStream(), StandardCharsets.US_ASCII))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    answer(line);
                }
            } catch (IOException e) {
                log.warn("supervisor host: {}", e.getMessage());
            }
            gone();
        }

        private void answer(String line) {
            String[] f = line.split(" ");
            switch (f[0]) {
                case "S" -> {
                    long key = Long.parseLong(f[1]);
                    // Registered before the next line is read: its end cannot come first.
                    CompletableFuture<Void> ended = new CompletableFuture<>();
                    ends.put(key, ended);
                    next().ifPresent(a -> a.complete(new Started(host.pid(), ended)));
                }
                case "F" -> next().ifPresent(a -> a.completeExceptionally(new IOException("fork failed")));
                case "X" -> {
                    CompletableFuture<Void> ended = ends.remove(Long.parseLong(f[1]));
                    if (ended != null) {
                        ENDS.execute(() -> ended.complete(null));
                    }
                }
                default -> log.warn("supervisor host said what it does not say: {}", line);
            }
        }

        private java.util.Optional<CompletableFuture<Started>> next() {
            synchronized (waiting) {
                return java.util.Optional.ofNullable(waiting.poll());
            }
        }

        /**
         * The host is gone (it died: one that was let go ends only after its last job): nothing
         * will record its jobs' ends, so each ends here, without a status.
         */
        private void gone() {
            List<CompletableFuture<Started>> unanswered;
            synchronized (waiting) {
                gone = true;
                unanswered = new ArrayList<>(waiting);
                waiting.clear();
            }
            unanswered.forEach(a -> a.completeExceptionally(new IOException("the supervisor host ended")));
            if (!ends.isEmpty()) {
                log.warn("supervisor host {} ended with {} jobs under way: they are ended", host.pid(), ends.size());
            }
            for (var e : new ArrayList<>(ends.entrySet())) {
                ends.remove(e.getKey());
                ENDS.execute(() -> e.getValue().complete(null));
            }
        }

        boolean ended() {
            synchronized (waiting) {
                return gone;
            }
        }

        void close() {
            try {
                requests.close();
            } catch (IOException e) {
                host.destroy();
            }
        }
    }

    /** Lets the host go (its input closes): it takes no more jobs and exits after its last. */
    @Override
    public synchronized void close() {
        if (link != null) {
            link.close();
        }
    }
}
