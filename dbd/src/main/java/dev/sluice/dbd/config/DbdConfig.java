package dev.sluice.dbd.config;

import static java.util.Objects.requireNonNull;

/**
 * The accounting daemon's settings.
 *
 * @param dbdAddr address the command and gRPC ports bind (slurmdbd.conf {@code DbdAddr}, or with
 *     {@code CommunicationParameters=NoInAddrAny} DbdAddr, else DbdHost; empty: every address)
 * @param dbdPort the command socket sacct connects to ({@code DbdPort}, Slurm's 6819; 0 = ephemeral)
 * @param grpcPort the controllers' gRPC port ({@code DbdPort} + {@value DbdConfigs#GRPC_PORT_OFFSET}
 *     unless given; 0 = ephemeral; {@link #GRPC_ABOVE}: 100 above whatever port {@code dbdPort} binds)
 * @param jdbcUrl where the accounting database is
 */
public record DbdConfig(
        String dbdAddr,
        int dbdPort,
        int grpcPort,
        String jdbcUrl,
        String storageUser,
        String storagePass,
        int poolSize) {
    /**
     * The gRPC port of a daemon whose command port is 0: the command port's neighbour 100 above,
     * picked together with it (the controller derives it from AccountingStoragePort).
     */
    public static final int GRPC_ABOVE = -1;

    public DbdConfig {
        requireNonNull(dbdAddr, "dbdAddr is null");
        requireNonNull(jdbcUrl, "jdbcUrl is null");
        requireNonNull(storageUser, "storageUser is null");
        requireNonNull(storagePass, "storagePass is null");
        if (poolSize < 1) {
            throw new IllegalArgumentException("poolSize must be positive: " + poolSize);
        }
    }

    /** The URL without a password, for logs. */
    public String redactedUrl() {
        return jdbcUrl.replaceAll("(?i)(password=)[^&;]*", "$1***");
    }
}
