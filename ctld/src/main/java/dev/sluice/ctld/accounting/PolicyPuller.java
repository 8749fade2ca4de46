package dev.sluice.ctld.accounting;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.files.OwnerOnly;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the controller's copy of the associations and QOS (AccountingStorageEnforce) in step
 * with sluice-dbd: it asks every {@code interval} with the version it holds, and dbd answers
 * "unchanged" or the whole new policy. Each new policy is written to
 * {@code StateSaveLocation/accounting/policy.pb} (temp file, fsync, rename) before it is used,
 * and read back at start-up, so a controller restarted while dbd is down enforces its last copy.
 *
 * <p>Polling rather than a push from dbd: one small request per interval, no connection for dbd
 * to keep per controller, and a dbd that was down needs no catch-up protocol.
 */
public final class PolicyPuller implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(PolicyPuller.class);
    public static final String FILE = "policy.pb";
    private static final Duration RPC_DEADLINE = Duration.ofSeconds(10);

    private final PolicyView view;
    private final Path file;
    private final String cluster;
    private final String target;
    private final Duration interval;
    private final ManagedChannel channel;
    private final AccountingGrpc.AccountingBlockingStub stub;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread thread;
    private boolean failing;

    public PolicyPuller(
            PolicyView view, Path stateSave, AccountingSettings settings, Duration interval, DaemonAuth auth) {
        this.view = requireNonNull(view, "view is null");
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
            do {
                pullOnce();
            } while (!closed.await(interval.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One poll; failures are logged once per outage and the last copy stays in force. */
    void pullOnce() {
        try {
            PolicySnapshot s = stub.withDeadlineAfter(RPC_DEADLINE.toMillis(), TimeUnit.MILLISECONDS)
                    .policy(PolicyRequest.newBuilder()
                            .setClusterName(cluster)
                            .setKnownVersion(view.policy().version())
                            .build());
            if (failing) {
                log.info("accounting: sluice-dbd at {} answers again", target);
                failing = false;
            }
            if (s.getUnchanged()) {
                return;
            }
            save(s);
            view.replace(PolicyMapper.fromSnapshot(s));
            log.info(
                    "accounting: enforcing version {} ({} associations, {} QOS)",
                    s.getVersion(),
                    s.getAssociationsCount(),
                    s.getQosCount());
        } catch (StatusRuntimeException e) {
            if (!failing) {
                log.warn(
                        "accounting: cannot fetch associations from sluice-dbd at {} ({}); enforcing version {}",
                        target,
                        e.getStatus().getCode(),
                        view.policy().version());
                failing = true;
            }
        } catch (IOException | IllegalArgumentException e) {
            log.warn("accounting: cannot keep the policy from sluice-dbd: {}", e.getMessage());
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
