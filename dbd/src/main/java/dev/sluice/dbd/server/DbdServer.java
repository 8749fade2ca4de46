package dev.sluice.dbd.server;

import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.dbd.config.DbdConfig;
import dev.sluice.dbd.store.AccountingStore;
import dev.sluice.dbd.store.AssociationStore;
import dev.sluice.dbd.store.Database;
import dev.sluice.dbd.store.JobQueries;
import dev.sluice.protocol.auth.DaemonAuth;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running accounting daemon: the migrated database, the controllers' gRPC service (answering
 * only calls signed with the cluster key by root, SlurmUser or this daemon's account) and the
 * command socket. Ports of 0 bind ephemeral ports (tests); {@link #commandPort} and
 * {@link #grpcPort} tell which.
 */
public final class DbdServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(DbdServer.class);

    private final Database db;
    private final Server grpc;
    private final CommandServer commands;
    private final int commandPort;

    private DbdServer(Database db, Server grpc, CommandServer commands, int commandPort) {
        this.db = db;
        this.grpc = grpc;
        this.commands = commands;
        this.commandPort = commandPort;
    }

    public static DbdServer start(DbdConfig config, ClusterKeys keys, InstantSource clock) throws IOException {
        DaemonAuth auth = DaemonAuth.forThisProcess(
                keys, config.dbdAddr().isEmpty() ? "localhost" : config.dbdAddr(), List.of(), clock);
        log.info("accounting database {}", config.redactedUrl());
        Database db = Database.open(config.jdbcUrl(), config.storageUser(), config.storagePass(), config.poolSize());
        CommandServer commands = null;
        try {
            AccountingStore store = new AccountingStore(db.dataSource(), clock);
            commands = new CommandServer(
                    new QueryHandler(new JobQueries(db.dataSource()), new AssociationStore(db.dataSource(), clock)));
            InetSocketAddress bound = commands.start(address(config.dbdAddr(), config.dbdPort()));
            Server grpc = NettyServerBuilder.forAddress(address(config.dbdAddr(), config.grpcPort()))
                    .executor(Executors.newVirtualThreadPerTaskExecutor())
                    .addService(auth.protect(new AccountingService(store), DaemonAuth.DBD))
                    .build()
                    .start();
            log.info(
                    "sluice-dbd ready: commands on port {}, controllers (gRPC) on port {}",
                    bound.getPort(),
                    grpc.getPort());
            return new DbdServer(db, grpc, commands, bound.getPort());
        } catch (IOException | RuntimeException e) {
            if (commands != null) {
                commands.close();
            }
            db.close();
            throw e;
        }
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

    @Override
    public void close() {
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
