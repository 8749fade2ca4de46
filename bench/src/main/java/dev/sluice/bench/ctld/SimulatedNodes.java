package dev.sluice.bench.ctld;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.slurm.SlurmVersion;
import dev.sluice.protocol.auth.DaemonAuth;
import dev.sluice.protocol.v1.HeartbeatRequest;
import dev.sluice.protocol.v1.HeartbeatResponse;
import dev.sluice.protocol.v1.JobCompleteBatch;
import dev.sluice.protocol.v1.JobCompleteBatchResponse;
import dev.sluice.protocol.v1.JobCompleteRequest;
import dev.sluice.protocol.v1.LaunchBatchJobRequest;
import dev.sluice.protocol.v1.LaunchBatchJobResponse;
import dev.sluice.protocol.v1.LaunchBatchJobsRequest;
import dev.sluice.protocol.v1.LaunchBatchJobsResponse;
import dev.sluice.protocol.v1.LaunchOutcome;
import dev.sluice.protocol.v1.NodeControlGrpc;
import dev.sluice.protocol.v1.NodeHardware;
import dev.sluice.protocol.v1.NodeReconfigureRequest;
import dev.sluice.protocol.v1.NodeReconfigureResponse;
import dev.sluice.protocol.v1.NodeRegistryGrpc;
import dev.sluice.protocol.v1.NodeSignalJobRequest;
import dev.sluice.protocol.v1.NodeSignalJobResponse;
import dev.sluice.protocol.v1.RegisterNodeRequest;
import dev.sluice.protocol.v1.TerminateJobRequest;
import dev.sluice.protocol.v1.TerminateJobResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many node daemons in one process, for the controller-bound benchmark: each node is a gRPC
 * server of its own (the controller dials each node's {@code Port=}) that accepts a batch launch
 * and reports the job COMPLETED (exit 0) at once, through the controller's real {@code
 * NodeRegistry} with the cluster's daemon credentials, so the controller and sluice-dbd do all
 * the work there is. Runs nothing: there is no process, spool, cgroup or prolog. Incoming calls
 * are not checked for the controller's credential (this process trusts its only caller); the
 * controller checks every call the nodes make, as it does for real node daemons.
 */
public final class SimulatedNodes implements AutoCloseable {
    /** Completion reports in flight at once; the controller answers each after its journal sync. */
    private static final int REPORTS_IN_FLIGHT = 256;

    private final List<String> names;
    private final NodeHardware hardware;
    private final List<Server> servers = new ArrayList<>();
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Semaphore inFlight = new Semaphore(REPORTS_IN_FLIGHT);
    private final AtomicLong launched = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong failedReports = new AtomicLong();
    private final Map<Integer, String> running = new ConcurrentHashMap<>();
    private ManagedChannel channel;
    private NodeRegistryGrpc.NodeRegistryStub registry;
    private NodeRegistryGrpc.NodeRegistryBlockingStub blocking;
    private Thread heartbeats;
    private volatile boolean open = true;

    /** Starts one server per node on an ephemeral loopback port; {@link #ports} says which. */
    public SimulatedNodes(List<String> names, int cpus, long memoryMb) throws IOException {
        this.names = List.copyOf(names);
        this.hardware = NodeHardware.newBuilder()
                .setCpus(cpus)
                .setBoards(1)
                .setSockets(1)
                .setCoresPerSocket(cpus)
                .setThreadsPerCore(1)
                .setRealMemoryMb(memoryMb)
                .build();
        for (String name : names) {
            servers.add(NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                    .executor(executor)
                    .addService(new Node(name))
                    .build()
                    .start());
        }
    }

    public List<Integer> ports() {
        return servers.stream().map(Server::getPort).toList();
    }

    /** Registers every node with the controller and heartbeats them while open. */
    public void register(ClusterKeys keys, int controllerGrpcPort) {
        DaemonAuth auth = DaemonAuth.forThisProcess(keys, "localhost", List.of(), Clock.systemUTC());
        channel = NettyChannelBuilder.forAddress("127.0.0.1", controllerGrpcPort)
                .usePlaintext()
                .build();
        registry = NodeRegistryGrpc.newStub(channel).withInterceptors(auth.client(DaemonAuth.CTLD));
        blocking = NodeRegistryGrpc.newBlockingStub(channel).withInterceptors(auth.client(DaemonAuth.CTLD));
        long now = System.currentTimeMillis() / 1000;
        int heartbeatSeconds = 30;
        for (int i = 0; i < names.size(); i++) {
            heartbeatSeconds = blocking.withDeadlineAfter(30, TimeUnit.SECONDS)
                    .register(RegisterNodeRequest.newBuilder()
                            .setName(names.get(i))
                            .setHostname("localhost")
                            .setAddr("127.0.0.1")
                            .setPort(servers.get(i).getPort())
                            .setHardware(hardware)
                            .setDetected(hardware)
                            .setVersion(SlurmVersion.RELEASE)
                            .setBootTime(now)
                            .setSlurmdStartTime(now)
                            .setArch("x86_64")
                            .setOs("Linux")
                            .build())
                    .getHeartbeatIntervalSeconds();
        }
        long every = Math.max(1, heartbeatSeconds) * 1000L;
        heartbeats = Thread.ofVirtual().start(() -> heartbeat(every));
    }

    private void heartbeat(long everyMillis) {
        while (open) {
            try {
                Thread.sleep(everyMillis);
                for (String name : names) {
                    HeartbeatResponse r = blocking.withDeadlineAfter(10, TimeUnit.SECONDS)
                            .heartbeat(HeartbeatRequest.newBuilder()
                                    .setName(name)
                                    .addAllRunningJobIds(running.entrySet().stream()
                                            .filter(e -> e.getValue().equals(name))
                                            .map(Map.Entry::getKey)
                                            .toList())
                                    .build());
                    if (r.getReregister()) {
                        System.err.println("bench-ctld: the controller asked " + name + " to register again");
                    }
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (open) {
                    System.err.println("bench-ctld: heartbeat failed: " + e.getMessage());
                }
            }
        }
    }

    /** Batch launches accepted so far. */
    public long launched() {
        return launched.get();
    }

    /** Completion reports the controller has acknowledged so far. */
    public long completed() {
        return completed.get();
    }

    /** Completion reports the controller refused or did not answer. */
    public long failedReports() {
        return failedReports.get();
    }

    /**
     * The reports of jobs launched together (or of one), in one {@code JobsComplete} call, as a
     * node daemon sends the reports it has waiting.
     */
    private void reportAll(String node, List<LaunchBatchJobRequest> launches) {
        inFlight.acquireUninterruptibly();
        JobCompleteBatch.Builder batch = JobCompleteBatch.newBuilder();
        for (LaunchBatchJobRequest launch : launches) {
            batch.addReports(JobCompleteRequest.newBuilder()
                    .setNodeName(node)
                    .setJobId(launch.getJobId())
                    .setExitStatus(0)
                    .setRestartCount(launch.getRestartCount()));
        }
        registry.withDeadlineAfter(60, TimeUnit.SECONDS).jobsComplete(batch.build(), new StreamObserver<>() {
            @Override
            public void onNext(JobCompleteBatchResponse value) {
                for (LaunchBatchJobRequest launch : launches) {
                    running.remove(launch.getJobId());
                }
                failedReports.addAndGet(value.getRefusedCount());
                completed.addAndGet(launches.size() - value.getRefusedCount());
            }

            @Override
            public void onError(Throwable t) {
                inFlight.release();
                for (LaunchBatchJobRequest launch : launches) {
                    running.remove(launch.getJobId());
                }
                failedReports.addAndGet(launches.size());
                if (open) {
                    System.err.println("bench-ctld: " + launches.size() + " completions failed: " + t.getMessage());
                }
            }

            @Override
            public void onCompleted() {
                inFlight.release();
            }
        });
    }

    /** One simulated node daemon's NodeControl service. */
    private final class Node extends NodeControlGrpc.NodeControlImplBase {
        private final String name;

        Node(String name) {
            this.name = name;
        }

        @Override
        public void launchBatchJob(LaunchBatchJobRequest request, StreamObserver<LaunchBatchJobResponse> observer) {
            launched.incrementAndGet();
            running.put(request.getJobId(), name);
            observer.onNext(LaunchBatchJobResponse.getDefaultInstance());
            observer.onCompleted();
            // The job ends as soon as it started: its report goes after the launch's answer.
            executor.execute(() -> reportAll(name, List.of(request)));
        }

        @Override
        public void launchBatchJobs(LaunchBatchJobsRequest request, StreamObserver<LaunchBatchJobsResponse> observer) {
            LaunchBatchJobsResponse.Builder out = LaunchBatchJobsResponse.newBuilder();
            for (LaunchBatchJobRequest launch : request.getLaunchesList()) {
                launched.incrementAndGet();
                running.put(launch.getJobId(), name);
                out.addOutcomes(LaunchOutcome.newBuilder().setJobId(launch.getJobId()));
            }
            observer.onNext(out.build());
            observer.onCompleted();
            executor.execute(() -> reportAll(name, request.getLaunchesList()));
        }

        @Override
        public void terminateJob(TerminateJobRequest request, StreamObserver<TerminateJobResponse> observer) {
            observer.onNext(TerminateJobResponse.getDefaultInstance());
            observer.onCompleted();
        }

        @Override
        public void signalJob(NodeSignalJobRequest request, StreamObserver<NodeSignalJobResponse> observer) {
            observer.onNext(NodeSignalJobResponse.getDefaultInstance());
            observer.onCompleted();
        }

        @Override
        public void reconfigure(NodeReconfigureRequest request, StreamObserver<NodeReconfigureResponse> observer) {
            observer.onNext(NodeReconfigureResponse.getDefaultInstance());
            observer.onCompleted();
        }
    }

    @Override
    public void close() {
        open = false;
        if (heartbeats != null) {
            heartbeats.interrupt();
        }
        servers.forEach(Server::shutdownNow);
        if (channel != null) {
            channel.shutdownNow();
        }
        executor.shutdownNow();
    }
}
