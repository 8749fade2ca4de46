package dev.sluice.restd.slurm;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.restd.controller.ControllerSession;
import dev.sluice.restd.http.CoalescedCalls;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * {@code GET jobs} for many pollers. Requests presenting the same token share one controller ask
 * at a time (CoalescedCalls); the queue as everyone may see it is turned into JSON once per
 * controller version and the text reused until the controller says it changed, so a poll of an
 * unchanged queue costs the controller a version check and this daemon a copy of the text.
 * Under PrivateData=jobs no view has a version (an operator's neither: a version means "what any
 * caller sees") and each is rendered for each ask. The JSON is the same for every data parser version (ApiVersion).
 *
 * <p>A thousand dashboards each with its own token would still cost the controller a thousand
 * asks, each sending the whole queue while jobs come and go (scripts/bench-rest). So a token
 * whose own ask got the shared view (a version) is <em>proven</em> for {@link #PROVEN}: its
 * requests then share one ask at a time with every other proven token's, made with the token of
 * whichever request started it (which renews that token's proof: the controller has just
 * checked it). The controller checks each token's first listing, every shared ask's token, and
 * a token again once its proof runs out; a shared ask that comes back private (PrivateData=jobs
 * set since: the controller then versions nobody's view, an operator's neither) is thrown away, every proof with it, and each request
 * asks for itself.
 */
final class JobListings {
    /**
     * The jobs array as text, for the controller answer named {@code version} (0: unshared);
     * {@code sent}: the controller sent the whole queue for it (not "unchanged").
     */
    record Listing(long version, RawValue jobs, long updateTime, boolean sent) {}

    /**
     * After an ask that brought the whole queue, the next ask for the same key waits this long
     * from its start: while jobs come and go every answer changes, and back-to-back asks had the
     * controller convert and send the whole queue over and over (scripts/bench-rest). Requests
     * arriving meanwhile wait for that next ask, so none is answered older than it arrived.
     */
    static final Duration SPACING = Duration.ofSeconds(1);

    private static final ObjectMapper JSON = new ObjectMapper();

    /** How long a token's own ask that got the shared view lets it share the others' asks. */
    static final Duration PROVEN = Duration.ofMinutes(10);

    /** The key proven tokens' requests share; no credential is empty. */
    private static final String EVERYONE = "";

    /** Proofs kept before the expired ones are swept out. */
    private static final int SWEEP_AT = 10_000;

    private final CoalescedCalls<String, Listing> calls;
    private final Clock clock;
    /** Proven tokens, and until when (epoch milliseconds). */
    private final Map<String, Long> proven = new ConcurrentHashMap<>();

    private volatile Listing shared = new Listing(0, new RawValue(new SerializedString("[]")), 0, false);

    JobListings(Executor executor, Clock clock) {
        this.calls = new CoalescedCalls<>(
                requireNonNull(executor, "executor is null"), l -> l.sent() ? SPACING : Duration.ZERO);
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** The whole queue as the holder of {@code credential} may see it, asked after this call began. */
    Listing all(String credential, ControllerSession controller) throws ControllerException {
        long now = clock.millis();
        Long until = proven.get(credential);
        if (until != null && until > now) {
            Listing listing = get(EVERYONE, () -> {
                Listing l = ask(controller);
                if (l.version() != 0) {
                    proven.put(credential, clock.millis() + PROVEN.toMillis());
                }
                return l;
            });
            if (listing.version() != 0) {
                return listing;
            }
            // Someone's private view: not this request's to see. Every token proves itself again.
            proven.clear();
        }
        Listing listing = get(credential, () -> ask(controller));
        if (listing.version() != 0) {
            if (proven.size() >= SWEEP_AT) {
                proven.values().removeIf(t -> t <= now);
            }
            proven.put(credential, now + PROVEN.toMillis());
        }
        return listing;
    }

    /** Whether {@code credential}'s requests share the proven tokens' asks now (tests). */
    boolean shares(String credential) {
        Long until = proven.get(credential);
        return until != null && until > clock.millis();
    }

    private Listing get(String key, CoalescedCalls.Call<Listing> call) throws ControllerException {
        try {
            return calls.get(key, call);
        } catch (ControllerException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private Listing ask(ControllerSession controller) throws ControllerException {
        Listing held = shared;
        GetJobsResponse answer = controller
                .call(ClientRequest.newBuilder()
                        .setGetJobs(GetJobsRequest.newBuilder().setKnownVersion(held.version())))
                .getGetJobs();
        if (answer.getUnchanged()) {
            // The controller's version is still the one sent: held's.
            return new Listing(held.version(), held.jobs(), held.updateTime(), false);
        }
        Listing fresh = new Listing(answer.getVersion(), render(answer), answer.getUpdateTime(), true);
        if (fresh.version() != 0) {
            shared = fresh;
        }
        return fresh;
    }

    private static RawValue render(GetJobsResponse answer) {
        ArrayNode jobs = JsonNodeFactory.instance.arrayNode();
        answer.getJobsList().forEach(j -> jobs.add(JobJson.of(j)));
        try {
            // SerializedString keeps the UTF-8 bytes: each reply copies them, none encodes again.
            return new RawValue(new SerializedString(JSON.writeValueAsString(jobs)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a job did not turn into JSON", e);
        }
    }
}
