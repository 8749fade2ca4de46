package dev.sluice.cli.client;

import dev.sluice.common.conf.ConfigException;
import java.nio.file.Path;

/**
 * Where a command gets what it needs to reach the controllers. A command in its own JVM reads
 * the files and connects afresh ({@link #perCall()}); sluice-agent, serving call after call,
 * keeps both ({@link CachedClientSetup}).
 */
public interface ClientSetup {
    /** slurm.conf at {@code slurmConfPath} and what lies beside it. */
    ClusterAccess access(Path slurmConfPath) throws ConfigException;

    Transport transport();

    /** Shares listings between callers asking the same at the same time; none outside the agent. */
    default QueryCoalescer queries() {
        return QueryCoalescer.NONE;
    }

    /** Reads everything on every call; one connection per request. */
    static ClientSetup perCall() {
        return PerCall.INSTANCE;
    }

    /** The standalone command's setup. */
    enum PerCall implements ClientSetup {
        INSTANCE;

        private final Transport transport = Transport.perCall();

        @Override
        public ClusterAccess access(Path slurmConfPath) throws ConfigException {
            return ClusterAccess.read(slurmConfPath);
        }

        @Override
        public Transport transport() {
            return transport;
        }
    }
}
