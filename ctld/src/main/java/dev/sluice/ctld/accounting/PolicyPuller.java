package dev.sluice.ctld.accounting;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.files.OwnerOnly;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.PolicyView;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.v1.AccountingGrpc;
import dev.sluice.protocol.v1.PolicyRequest;
import dev.sluice.protocol.v1.PolicySnapshot;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.InstantSource;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the controller's copy of the associations and QOS (AccountingStorageEnforce) in step
 * with sluice-dbd: it asks with the version it holds, and dbd answers the whole new policy, or
 * holds the ask while nothing changes (up to {@link #HOLD}) and then answers "unchanged". So a
 * sacctmgr change reaches the controller as soon as it commits, as slurmdbd's push does, and a
 * user added with sacctmgr can submit at once. Each new policy is written to
 * {@code StateSaveLocation/accounting/policy.pb} (temp file, fsync, rename) before it is used,
 * and read back at start-up, so a controller restarted while dbd is down enforces its last copy.
 *
 * <p>A held ask (a long poll) rather than a push from dbd: the controller still opens the only
 * connection, and a dbd that was down needs no catch-up protocol. After a failure, or from a dbd
 * that does not hold asks, the controller waits {@code interval} before asking again.
 */
public final class PolicyPuller implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PolicyPuller.class);
    public static final String FILE = "policy.pb";
    private static final Duration RPC_DEADLINE = Duration.ofSeconds(10);
    /** How long dbd may hold an unchanged answer. */
    static final Duration HOLD = Duration.ofSeconds(25);

    private final PolicyView view;
    private final Path file;
    private final String cluster;
    private final String target;
    private final Duration interval;
    private final ManagedChannel channel;
    private final AccountingGrpc.AccountingBlockingStub stub;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread thread;
    private final InstantSource clock;
    private boolean failing;
    /** Whether dbd has answered this controller yet: what its first answer holds counts as known from the start. */
    private boolean answered;

    /** @param clock when each association was learned ({@link AccountingPolicy#learnedAfter}) */
    public PolicyPuller(
            PolicyView view,
            Path stateSave,
            AccountingSettings settings,
            Duration interval,
            DaemonAuth auth,
            InstantSource clock) {
        this.view = requireNonNull(view, "view is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.file = stateSave.resolve(AccountingPipeline.DIRECTORY).resolve(FILE);
        this.cluster = settings.cluster();
        this.target = settings.host() + ":" + settings.grpcPort();
        this.interval = requireNonNull(interval, "interval is null");
        this.channel = NettyChannelBuilder.forAddress(settings.host(), settings.grpcPort())
                .usePlaintext()
                .build();
        this.stub = AccountingGrpc.newBlockingStub(channel).withInterceptors(auth.client(DaemonAuth.DBD));
        this.thread = Thread.ofPlatform().name("ctld-policy").daemon(true).unstarted(this::run);
    }

    /** Reads the saved copy, if any; a damaged file is logged and ignored (dbd will resend). */
    public void loadSaved() {
        if (!Files.exists(file)) {
            return;
        }
        try (InputStream in = Files.newInputStream(file)) {
            PolicySnapshot saved = PolicySnapshot.parseFrom(in);
            view.replace(PolicyMapper.fromSnapshot(saved));
            log.info("accounting: enforcing saved associations and QOS, version {}", saved.getVersion());
        } catch (IOException | IllegalArgumentException e) {
            log.warn("accounting: ignoring {}: {}", file, e.getMessage());
        }
    }

    public void start() {
        thread.start();
    }

    private void run() {
        try {
            // The first ask is answered at once (this controller holds no version dbd knows of,
            // or only a saved one). Unless it failed, the held asks follow at once: a sacctmgr
            // change committed right after a (re)start reaches this controller as it commits,
            // not an interval later (compat 196/197 submit jobs over a new limit within it).
            pullOnce(Duration.ZERO);
            boolean again = !failing;
            while (closed.getCount() > 0) {
                if (!again && closed.await(interval.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
                again = pullOnce(HOLD);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One ask, which dbd may hold for {@code hold}; true when the next may follow at once (dbd
     * answered a change, or held the ask). Failures are logged once per outage and the last copy
     * stays in force.
     */
    boolean pullOnce(Duration hold) {
        try {
            PolicySnapshot s = stub.withDeadlineAfter(RPC_DEADLINE.plus(hold).toMillis(), TimeUnit.MILLISECONDS)
                    .policy(PolicyRequest.newBuilder()
                            .setClusterName(cluster)
                            .setKnownVersion(view.policy().version())
                            .setWaitMs((int) hold.toMillis())
                            .build());
            if (failing) {
                log.info("accounting: sluice-dbd at {} answers again", target);
                failing = false;
            }
            if (s.getUnchanged()) {
                answered = true;
                return s.getHeld();
            }
            save(s);
            AccountingPolicy next = PolicyMapper.fromSnapshot(s);
            // slurmctld loads the associations before its first decay pass; later ones wait for
            // the next pass (compat 227).
            view.replace(
                    answered ? next.learnedAfter(view.policy(), clock.instant().getEpochSecond()) : next);
            answered = true;
            log.info(
                    "accounting: enforcing version {} ({} associations, {} QOS)",
                    s.getVersion(),
                    s.getAssociationsCount(),
                    s.getQosCount());
            return true;
        } catch (StatusRuntimeException e) {
            if (closed.getCount() == 0) {
                return false;
            }
            if (!failing) {
                log.warn(
                        "accounting: cannot fetch associations from sluice-dbd at {} ({}); enforcing version {}",
                        target,
                        e.getStatus().getCode(),
                        view.policy().version());
                failing = true;
            }
            return false;
        } catch (IOException | IllegalArgumentException e) {
            log.warn("accounting: cannot keep the policy from sluice-dbd: {}", e.getMessage());
            return false;
        }
    }

    private void save(PolicySnapshot s) throws IOException {
        OwnerOnly.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(FILE + ".new");
        try (FileChannel ch = FileChannel.open(
                tmp,
                java.util.Set.of(
                        StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING),
                OwnerOnly.file())) {
            ByteBuffer bytes = ByteBuffer.wrap(s.toByteArray());
            while (bytes.hasRemaining()) {
                ch.write(bytes);
            }
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public void close() {
        closed.countDown();
        channel.shutdownNow();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
