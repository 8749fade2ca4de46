package dev.sluice.protocol.auth;

import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Attaches a credential bound to the request. The headers leave before the message, so the
 * call is started only when its (first) message is known; requests for responses made before
 * then are replayed once it starts. The request is serialised once: the bytes the credential's
 * digest covers are the bytes sent (the call underneath is re-typed to raw bytes, as {@link
 * DaemonAuth#protect} re-types the services that check them), where serialising it again for
 * the channel cost as much as the first time on every launch and accounting batch.
 */
final class SigningInterceptor implements ClientInterceptor {
    private final DaemonAuth auth;
    private final String audience;

    SigningInterceptor(DaemonAuth auth, String audience) {
        this.auth = auth;
        this.audience = audience;
    }

    @Override
    public <ReqT, RespT> ClientCall<ReqT, RespT> interceptCall(
            MethodDescriptor<ReqT, RespT> method, CallOptions options, Channel next) {
        return new SigningCall<>(next.newCall(DaemonAuth.serialised(method), options), method);
    }

    private final class SigningCall<ReqT, RespT> extends ClientCall<ReqT, RespT> {
        private final ClientCall<byte[], RespT> delegate;
        private final MethodDescriptor<ReqT, RespT> method;
        private Listener<RespT> listener;
        private Metadata headers;
        private boolean started;
        private int requested;
        private Boolean compression;

        SigningCall(ClientCall<byte[], RespT> delegate, MethodDescriptor<ReqT, RespT> method) {
            this.delegate = delegate;
            this.method = method;
        }

        @Override
        public void start(Listener<RespT> responseListener, Metadata metadata) {
            this.listener = responseListener;
            this.headers = metadata;
        }

        @Override
        public void request(int numMessages) {
            if (started) {
                delegate.request(numMessages);
            } else {
                requested += numMessages;
            }
        }

        @Override
        public void setMessageCompression(boolean enabled) {
            if (started) {
                delegate.setMessageCompression(enabled);
            } else {
                compression = enabled;
            }
        }

        @Override
        public boolean isReady() {
            return started && delegate.isReady();
        }

        @Override
        public void cancel(String message, Throwable cause) {
            delegate.cancel(message, cause);
        }

        @Override
        public Attributes getAttributes() {
            return delegate.getAttributes();
        }

        @Override
        public void sendMessage(ReqT message) {
            byte[] body = bytes(message);
            if (!started) {
                startSigned(body);
            }
            delegate.sendMessage(body);
        }

        @Override
        public void halfClose() {
            if (!started) {
                startSigned(new byte[0]);
            }
            delegate.halfClose();
        }

        private void startSigned(byte[] body) {
            headers.put(DaemonAuth.CREDENTIAL, auth.issue(audience, method.getFullMethodName(), body));
            started = true;
            delegate.start(listener, headers);
            if (compression != null) {
                delegate.setMessageCompression(compression);
            }
            if (requested > 0) {
                delegate.request(requested);
            }
        }

        /** The bytes the method's own marshaller makes of the message. */
        private byte[] bytes(ReqT message) {
            if (method.getRequestMarshaller() == DaemonAuth.RAW) {
                // Sent already serialised (DaemonAuth.serialised): these are the bytes.
                return (byte[]) message;
            }
            try (InputStream in = method.streamRequest(message)) {
                return DaemonAuth.readAll(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
