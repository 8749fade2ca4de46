package dev.sluice.dbd.server;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.auth.RequestAuthenticator;
import dev.sluice.common.auth.UserDb;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.dbd.config.DbdConfig;
import dev.sluice.dbd.store.AccountingStore;
import dev.sluice.dbd.store.AssociationEdits;
import dev.sluice.dbd.store.AssociationStore;
import dev.sluice.dbd.store.Database;
import dev.sluice.dbd.store.JobQueries;
import dev.sluice.dbd.store.PolicyStore;
import dev.sluice.dbd.store.QosStore;
import dev.sluice.dbd.store.UsageQueries;
import dev.sluice.dbd.store.UsageRollup;
import dev.sluice.protocol.auth.DaemonAuth;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running accounting daemon: the migrated database, the controllers' gRPC service (answering
 * only calls signed with the cluster key by root, SlurmUser or this daemon's account) and the
 * command socket. Ports of 0 bind ephemeral ports; {@link #commandPort} and {@link #grpcPort}
 * tell which. With {@link DbdConfig#GRPC_ABOVE} the gRPC port is the command port + 100 whatever
 * the command port turns out to be, so a controller finds it from AccountingStoragePort alone.
 */
public final class DbdServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DbdServer.class);

    private final Database db;
    private final Server grpc;
    private final CommandServer commands;
    private final int commandPort;
    private final UsageRollup rollup;
    private final RollupScheduler rollups;
    private final PolicyChanges changes;

    private DbdServer(
            Database db,
            Server grpc,
            CommandServer commands,
            int commandPort,
            UsageRollup rollup,
            RollupScheduler rollups,
            PolicyChanges changes) {
        this.db = db;
        this.grpc = grpc;
        this.commands = commands;
        this.commandPort = commandPort;
        this.rollup = rollup;
        this.rollups = rollups;
        this.changes = changes;
    }

    /** How many kernel-picked command ports to try for one whose gRPC neighbour is free too. */
    private static final int PAIR_ATTEMPTS = 50;

    /** The daemon's name in cluster credentials. */
    public static final String AUDIENCE = "slurmdbd";

    /**
     * With a cluster key made up for this process: neither commands nor controllers over the
     * network authenticate. Tests that talk to neither use it.
     */
    public static DbdServer start(DbdConfig config, InstantSource clock) throws IOException {
        byte[] secret = new byte[ClusterKeys.MIN_KEY_BYTES * 2];
        new java.security.SecureRandom().nextBytes(secret);
        return start(config, clock, ClusterKeys.of(new ClusterKeys.Key("ephemeral", secret)), Optional.empty());
    }

    /** With the cluster key, without user tokens. */
    public static DbdServer start(DbdConfig config, ClusterKeys keys, InstantSource clock) throws IOException {
        return start(config, clock, keys, Optional.empty());
    }

    /**
     * @param keys the cluster key beside slurmdbd.conf: controllers' calls and commands' credentials
     * @param userTokens the auth/jwt verifier, when slurmdbd.conf configures one
     */
    public static DbdServer start(
            DbdConfig config, InstantSource clock, ClusterKeys keys, Optional<UserTokens> userTokens)
            throws IOException {
        DaemonAuth auth = DaemonAuth.forThisProcess(
                keys, config.dbdAddr().isEmpty() ? "localhost" : config.dbdAddr(), List.of(), clock);
        log.info("accounting database {}", config.redactedUrl());
        Database db = Database.open(config.jdbcUrl(), config.storageUser(), config.storagePass(), config.poolSize());
        CommandServer commands = null;
        PolicyChanges changes = new PolicyChanges();
        Statistics stats = new Statistics(clock);
        try {
            AccountingStore store = new AccountingStore(db.dataSource(), clock);
            RequestAuthenticator authenticator = new RequestAuthenticator(
                    keys,
                    userTokens,
                    UserDb.system(),
                    AUDIENCE,
                    // Its SlurmUser is the user it runs as (as operators() has it).
                    new com.sun.security.auth.module.UnixSystem().getUsername());
            QueryHandler queries = new QueryHandler(
                    new JobQueries(db.dataSource()),
                    new AssociationStore(db.dataSource(), clock),
                    new AssociationEdits(db.dataSource()),
                    new QosStore(db.dataSource(), clock),
                    new UsageQueries(db.dataSource()),
                    new dev.sluice.dbd.store.TresStore(db.dataSource()),
                    new dev.sluice.dbd.store.WckeyStore(db.dataSource()),
                    new dev.sluice.dbd.store.JobEdits(db.dataSource()),
                    operators(),
                    changes,
                    stats);
            AccountingService accounting = new AccountingService(store, new PolicyStore(db.dataSource()), changes);
            Server grpc = null;
            InetSocketAddress bound = null;
            for (int attempt = 1; grpc == null; attempt++) {
                commands = new CommandServer(queries, authenticator, clock);
                bound = commands.start(address(config.dbdAddr(), config.dbdPort()));
                boolean above = config.grpcPort() == DbdConfig.GRPC_ABOVE;
                int grpcPort =
                        above ? bound.getPort() + dev.sluice.dbd.config.DbdConfigs.GRPC_PORT_OFFSET : config.grpcPort();
                try {
                    if (grpcPort > 65535) {
                        throw new java.net.BindException("port " + grpcPort + " does not exist");
                    }
                    grpc = NettyServerBuilder.forAddress(address(config.dbdAddr(), grpcPort))
                            .executor(Executors.newVirtualThreadPerTaskExecutor())
                            .addService(auth.protect(accounting, DaemonAuth.DBD))
                            .build()
                            .start();
                } catch (IOException e) {
                    commands.close();
                    commands = null;
                    // On port 0 the kernel picked the command port; its neighbour above is taken
                    // (or past 65535): another pick, until one has a free neighbour. Both stay
                    // bound from here on, so the pair reported is the pair held.
                    if (!above || attempt == PAIR_ATTEMPTS) {
                        throw e;
                    }
                }
            }
            String where = config.dbdAddr().isEmpty() ? "every address" : config.dbdAddr();
            log.info(
                    "sluice-dbd ready on {}: commands on port {}, controllers (gRPC) on port {}",
                    where,
                    bound.getPort(),
                    grpc.getPort());
            UsageRollup rollup = new UsageRollup(db.dataSource(), clock);
            RollupScheduler rollups = new RollupScheduler(rollup, clock, stats);
            rollups.start();
            return new DbdServer(db, grpc, commands, bound.getPort(), rollup, rollups, changes);
        } catch (IOException | RuntimeException e) {
            if (commands != null) {
                commands.close();
            }
            db.close();
            throw e;
        }
    }

    /** Root and the user the daemon runs as, which is its SlurmUser. */
    private static Set<Long> operators() {
        Set<Long> uids = new java.util.HashSet<>();
        uids.add(0L);
        uids.add(new com.sun.security.auth.module.UnixSystem().getUid());
        return uids;
    }

    private static InetSocketAddress address(String host, int port) {
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    public int commandPort() {
        return commandPort;
    }

    public int grpcPort() {
        return grpc.getPort();
    }

    /** The hourly rollup, which runs by itself at start-up and every hour; tests run it at will. */
    public UsageRollup rollup() {
        return rollup;
    }

    @Override
    public void close() {
        rollups.close();
        changes.close();
        grpc.shutdownNow();
        try {
            grpc.awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        commands.close();
        db.close();
    }
}
