package dev.sluice.cli.command.sreport;

import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.UsageReport;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A command socket on 127.0.0.1 that answers every usage query with a fixed report and keeps the queries. */
final class FakeUsageDbd implements AutoCloseable {
    private final ServerSocket server;
    private final UsageReport report;
    private final List<DbdRequest> requests = new CopyOnWriteArrayList<>();

    FakeUsageDbd(UsageReport report) throws IOException {
        this.report = report;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    List<DbdRequest> requests() {
        return requests;
    }

    private void accept() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                DbdRequest r = DbdRequest.parseFrom(
                        Frames.read(dev.sluice.protocol.v1.SignedRequest.parser(), s.getInputStream())
                                .getRequest());
                requests.add(r);
                Frames.write(
                        DbdResponse.newBuilder()
                                .setRequestId(r.getRequestId())
                                .setUsage(report)
                                .build(),
                        s.getOutputStream());
            } catch (EOFException e) {
                // a client that connected and left
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
