package dev.sluice.protocol.auth;

import dev.sluice.common.log.QuietLog;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

/**
 * Lets a call reach its service only with a valid credential for its exact request bytes.
 * The handler is started after the check, so a refused call runs no code of the service.
 * Works on services re-typed to raw bytes ({@link DaemonAuth#protect}).
 */
final class CredentialCheck implements ServerInterceptor {
    private static final QuietLog quiet = QuietLog.of(CredentialCheck.class);

    private final DaemonAuth auth;
    private final String audience;

    CredentialCheck(DaemonAuth auth, String audience) {
        this.auth = auth;
        this.audience = audience;
    }

    @Override
    public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
            ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
        String method = call.getMethodDescriptor().getFullMethodName();
        String token = headers.get(DaemonAuth.CREDENTIAL);
        if (token == null) {
            refuse(call, new DaemonAuth.Refusal("no credential", false));
            return new ServerCall.Listener<>() {};
        }
        // The service's handler, which would ask for the message, starts only after the check.
        call.request(1);
        return new ServerCall.Listener<>() {
            private ServerCall.Listener<ReqT> delegate;
            private boolean refused;

            @Override
            public void onMessage(ReqT message) {
                if (refused) {
                    return;
                }
                if (delegate != null) {
                    delegate.onMessage(message);
                    return;
                }
                if (!(message instanceof byte[] body)) {
                    throw new IllegalStateException("CredentialCheck needs a service re-typed to bytes");
                }
                DaemonAuth.Refusal refusal = auth.check(token, audience, method, body);
                if (refusal != null) {
                    refused = true;
                    refuse(call, refusal);
                    return;
                }
                delegate = next.startCall(call, headers);
                delegate.onMessage(message);
            }

            @Override
            public void onHalfClose() {
                if (delegate != null) {
                    delegate.onHalfClose();
                } else if (!refused) {
                    refused = true;
                    refuse(call, new DaemonAuth.Refusal("no request", false));
                }
            }

            @Override
            public void onCancel() {
                if (delegate != null) {
                    delegate.onCancel();
                }
            }

            @Override
            public void onComplete() {
                if (delegate != null) {
                    delegate.onComplete();
                }
            }

            @Override
            public void onReady() {
                if (delegate != null) {
                    delegate.onReady();
                }
            }
        };
    }

    private void refuse(ServerCall<?, ?> call, DaemonAuth.Refusal refusal) {
        String peer = QuietLog.host(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
        quiet.warn(peer, "refused " + call.getMethodDescriptor().getFullMethodName(), refusal.reason());
        Status status = refusal.notADaemon()
                ? Status.PERMISSION_DENIED.withDescription("Access/permission denied: " + refusal.reason())
                : Status.UNAUTHENTICATED.withDescription("Protocol authentication error: " + refusal.reason());
        call.close(status, new Metadata());
    }
}
