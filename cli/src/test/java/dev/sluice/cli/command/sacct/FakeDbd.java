package dev.sluice.cli.command.sacct;

import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.JobQueryResult;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A command socket on 127.0.0.1 that answers every job query with fixed jobs and keeps the queries. */
final class FakeDbd implements AutoCloseable {
    private final ServerSocket server;
    private final List<AccountedJob> jobs;
    private final List<DbdRequest> requests = new CopyOnWriteArrayList<>();

    FakeDbd(List<AccountedJob> jobs) throws IOException {
        this.jobs = List.copyOf(jobs);
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
                                .setJobs(JobQueryResult.newBuilder().addAllJobs(jobs))
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
