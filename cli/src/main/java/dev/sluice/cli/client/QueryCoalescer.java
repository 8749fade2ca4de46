package dev.sluice.cli.client;

import com.google.protobuf.ByteString;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Lets the callers of one login node that ask the controller the same listing at the same time
 * (a hundred users' {@code watch squeue}) share one request: sluice-agent's callers then cost the
 * controller one answer per round, not one each.
 *
 * <p>Never an old answer: a caller waits for a request sent after it arrived. While one request
 * for a question is in the air, every caller asking it gathers behind the next one, which is sent
 * when the first lands and answers them all — a job acknowledged before a caller asked is in its
 * answer. Only listings are shared (squeue's, sinfo's), and only between callers asking with the
 * same identity and options: the question's bytes, its request id aside, are the key, so what the
 * controller shows one user (PrivateData) is never shown another. Thread-safe.
 */
public final class QueryCoalescer {
    /** Sends the request and returns the answer. */
    @FunctionalInterface
    public interface Call {
        ClientResponse run() throws ControllerException;
    }

    /** Every call goes out on its own (a command run in its own JVM has no one to share with). */
    public static final QueryCoalescer NONE = new QueryCoalescer(false);

    private final boolean sharing;
    // Guarded by this: per question, the request in the air and the one gathering callers.
    private final Map<ByteString, Flight> inAir = new HashMap<>();
    private final Map<ByteString, Flight> gathering = new HashMap<>();

    private QueryCoalescer(boolean sharing) {
        this.sharing = sharing;
    }

    public static QueryCoalescer sharing() {
        return new QueryCoalescer(true);
    }

    private static final class Flight {
        final CompletableFuture<ClientResponse> answer = new CompletableFuture<>();
        int riders = 1;
    }

    /** {@code call}'s answer, or that of a request for the same question sent after this call began. */
    public ClientResponse ask(ClientRequest request, Call call) throws ControllerException {
        if (!sharing || !isListing(request)) {
            return call.run();
        }
        ByteString key = key(request);
        Flight mine;
        Flight ahead = null;
        boolean lead;
        synchronized (this) {
            mine = gathering.get(key);
            lead = mine == null;
            if (lead) {
                mine = new Flight();
                gathering.put(key, mine);
                ahead = inAir.get(key);
            } else {
                mine.riders++;
            }
        }
        if (!lead) {
            return await(mine);
        }
        if (ahead != null) {
            // Sent before those gathering behind this one arrived: theirs must be a later request.
            ahead.answer.handle((r, e) -> null).join();
        }
        synchronized (this) {
            gathering.remove(key, mine);
            inAir.put(key, mine);
        }
        try {
            ClientResponse answer = call.run();
            mine.answer.complete(answer);
            return answer;
        } catch (ControllerException | RuntimeException e) {
            mine.answer.completeExceptionally(e);
            throw e;
        } finally {
            synchronized (this) {
                inAir.remove(key, mine);
            }
        }
    }

    private static ByteString key(ClientRequest request) {
        return request.toBuilder().clearRequestId().build().toByteString();
    }

    /** Callers gathered behind the next request for this question (for tests). */
    synchronized int gathered(ClientRequest request) {
        Flight f = gathering.get(key(request));
        return f == null ? 0 : f.riders;
    }

    private static boolean isListing(ClientRequest request) {
        return switch (request.getBodyCase()) {
            case GET_JOBS, GET_NODES, GET_PARTITIONS -> true;
            default -> false;
        };
    }

    private static ClientResponse await(Flight flight) throws ControllerException {
        try {
            return flight.answer.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ControllerException(dev.sluice.common.error.ErrorCode.COMMUNICATIONS_CONNECTION_ERROR);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ControllerException c) {
                throw c;
            }
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
