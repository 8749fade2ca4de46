package dev.sluice.ctld.accounting;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.CodedOutputStream;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.v1.AccountingAck;
import dev.sluice.protocol.v1.AccountingBatch;
import dev.sluice.protocol.v1.AccountingGrpc;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the outbox to sluice-dbd in order, one batch at a time, and trims what dbd acknowledges.
 * Failures back off from one second to thirty seconds and are retried forever: the outbox is durable,
 * so dbd being away costs only latency. The backlog is logged when delivery fails and when it
 * recovers.
 */
final class OutboxShipper implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(OutboxShipper.class);
    /** Shortest pause between shipments while the outbox keeps up: accounting may lag by this. */
    static final long TRICKLE_INTERVAL_MS = 200;

    // Records per call (Outbox also caps their bytes at 2 MiB): each call is one commit at
    // sluice-dbd. While H2 delayed its writes, 2,000 made sluice-dbd no faster than 500
    // (bench-ctld, 2026-12-06); with durable commits, 2,000 records' jobs went into accounting
    // 4-13 % faster in each of four paired rounds (2026-12-07, docs/benchmarks.md).
    private static final int MAX_BATCH = 2000;
    private static final Duration RPC_DEADLINE = Duration.ofSeconds(30);
    private static final long MIN_BACKOFF_MS = 1000;
    private static final long MAX_BACKOFF_MS = 30_000;
    private static final MethodDescriptor<byte[], AccountingAck> RECORD_SERIALISED =
            DaemonAuth.serialised(AccountingGrpc.getRecordMethod());

    private final Outbox outbox;
    private final String cluster;
    private final String target;
    private final ManagedChannel channel;
    private final AccountingGrpc.AccountingBlockingStub stub;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread thread;

    OutboxShipper(Outbox outbox, String cluster, String host, int port, DaemonAuth auth) {
        this.outbox = requireNonNull(outbox, "outbox is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.target = host + ":" + port;
        this.channel = NettyChannelBuilder.forAddress(host, port).usePlaintext().build();
        this.stub = AccountingGrpc.newBlockingStub(channel).withInterceptors(auth.client(DaemonAuth.DBD));
        this.thread = Thread.ofPlatform().name("ctld-accounting").daemon(true).unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    private void run() {
        long backoff = 0;
        try {
            while (closed.getCount() > 0) {
                List<Outbox.Entry> records = outbox.awaitEntries(MAX_BATCH, 1000);
                if (records.isEmpty()) {
                    continue;
                }
                try {
                    AccountingGrpc.AccountingBlockingStub call =
                            stub.withDeadlineAfter(RPC_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
                    AccountingAck ack = ClientCalls.blockingUnaryCall(
                            call.getChannel(), RECORD_SERIALISED, call.getCallOptions(), batch(cluster, records));
                    long last = records.getLast().sequence();
                    if (ack.getAppliedThrough() > last) {
                        // dbd holds higher sequences for this cluster than this outbox ever made:
                        // another controller shares the name, or the clock went far back.
                        log.error(
                                "accounting: sluice-dbd at {} has applied through {} for cluster {}, beyond"
                                        + " this controller's {}; those records were skipped as duplicates",
                                target,
                                ack.getAppliedThrough(),
                                cluster,
                                last);
                    }
                    outbox.acknowledge(ack.getAppliedThrough());
                    if (backoff > 0) {
                        log.info(
                                "accounting: sluice-dbd at {} reachable again; {} records still waiting",
                                target,
                                outbox.depth());
                    }
                    backoff = 0;
                    // A short batch means the outbox is drained: wait a moment for more, so a
                    // steady trickle of jobs costs sluice-dbd one commit per interval, not one
                    // per record (it competes with the controller for the same cores).
                    if (records.size() < MAX_BATCH && closed.await(TRICKLE_INTERVAL_MS, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (StatusRuntimeException e) {
                    backoff = backoff == 0 ? MIN_BACKOFF_MS : Math.min(MAX_BACKOFF_MS, backoff * 2);
                    log.warn(
                            "accounting: {} records waiting for sluice-dbd at {} ({}); retrying in {} s",
                            outbox.depth(),
                            target,
                            e.getStatus().getCode()
                                    + (e.getStatus().getDescription() == null
                                            ? ""
                                            : ": " + e.getStatus().getDescription()),
                            backoff / 1000);
                    if (closed.await(backoff, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                    // gRPC's own reconnect backoff grows to two minutes; ours decides when to try.
                    channel.resetConnectBackoff();
                } catch (IOException e) {
                    // The records were delivered and leave the outbox's memory; only the mark of
                    // how far (and the delivered files) could not be written. After a restart
                    // sluice-dbd is sent them again and applies each once.
                    log.warn("accounting: cannot record the delivery in the outbox: {}", e.getMessage());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The {@link AccountingBatch} of {@code records} as its marshaller would serialise it, from the
     * bytes the outbox stored: a repeated message field is each message's bytes behind its tag
     * and length.
     */
    static byte[] batch(String cluster, List<Outbox.Entry> records) {
        int size = CodedOutputStream.computeStringSize(AccountingBatch.CLUSTER_NAME_FIELD_NUMBER, cluster);
        for (Outbox.Entry e : records) {
            size += CodedOutputStream.computeByteArraySize(AccountingBatch.RECORDS_FIELD_NUMBER, e.body());
        }
        byte[] out = new byte[size];
        CodedOutputStream w = CodedOutputStream.newInstance(out);
        try {
            w.writeString(AccountingBatch.CLUSTER_NAME_FIELD_NUMBER, cluster);
            for (Outbox.Entry e : records) {
                w.writeByteArray(AccountingBatch.RECORDS_FIELD_NUMBER, e.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        w.checkNoSpaceLeft();
        return out;
    }

    @Override
    public void close() {
        closed.countDown();
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        channel.shutdownNow();
    }
}
