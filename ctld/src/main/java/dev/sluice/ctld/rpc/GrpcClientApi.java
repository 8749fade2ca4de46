package dev.sluice.ctld.rpc;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.Principal;
import dev.sluice.common.auth.RequestAuthenticator;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.log.QuietLog;
import dev.sluice.protocol.v1.GetConfigRequest;
import dev.sluice.protocol.v1.GetConfigResponse;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.GetNodesResponse;
import dev.sluice.protocol.v1.GetPartitionsRequest;
import dev.sluice.protocol.v1.GetPartitionsResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.PingRequest;
import dev.sluice.protocol.v1.PingResponse;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignalJobResponse;
import dev.sluice.protocol.v1.SlurmctldApiGrpc;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import dev.sluice.protocol.v1.SubmitBatchJobResponse;
import dev.sluice.protocol.v1.UpdateJobRequest;
import dev.sluice.protocol.v1.UpdateJobResponse;
import dev.sluice.protocol.v1.UpdateNodeRequest;
import dev.sluice.protocol.v1.UpdateNodeResponse;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.function.Supplier;

/** The client API over gRPC: the same {@link ClientApiHandler} as the command socket. */
public final class GrpcClientApi extends SlurmctldApiGrpc.SlurmctldApiImplBase {
    private static final QuietLog quiet = QuietLog.of(GrpcClientApi.class);

    /** Metadata key carrying the Slurm errno of a failed call. */
    public static final Metadata.Key<String> SLURM_ERRNO =
            Metadata.Key.of("slurm-errno", Metadata.ASCII_STRING_MARSHALLER);

    /** {@code authorization: Bearer <SLURM_JWT>}, as slurmrestd takes tokens. */
    static final Metadata.Key<String> AUTHORIZATION =
            Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
    /** A cluster credential (audience slurmctld), for programs that hold the cluster key. */
    static final Metadata.Key<String> CREDENTIAL =
            Metadata.Key.of("sluice-credential", Metadata.ASCII_STRING_MARSHALLER);

    static final Context.Key<Identity> IDENTITY = Context.key("sluice-identity");

    private final ClientApiHandler handler;

    public GrpcClientApi(ClientApiHandler handler) {
        this.handler = handler;
    }

    /**
     * Authenticates each call from its metadata: a SLURM_JWT bearer token or a cluster
     * credential. gRPC messages are not bound to the credential (it travels in the headers),
     * so a cluster credential here is good for one call only, by its nonce. Without either the
     * call ends UNAUTHENTICATED before any handler runs.
     */
    public static ServerInterceptor authenticatingInterceptor(
            RequestAuthenticator authenticator, java.time.InstantSource clock) {
        return new ServerInterceptor() {
            @Override
            public <Q, R> ServerCall.Listener<Q> interceptCall(
                    ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
                String bearer = headers.get(AUTHORIZATION);
                String token = bearer != null && bearer.regionMatches(true, 0, "Bearer ", 0, 7)
                        ? bearer.substring(7).strip()
                        : "";
                String credential = java.util.Objects.requireNonNullElse(headers.get(CREDENTIAL), "");
                String peer = QuietLog.host(call.getAttributes().get(io.grpc.Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
                Principal who;
                try {
                    who = authenticator.authenticate(null, credential, token, peer, clock.instant());
                } catch (AuthException e) {
                    quiet.warn(
                            peer, "refused gRPC " + call.getMethodDescriptor().getFullMethodName(), e.getMessage());
                    Metadata trailers = new Metadata();
                    trailers.put(SLURM_ERRNO, Integer.toString(ErrorCode.AUTHENTICATION_ERROR.number()));
                    call.close(Status.UNAUTHENTICATED.withDescription(ErrorCode.AUTHENTICATION_ERROR.text()), trailers);
                    return new ServerCall.Listener<>() {};
                }
                Identity id = Identity.newBuilder()
                        .setUid((int) who.uid())
                        .setGid((int) who.gid())
                        .setUserName(who.userName())
                        .setHost(who.host())
                        .build();
                return Contexts.interceptCall(Context.current().withValue(IDENTITY, id), call, headers, next);
            }
        };
    }

    private static <T> void answer(StreamObserver<T> observer, Supplier<T> body) {
        try {
            observer.onNext(body.get());
            observer.onCompleted();
        } catch (SlurmException e) {
            Metadata trailers = new Metadata();
            trailers.put(SLURM_ERRNO, Integer.toString(e.code().number()));
            observer.onError(
                    Status.FAILED_PRECONDITION.withDescription(e.getMessage()).asRuntimeException(trailers));
        }
    }

    private static Identity who() {
        Identity id = IDENTITY.get();
        if (id == null) {
            // Only reachable if the service were installed without its interceptor.
            throw new SlurmException(ErrorCode.AUTHENTICATION_ERROR);
        }
        return id;
    }

    @Override
    public void submitBatchJob(SubmitBatchJobRequest request, StreamObserver<SubmitBatchJobResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.submitBatchJob(who, request));
    }

    @Override
    public void signalJob(SignalJobRequest request, StreamObserver<SignalJobResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.signalJob(who, request));
    }

    @Override
    public void getJobs(GetJobsRequest request, StreamObserver<GetJobsResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.getJobs(who, request));
    }

    @Override
    public void getNodes(GetNodesRequest request, StreamObserver<GetNodesResponse> observer) {
        answer(observer, () -> handler.getNodes(request));
    }

    @Override
    public void getPartitions(GetPartitionsRequest request, StreamObserver<GetPartitionsResponse> observer) {
        answer(observer, () -> handler.getPartitions(request));
    }

    @Override
    public void updateNode(UpdateNodeRequest request, StreamObserver<UpdateNodeResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.updateNode(who, request));
    }

    @Override
    public void updatePartition(
            dev.sluice.protocol.v1.UpdatePartitionRequest request,
            StreamObserver<dev.sluice.protocol.v1.UpdatePartitionResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.updatePartition(who, request));
    }

    @Override
    public void updateJob(UpdateJobRequest request, StreamObserver<UpdateJobResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.updateJob(who, request));
    }

    @Override
    public void getConfig(GetConfigRequest request, StreamObserver<GetConfigResponse> observer) {
        answer(observer, handler::getConfig);
    }

    @Override
    public void ping(PingRequest request, StreamObserver<PingResponse> observer) {
        answer(observer, handler::ping);
    }

    @Override
    public void createNode(
            dev.sluice.protocol.v1.CreateNodeRequest request,
            StreamObserver<dev.sluice.protocol.v1.CreateNodeResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.createNode(who, request));
    }

    @Override
    public void deleteNode(
            dev.sluice.protocol.v1.DeleteNodeRequest request,
            StreamObserver<dev.sluice.protocol.v1.DeleteNodeResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.deleteNode(who, request));
    }

    @Override
    public void reconfigure(
            dev.sluice.protocol.v1.ReconfigureRequest request,
            StreamObserver<dev.sluice.protocol.v1.ReconfigureResponse> observer) {
        Identity who = who();
        answer(observer, () -> handler.reconfigure(who));
    }
}
