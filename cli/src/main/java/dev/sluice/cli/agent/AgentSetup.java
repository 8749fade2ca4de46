package dev.sluice.cli.agent;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.caller.CallerFileException;
import dev.sluice.cli.caller.CallerSide;
import dev.sluice.cli.client.ClientSetup;
import dev.sluice.cli.client.ClusterAccess;
import dev.sluice.cli.client.QueryCoalescer;
import dev.sluice.cli.client.Transport;
import dev.sluice.common.conf.ConfigException;
import java.nio.file.Path;

/**
 * Which calls the agent serves: those of callers whose slurm.conf is the one the agent was
 * started for, and who may read every configuration file the answer comes from. The agent
 * reads its own configuration (and the cluster key beside it) with its own rights and asks the
 * caller's front end only whether the caller could open those files too. A caller naming any
 * other file (SLURM_CONF), or one who could not read the agent's, is told to run the command in
 * a JVM of its own ({@link NotServed}), so the agent never parses a file a caller chose and
 * never shows anyone a configuration they could not read themselves.
 */
public final class AgentSetup {
    private final Path conf;
    private final ClientSetup shared;

    /**
     * @param conf the slurm.conf this agent serves
     * @param shared keeps that configuration and the controller connections between calls
     */
    public AgentSetup(Path conf, ClientSetup shared) {
        this.conf = requireNonNull(conf, "conf is null").toAbsolutePath().normalize();
        this.shared = requireNonNull(shared, "shared is null");
    }

    public Path conf() {
        return conf;
    }

    /** The setup one call sees; {@code caller} is that call's front end. */
    ClientSetup forCall(CallerSide caller) {
        return new Call(caller);
    }

    /**
     * This call is not the agent's to serve: the caller's own JVM must run it, and will say
     * whatever is wrong with the configuration in the caller's terms and with the caller's rights.
     */
    static final class NotServed extends RuntimeException {
        NotServed(String why) {
            super(why, null, false, false);
        }
    }

    private final class Call implements ClientSetup {
        private final CallerSide caller;
        private ClusterAccess checked;

        Call(CallerSide caller) {
            this.caller = caller;
        }

        @Override
        public ClusterAccess access(Path slurmConfPath) {
            if (!slurmConfPath.toAbsolutePath().normalize().equals(conf)) {
                throw new NotServed("the caller's slurm.conf is " + slurmConfPath + ", not " + conf);
            }
            ClusterAccess access;
            try {
                access = shared.access(conf);
            } catch (ConfigException | IllegalArgumentException e) {
                throw new NotServed(conf + " cannot be used: " + e.getMessage());
            }
            if (access != checked) {
                for (Path file : access.readFiles()) {
                    try {
                        caller.checkReadable(file.toString());
                    } catch (CallerFileException e) {
                        throw new NotServed("the caller cannot read " + file + ": " + e.reason());
                    }
                }
                checked = access;
            }
            return access;
        }

        @Override
        public Transport transport() {
            return shared.transport();
        }

        @Override
        public QueryCoalescer queries() {
            return shared.queries();
        }
    }
}
