package dev.sluice.ctld.rpc;

import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

/** Times gRPC calls from arrival to close; the method label is the bare method name. */
public final class GrpcTimingInterceptor implements ServerInterceptor {
    private final RpcTimings timings;

    public GrpcTimingInterceptor(RpcTimings timings) {
        this.timings = timings;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        long start = System.nanoTime();
        String method = call.getMethodDescriptor().getBareMethodName();
        ServerCall<Q, R> timed = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void close(Status status, Metadata trailers) {
                timings.served(RpcTimings.GRPC, String.valueOf(method), System.nanoTime() - start, status.isOk());
                super.close(status, trailers);
            }
        };
        return next.startCall(timed, headers);
    }
}
