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
 * The Perl supervisor run once per daemon in its serving mode ({@code sluice-supervise.pl
 * --serve}): it forks a job's supervisor for each request, so a job costs one fork there and the
 * job's own exec, not a new interpreter (and Java's spawn helper) per job. The supervisors it
 * forks are the same program doing the same work as one started alone, and they outlive it: when
 * this daemon stops, the host reads the end of its input and exits, and the supervisors go on to
 * be re-adopted from their spool facts ({@link Supervisor#alive}).
 *
 * <p>The host is the supervisors' parent, so it says when each ends: this daemon learns of an end
 * from its line instead of polling a process that is not its child. Should the host die, the
 * supervisors it started are watched as re-adopted ones are, and the next launch starts another.
 */
final class SupervisorHost implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SupervisorHost.class);
    private static final long ANSWER_SECONDS = 30;
    // Whoever waits on a supervisor's end runs there, never on a host's reader: a launch holds
    // the launcher's monitor while it waits for its answer, which a report on that reader
    // (it takes the same monitor) would then never deliver.
    private static final java.util.concurrent.Executor ENDS = java.util.concurrent.Executors.newCachedThreadPool(
            Thread.ofPlatform().daemon(true).name("noded-supervisor-end-", 0).factory());

    /** A supervisor the host forked: its pid, and its end as the host reported it. */
    record Started(long pid, CompletableFuture<Void> ended) {}

    private final List<String> command;
    private Link link;

    SupervisorHost(List<String> command) {
        this.command = List.copyOf(command);
    }

    /**
     * Forks a supervisor with {@code arguments} (what follows the program on a lone supervisor's
     * command line).
     *
     * @throws IOException when the host cannot be started or cannot fork
     */
    synchronized Started start(List<String> arguments) throws IOException {
        byte[] request = encode(arguments);
        if (link == null || !link.host.isAlive()) {
            link = Link.open(command);
        }
        return link.start(request);
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
        // Answers come in request order; a request waits here for its "S PID" or "F".
        private final Deque<CompletableFuture<Started>> waiting = new ArrayDeque<>();
        private final Map<Long, CompletableFuture<Void>> ends = new ConcurrentHashMap<>();

        private Link(Process host) {
            this.host = host;
            this.requests = host.getOutputStream();
        }

        static Link open(List<String> command) throws IOException {
            ProcessBuilder pb = new ProcessBuilder(command).directory(new File("/"));
            pb.environment().clear();
            pb.environment().putAll(UserEnvironment.ROOT);
            pb.redirectError(ProcessBuilder.Redirect.DISCARD);
            Link link = new Link(ForkLock.start(pb));
            Thread.ofPlatform().daemon(true).name("noded-supervisor-host").start(link::read);
            log.info("supervisor host started: pid {}", link.host.pid());
            return link;
        }

        Started start(byte[] request) throws IOException {
            CompletableFuture<Started> answer = new CompletableFuture<>();
            synchronized (waiting) {
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
                throw new IOException("the supervisor host could not start the supervisor", e.getCause());
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
                    long pid = Long.parseLong(f[1]);
                    // Registered before the next line is read: its end cannot come first.
                    CompletableFuture<Void> ended = new CompletableFuture<>();
                    ends.put(pid, ended);
                    next().ifPresent(a -> a.complete(new Started(pid, ended)));
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

        /** The host is gone: its supervisors are watched from outside, as re-adopted ones are. */
        private void gone() {
            List<CompletableFuture<Started>> unanswered;
            synchronized (waiting) {
                unanswered = new ArrayList<>(waiting);
                waiting.clear();
            }
            unanswered.forEach(a -> a.completeExceptionally(new IOException("the supervisor host ended")));
            for (var e : new ArrayList<>(ends.entrySet())) {
                ends.remove(e.getKey());
                ProcessHandle.of(e.getKey())
                        .ifPresentOrElse(
                                h -> h.onExit().thenRun(() -> e.getValue().complete(null)),
                                () -> ENDS.execute(() -> e.getValue().complete(null)));
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

    /** Ends the host (its input closes); the supervisors it started go on. */
    @Override
    public synchronized void close() {
        if (link != null) {
            link.close();
        }
    }
}
