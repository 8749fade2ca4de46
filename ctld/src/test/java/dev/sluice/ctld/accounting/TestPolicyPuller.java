package dev.sluice.ctld.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.Enforcement;
import dev.sluice.ctld.limits.PolicyView;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.v1.AccountingGrpc;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.PolicyRequest;
import dev.sluice.protocol.v1.PolicySnapshot;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the controller follows sluice-dbd's associations and QOS (the held ask, a long poll). */
class TestPolicyPuller {
    private static final long LEARNED = 1_700_000_000L;

    @TempDir
    Path dir;

    private Server server;
    private PolicyPuller puller;

    /** A dbd whose version moves when the test says so, holding asks as sluice-dbd does. */
    private static final class FakeDbd extends AccountingGrpc.AccountingImplBase {
        final List<PolicyRequest> asks = new CopyOnWriteArrayList<>();
        private long version = 1;

        synchronized void commit() {
            version++;
            notifyAll();
        }

        @Override
        public void policy(PolicyRequest request, StreamObserver<PolicySnapshot> response) {
            asks.add(request);
            PolicySnapshot answer;
            synchronized (this) {
                long until = System.nanoTime() + request.getWaitMs() * 1_000_000L;
                try {
                    while (version == request.getKnownVersion() && System.nanoTime() < until) {
                        wait(Math.max(1, (until - System.nanoTime()) / 1_000_000));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                answer = version == request.getKnownVersion()
                        ? PolicySnapshot.newBuilder()
                                .setVersion(version)
                                .setUnchanged(true)
                                .setHeld(request.getWaitMs() > 0)
                                .build()
                        : snapshot(version);
            }
            response.onNext(answer);
            response.onCompleted();
        }
    }

    /** Version 1 holds root; each later one adds acct2 (as sacctmgr add account would). */
    private static PolicySnapshot snapshot(long version) {
        PolicySnapshot.Builder b = PolicySnapshot.newBuilder().setVersion(version);
        b.addAssociations(AssociationEntry.newBuilder().setAccount("root"));
        if (version > 1) {
            b.addAssociations(AssociationEntry.newBuilder().setAccount("acct2").setParentAccount("root"));
        }
        return b.build();
    }

    @AfterEach
    void stop() {
        if (puller != null) {
            puller.close();
        }
        if (server != null) {
            server.shutdownNow();
        }
    }

    @Test
    void aChangeCommittedRightAfterStartArrivesAtOnceNotAnIntervalLater() throws Exception {
        FakeDbd dbd = new FakeDbd();
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(dbd)
                .build()
                .start();
        PolicyView view =
                new PolicyView(Enforcement.parse(List.of("limits")), PolicyMapper.fromSnapshot(snapshot(1)), false);
        DaemonAuth auth = DaemonAuth.forThisProcess(
                ClusterKeys.of(new ClusterKeys.Key("k", new byte[ClusterKeys.MIN_KEY_BYTES])),
                "localhost",
                List.of(),
                Clock.systemUTC());
        // An interval far longer than the wait below: only a held ask can bring the change.
        puller = new PolicyPuller(
                view,
                dir,
                new AccountingSettings("c", "127.0.0.1", server.getPort(), Set.of()),
                Duration.ofMinutes(5),
                auth,
                Clock.fixed(Instant.ofEpochSecond(LEARNED), ZoneOffset.UTC));
        puller.start();
        // The first ask is answered at once (version 1, unchanged); the next is held.
        await().atMost(Duration.ofSeconds(10)).until(() -> dbd.asks.size() >= 2);
        assertThat(dbd.asks.get(0).getWaitMs()).isZero();
        assertThat(dbd.asks.get(1).getWaitMs()).isPositive();
        dbd.commit();
        await().atMost(Duration.ofSeconds(10)).until(() -> view.policy().version() == 2);
        // What the first answer held was known from the start; acct2 was learned with the change
        // (sshare computes it only at the next decay pass, compat 227).
        AccountingPolicy p = view.policy();
        assertThat(p.learnedAt(p.accountAssociation("root").orElseThrow())).isZero();
        assertThat(p.learnedAt(p.accountAssociation("acct2").orElseThrow())).isEqualTo(LEARNED);
    }
}
