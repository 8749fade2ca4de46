package dev.sluice.cli.testing;

import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.JobQueryResult;
import dev.sluice.protocol.v1.SignedRequest;
import dev.sluice.protocol.v1.UsageReport;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** A sluice-dbd command socket on 127.0.0.1 that answers every query the same way and keeps the queries. */
public final class FakeDbd implements AutoCloseable {
    private final ServerSocket server;
    private final Consumer<DbdResponse.Builder> answer;
    private final List<DbdRequest> requests = new CopyOnWriteArrayList<>();

    private volatile dev.sluice.protocol.v1.ListQosResult qos;

    private FakeDbd(Consumer<DbdResponse.Builder> answer) throws IOException {
        this.answer = answer;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(this::accept);
    }

    /** Fills every answer the same way (sacctmgr: one listing for each of its queries). */
    public static FakeDbd answering(Consumer<DbdResponse.Builder> answer) throws IOException {
        return new FakeDbd(answer);
    }

    /** Answers every job query (sacct) with {@code jobs}. */
    public static FakeDbd jobs(List<AccountedJob> jobs) throws IOException {
        List<AccountedJob> fixed = List.copyOf(jobs);
        return new FakeDbd(r -> r.setJobs(JobQueryResult.newBuilder().addAllJobs(fixed)));
    }

    /** Answers job queries with {@code jobs} and QOS lists with {@code qos} (sacct -q). */
    public static FakeDbd jobsAndQos(List<AccountedJob> jobs, List<String> qos) throws IOException {
        List<AccountedJob> fixed = List.copyOf(jobs);
        dev.sluice.protocol.v1.ListQosResult.Builder listed = dev.sluice.protocol.v1.ListQosResult.newBuilder();
        qos.forEach(
                q -> listed.addQos(dev.sluice.protocol.v1.QosEntry.newBuilder().setName(q)));
        FakeDbd dbd = new FakeDbd(r -> r.setJobs(JobQueryResult.newBuilder().addAllJobs(fixed)));
        dbd.qos = listed.build();
        return dbd;
    }

    /** Answers every usage query (sreport) with {@code report}. */
    public static FakeDbd usage(UsageReport report) throws IOException {
        return new FakeDbd(r -> r.setUsage(report));
    }

    public int port() {
        return server.getLocalPort();
    }

    public List<DbdRequest> requests() {
        return requests;
    }

    private void accept() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                DbdRequest r = DbdRequest.parseFrom(
                        Frames.read(SignedRequest.parser(), s.getInputStream()).getRequest());
                requests.add(r);
                DbdResponse.Builder response = DbdResponse.newBuilder().setRequestId(r.getRequestId());
                answer.accept(response);
                if (r.hasListQos() && qos != null) {
                    response.setListedQos(qos);
                }
                Frames.writeAnswer(response.build(), s.getOutputStream());
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
