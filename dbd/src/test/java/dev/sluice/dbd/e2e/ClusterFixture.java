package dev.sluice.dbd.e2e;

import com.google.protobuf.ByteString;
import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterCredentials;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.Principal;
import dev.sluice.common.conf.GresConfReader;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.config.CtldConfigs;
import dev.sluice.ctld.server.CtldServer;
import dev.sluice.dbd.config.DbdConfig;
import dev.sluice.dbd.config.DbdConfigs;
import dev.sluice.dbd.server.DbdServer;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.SignalJobRequest;
import dev.sluice.protocol.v1.SignedRequest;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** Starts and stops a controller and an accounting daemon that share a temporary directory. */
final class ClusterFixture {
    static final Identity ALICE =
            Identity.newBuilder().setUid(1000).setGid(1000).setUserName("alice").build();

    private final Path dir;
    private final String cluster;
    private int dbdGrpcPort;
    private int dbdCommandPort;

    private final ClusterKeys keys;
    /** AccountingStorageEnforce for the controllers this fixture starts; empty for none. */
    String enforce = "";
    /** More slurm.conf lines for the controllers this fixture starts (PriorityType=...); empty for none. */
    String extraConf = "";

    /** Writes the cluster key both daemons and the commands read: {@code slurm.key} in {@code dir}. */
    ClusterFixture(Path dir, String cluster) throws java.io.IOException, AuthException {
        this.dir = dir;
        this.cluster = cluster;
        Path key = dir.resolve(ClusterKeys.KEY_FILE);
        if (!Files.exists(key)) {
            ClusterKeys.generate(key);
        }
        this.keys = ClusterKeys.loadFromConfigDir(dir);
    }

    /** A frame carrying a credential for ALICE, as a holder of the cluster key signs it. */
    private SignedRequest signed(com.google.protobuf.MessageLite request, String audience) {
        byte[] body = request.toByteArray();
        Principal alice = new Principal(ALICE.getUid(), ALICE.getGid(), ALICE.getUserName(), List.of(), "localhost");
        return SignedRequest.newBuilder()
                .setRequest(ByteString.copyFrom(body))
                .setCredential(new ClusterCredentials(keys)
                        .issue(alice, audience, body, Instant.now(), ClusterCredentials.DEFAULT_TTL))
                .build();
    }

    /** Starts dbd; the first start picks ephemeral ports, later ones reuse them. */
    DbdServer startDbd() throws Exception {
        DbdConfig c = new DbdConfig(
                "127.0.0.1", dbdCommandPort, dbdGrpcPort, DbdConfigs.embeddedUrl(dir.resolve("db")), "", "", 2);
        DbdServer s = DbdServer.start(c, Clock.systemUTC(), keys, Optional.empty());
        dbdGrpcPort = s.grpcPort();
        dbdCommandPort = s.commandPort();
        return s;
    }

    /**
     * Writes the commands' slurm.conf, {@code client.conf} beside the daemons' files: this
     * cluster with the controller's node and partition, and AccountingStoragePort at dbd's
     * command port, where sacct and sacctmgr find dbd as Slurm's commands do.
     */
    Path clientConf(DbdServer dbd) throws java.io.IOException {
        Path conf = dir.resolve("client.conf");
        Files.writeString(conf, """
                ClusterName=%s
                SlurmctldHost=localhost
                AccountingStorageType=accounting_storage/slurmdbd
                AccountingStorageHost=127.0.0.1
                AccountingStoragePort=%d
                NodeName=n1 CPUs=4 RealMemory=4000 State=UNKNOWN
                PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP
                """.formatted(cluster, dbd.commandPort()));
        return conf;
    }

    /** sacctmgr, as root, adds this cluster, account {@code physics} and alice in it; each must succeed. */
    void addAliceToPhysics(UserCommands commands) {
        commands.output(UserCommands.ROOT, "sacctmgr", "-i", "add", "cluster", cluster);
        commands.output(UserCommands.ROOT, "sacctmgr", "-i", "add", "account", "physics");
        commands.output(UserCommands.ROOT, "sacctmgr", "-i", "add", "user", "alice", "account=physics");
    }

    CtldServer startCtld() throws Exception {
        return startCtld(null);
    }

    /**
     * A controller whose node registers and runs every job it is given at once, to exit 0: a
     * stand-in node daemon, so jobs start and end (and their batch steps are accounted) without
     * processes. The completion goes through the loop, as a node daemon's report does.
     */
    CtldServer startCtldRunningJobs() throws Exception {
        return startCtldWithNode(true);
    }

    /** Like {@link #startCtldRunningJobs()}, but jobs run until {@link #finish} ends them. */
    CtldServer startCtldHoldingJobs() throws Exception {
        return startCtldWithNode(false);
    }

    /** The stand-in node reports the job done, exit 0. */
    void finish(CtldServer ctld, int jobId) throws Exception {
        ctld.loop()
                .submit((state, now) -> dev.sluice.ctld.control.BatchEnds.complete(state, "n1", jobId, 0, null, now))
                .get();
    }

    private CtldServer startCtldWithNode(boolean endAtOnce) throws Exception {
        // The stand-in node's ends queue here and a reporter sends them once the controller is
        // up, as a node daemon's registrar sends its outbox: the node is built before the
        // controller that needs it, and neither holds the other.
        BlockingQueue<Integer> ended = new LinkedBlockingQueue<>();
        CtldServer ctld = startCtld((effect, image) -> {
            if (endAtOnce && effect instanceof dev.sluice.ctld.state.Effect.LaunchBatch l) {
                ended.add(l.jobId());
            }
        });
        if (endAtOnce) {
            Thread.ofVirtual().name("stand-in-registrar").start(() -> reportEnds(ctld, ended));
        }
        var hardware = ctld.loop().image().node("n1").orElseThrow().node().hardware();
        var reg = new dev.sluice.ctld.control.NodeControl.Registration(
                "n1",
                new dev.sluice.ctld.state.NodeEndpoint("n1", "127.0.0.1", 1),
                new dev.sluice.ctld.state.NodeEquipment(hardware, java.util.List.of(), ""),
                new dev.sluice.ctld.state.DaemonReport(1, "stand-in", dev.sluice.ctld.state.NodeFacts.NONE),
                false,
                java.util.Set.of(),
                java.util.Optional.empty());
        dev.sluice.ctld.control.NodeControl nodes =
                new dev.sluice.ctld.control.NodeControl(0, dev.sluice.ctld.control.NodePolicy.DEFAULT);
        ctld.loop().submit((state, now) -> nodes.register(state, reg, now)).get();
        return ctld;
    }

    /** Sends each ended job's report, exit 0, until the controller refuses one (it was closed). */
    private static void reportEnds(CtldServer ctld, BlockingQueue<Integer> ended) {
        try {
            while (true) {
                int jobId = ended.take();
                if (ctld.loop()
                        .submit((state, now) ->
                                dev.sluice.ctld.control.BatchEnds.complete(state, "n1", jobId, 0, null, now))
                        .isCompletedExceptionally()) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private CtldServer startCtld(dev.sluice.ctld.loop.EffectSink nodeEffects) throws Exception {
        String text = String.join(
                "\n",
                "ClusterName=" + cluster,
                "SlurmctldHost=localhost",
                "StateSaveLocation=" + dir.resolve("state"),
                "AccountingStorageType=accounting_storage/slurmdbd",
                "AccountingStorageHost=127.0.0.1",
                "AccountingStoragePort=" + (dbdGrpcPort - DbdConfigs.GRPC_PORT_OFFSET),
                enforce.isEmpty() ? "" : "AccountingStorageEnforce=" + enforce,
                extraConf,
                // Unless a test registers a stand-in for it, the node never registers and jobs
                // stay pending.
                "NodeName=n1 CPUs=4 RealMemory=4000 State=UNKNOWN",
                "PartitionName=debug Nodes=n1 Default=YES MaxTime=60 State=UP",
                "");
        Path conf = dir.resolve("slurm.conf");
        Files.writeString(conf, text);
        SlurmConf sc = SlurmConfReader.read(conf);
        // Ports the kernel picks: the tests reach the controller at ctld.commandPort().
        CtldConfig config = CtldConfigs.from(
                        sc,
                        GresConfReader.parse("", "gres.conf"),
                        0,
                        Map.of(),
                        keys,
                        CtldConfigs.security(sc, Optional.empty()))
                .withPorts(0, 0);
        return CtldServer.start(
                config,
                Clock.systemUTC(),
                "127.0.0.1",
                false,
                e -> {
                    throw new IllegalStateException("controller failed", e);
                },
                nodeEffects);
    }

    int submit(CtldServer ctld, String name) throws Exception {
        return submit(ctld, name, "");
    }

    /** @param array sbatch's --array, "" for a plain job */
    int submit(CtldServer ctld, String name, String array) throws Exception {
        return submit(ctld, name, array, "");
    }

    /** @param account sbatch's -A, "" for the user's default */
    int submit(CtldServer ctld, String name, String array, String account) throws Exception {
        ClientResponse r = call(
                ctld,
                ClientRequest.newBuilder()
                        .setSubmitBatchJob(SubmitBatchJobRequest.newBuilder()
                                .setSpec(JobSpec.newBuilder()
                                        .setName(name)
                                        .setArray(array)
                                        .setAccount(account)
                                        .setScript(com.google.protobuf.ByteString.copyFromUtf8("#!/bin/sh\nsleep 1\n"))
                                        .setNumTasks(1)
                                        .setWorkDir("/tmp")))
                        .build());
        if (r.hasError()) {
            throw new IllegalStateException(r.getError().getMessage());
        }
        return r.getSubmitBatchJob().getJobId();
    }

    void cancel(CtldServer ctld, int jobId) throws Exception {
        ClientResponse r = call(
                ctld,
                ClientRequest.newBuilder()
                        .setSignalJob(SignalJobRequest.newBuilder()
                                .addJobIds(Integer.toString(jobId))
                                .setCancel(true))
                        .build());
        if (r.hasError() || r.getSignalJob().getResults(0).hasError()) {
            throw new IllegalStateException(r.toString());
        }
    }

    private ClientResponse call(CtldServer ctld, ClientRequest request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", ctld.commandPort())) {
            Frames.write(
                    signed(
                            request.toBuilder()
                                    .setProtocolVersion(Frames.PROTOCOL_VERSION)
                                    .build(),
                            "slurmctld"),
                    s.getOutputStream());
            return Frames.read(ClientResponse.parser(), s.getInputStream());
        }
    }

    /** sreport's reservation rows of this cluster over [start, end), as dbd answers them. */
    List<dev.sluice.protocol.v1.AccountedReservation> reservations(long start, long end) throws Exception {
        return askDbd(DbdRequest.newBuilder()
                        .setQueryReservations(dev.sluice.protocol.v1.ReservationQuery.newBuilder()
                                .addClusters(cluster)
                                .setStart(start)
                                .setEnd(end)))
                .getReservations()
                .getReservationsList();
    }

    List<AccountedJob> accounted() throws Exception {
        return askDbd(DbdRequest.newBuilder().setQueryJobs(JobQuery.newBuilder().addClusters(cluster)))
                .getJobs()
                .getJobsList();
    }

    /** One request to dbd's command port, signed for ALICE; dbd's refusal fails the test. */
    private DbdResponse askDbd(DbdRequest.Builder request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", dbdCommandPort)) {
            Frames.write(
                    signed(request.setProtocolVersion(Frames.PROTOCOL_VERSION).build(), "slurmdbd"),
                    s.getOutputStream());
            DbdResponse r = Frames.read(DbdResponse.parser(), s.getInputStream());
            if (r.hasError()) {
                throw new IllegalStateException(r.getError().getMessage());
            }
            return r;
        }
    }
}
