package dev.sluice.packaging;

import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignedRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;

/**
 * What a local user can send without the commands, run as that user by the security tests:
 * a request to the controller's socket that claims to be root, and frames over the size limits
 * to the controller's and the agent's sockets. Prints what came back, one line.
 *
 * <p>{@code claim-root CTLD_SOCKET JOBID} | {@code oversized CTLD_SOCKET} | {@code
 * oversized-agent AGENT_SOCKET}
 */
public final class ForgedRequests {
    private ForgedRequests() {}

    public static void main(String[] args) throws IOException {
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(args[1]))) {
            OutputStream out = Channels.newOutputStream(ch);
            InputStream in = Channels.newInputStream(ch);
            switch (args[0]) {
                case "claim-root" -> {
                    ClientRequest request = ClientRequest.newBuilder()
                            .setProtocolVersion(Frames.PROTOCOL_VERSION)
                            .setRequestId(1)
                            .setIdentity(Identity.newBuilder()
                                    .setUid(0)
                                    .setGid(0)
                                    .setUserName("root")
                                    .setHost("localhost"))
                            .setSignalJob(SignalJobRequest.newBuilder()
                                    .addJobIds(args[2])
                                    .setCancel(true))
                            .build();
                    Frames.write(
                            SignedRequest.newBuilder()
                                    .setRequest(request.toByteString())
                                    .build(),
                            out);
                    ClientResponse response = Frames.readAnswer(ClientResponse.parser(), in);
                    System.out.println(
                            response.hasError()
                                    ? "error: " + response.getError().getMessage()
                                    : "results: "
                                            + response.getSignalJob().getResultsList().stream()
                                                    .map(r -> r.getJobId() + "="
                                                            + r.getError().getMessage())
                                                    .toList());
                }
                case "oversized" -> {
                    // A varint length of 64 MiB, then a little: refused before anything is allocated.
                    out.write(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x20, 1, 2, 3});
                    out.flush();
                    System.out.println(in.read() < 0 ? "closed" : "answered");
                }
                case "oversized-agent" -> {
                    // A run request of 1 GiB (the agent's frames are u8 type + u32 length).
                    out.write(new byte[] {'R', 0x40, 0, 0, 0, 1, 2, 3});
                    out.flush();
                    System.out.println(in.read() < 0 ? "closed" : "answered");
                }
                default -> throw new IllegalArgumentException(args[0]);
            }
        }
    }
}
