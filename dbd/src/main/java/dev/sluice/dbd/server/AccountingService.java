package dev.sluice.dbd.server;

import static java.util.Objects.requireNonNull;

import dev.sluice.dbd.store.AccountingStore;
import dev.sluice.dbd.store.PolicyStore;
import dev.sluice.protocol.v1.AccountingAck;
import dev.sluice.protocol.v1.AccountingBatch;
import dev.sluice.protocol.v1.AccountingGrpc;
import dev.sluice.protocol.v1.PolicyRequest;
import dev.sluice.protocol.v1.PolicySnapshot;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controllers' side: {@code Record} applies one outbox batch. Database trouble answers
 * UNAVAILABLE (the controller keeps the batch and retries); a batch no retry can fix answers
 * INVALID_ARGUMENT.
 */
final class AccountingService extends AccountingGrpc.AccountingImplBase {
    private static final Logger log = LoggerFactory.getLogger(AccountingService.class);

    /** Longest hold of one ask; the controller asks again at once. */
    static final Duration MAX_HOLD = Duration.ofSeconds(30);
    /** A held ask re-reads the database this often (changes made through another dbd). */
    private static final Duration RECHECK = Duration.ofSeconds(2);

    private final AccountingStore store;
    private final PolicyStore policy;
    private final PolicyChanges changes;

    AccountingService(AccountingStore store, PolicyStore policy, PolicyChanges changes) {
        this.store = requireNonNull(store, "store is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.changes = requireNonNull(changes, "changes is null");
    }

    /**
     * The associations and QOS a controller enforces; UNAVAILABLE keeps its last copy in force.
     * An ask that may wait is held while nothing changed (gRPC runs each call on a virtual
     * thread here, so a held ask costs no platform thread).
     */
    @Override
    public void policy(PolicyRequest request, StreamObserver<PolicySnapshot> response) {
        try {
            // A controller asking for its cluster's associations registers the cluster (with its
            // root account and root user), so that root's first jobs already run under them.
            if (!request.getClusterName().isEmpty()) {
                store.ensureCluster(request.getClusterName());
            }
            Duration hold = Duration.ofMillis(request.getWaitMs());
            if (hold.compareTo(MAX_HOLD) > 0) {
                hold = MAX_HOLD;
            }
            long until = System.nanoTime() + hold.toNanos();
            PolicySnapshot answer;
            while (true) {
                long seen = changes.ticket();
                answer = policy.snapshot(request);
                long left = until - System.nanoTime();
                if (!answer.getUnchanged() || left <= 0 || changes.closed() || cancelled(response)) {
                    break;
                }
                changes.awaitChange(seen, left < RECHECK.toNanos() ? Duration.ofNanos(left) : RECHECK);
            }
            if (answer.getUnchanged() && !hold.isZero()) {
                answer = answer.toBuilder().setHeld(true).build();
            }
            response.onNext(answer);
            response.onCompleted();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            response.onError(
                    Status.UNAVAILABLE.withDescription("sluice-dbd stopping").asRuntimeException());
        } catch (SQLException | RuntimeException e) {
            log.warn("cannot read associations for {}: {}", request.getClusterName(), e.toString());
            response.onError(Status.UNAVAILABLE
                    .withDescription("accounting database: " + e.getMessage())
                    .asRuntimeException());
        }
    }

    private static boolean cancelled(StreamObserver<?> response) {
        return response instanceof ServerCallStreamObserver<?> call && call.isCancelled();
    }

    @Override
    public void record(AccountingBatch batch, StreamObserver<AccountingAck> response) {
        long through;
        try {
            through = store.apply(AccountingWire.entries(batch));
        } catch (IllegalArgumentException e) {
            log.warn("refused accounting batch from {}: {}", batch.getClusterName(), e.getMessage());
            response.onError(
                    Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return;
        } catch (SQLException | RuntimeException e) {
            log.warn("cannot store accounting batch from {}: {}", batch.getClusterName(), e.toString());
            response.onError(Status.UNAVAILABLE
                    .withDescription("accounting database: " + e.getMessage())
                    .asRuntimeException());
            return;
        }
        log.debug(
                "cluster {}: {} records, applied through {}", batch.getClusterName(), batch.getRecordsCount(), through);
        response.onNext(AccountingAck.newBuilder().setAppliedThrough(through).build());
        response.onCompleted();
    }
}
