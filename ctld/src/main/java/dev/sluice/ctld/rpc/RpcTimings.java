package dev.sluice.ctld.rpc;

/**
 * Told of every client request served, for RPC rate and latency metrics. Called on the
 * request's own thread after the answer is ready; must not block.
 */
@FunctionalInterface
public interface RpcTimings {
    String FRAMES = "frames";
    String GRPC = "grpc";

    RpcTimings NONE = (transport, method, nanos, ok) -> {};

    /**
     * @param transport {@link #FRAMES} (the command socket) or {@link #GRPC}
     * @param method the request type, e.g. {@code REQUEST_SUBMIT_BATCH_JOB}, or the gRPC method
     * @param ok false when the answer carried a Slurm error
     */
    void served(String transport, String method, long nanos, boolean ok);
}
