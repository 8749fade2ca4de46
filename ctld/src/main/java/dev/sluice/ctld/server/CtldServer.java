package dev.sluice.ctld.server;

import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.loop.EffectSink;
import dev.sluice.ctld.rpc.Reconfigurer;
import java.io.IOException;
import java.time.InstantSource;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running controller: recovered state and the loop ({@link ControllerCore}), the command
 * sockets and the gRPC server ({@link CommandEndpoints}), and {@code /metrics} when asked for.
 * Ports of 0 in the configuration bind ephemeral ports; {@link #commandPort} and {@link
 * #grpcPort} tell which, and the files served to configless nodes carry them ({@link ServedPorts}).
 */
public final class CtldServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(CtldServer.class);
    /** The cluster credentials' audience for this daemon. */
    public static final String AUDIENCE = "slurmctld";

    private final ControllerCore core;
    private final CommandEndpoints endpoints;
    private final int metricsPort;

    private CtldServer(ControllerCore core, CommandEndpoints endpoints, int metricsPort) {
        this.core = core;
        this.endpoints = endpoints;
        this.metricsPort = metricsPort;
    }

    public static CtldServer start(
            CtldConfig config,
            InstantSource clock,
            String bindHost,
            boolean truncateCorruptJournal,
            Consumer<Throwable> fatal)
            throws IOException, InterruptedException {
        return start(config, clock, bindHost, truncateCorruptJournal, fatal, null);
    }

    /**
     * @param nodeEffects where launches, kills and signals go instead of real node daemons (a
     *     simulator or the select-query tool); null for the real gRPC dispatcher
     */
    public static CtldServer start(
            CtldConfig config,
            InstantSource clock,
            String bindHost,
            boolean truncateCorruptJournal,
            Consumer<Throwable> fatal,
            EffectSink nodeEffects)
            throws IOException, InterruptedException {
        return start(config, clock, bindHost, truncateCorruptJournal, fatal, nodeEffects, null, -1);
    }

    /**
     * @param reloader re-reads the files for {@code scontrol reconfigure}; null refuses it
     * @param metricsPort where {@code /metrics} is served (0: an ephemeral port); negative: not served
     */
    static CtldServer start(
            CtldConfig config,
            InstantSource clock,
            String bindHost,
            boolean truncateCorruptJournal,
            Consumer<Throwable> fatal,
            EffectSink nodeEffects,
            ConfigReloader reloader,
            int metricsPort)
            throws IOException, InterruptedException {
        ControllerCore core =
                ControllerCore.start(config, clock, truncateCorruptJournal, fatal, nodeEffects, metricsPort >= 0);
        CommandEndpoints endpoints = CommandEndpoints.open(config, bindHost, core, reloader, clock);
        log.info(
                "sluice-ctld for cluster {} ready: commands on {}:{}, daemons (gRPC) on {}:{}",
                config.clusterName(),
                bindHost,
                endpoints.commandPort,
                bindHost,
                endpoints.grpcPort());
        int servedMetricsPort = -1;
        if (core.metrics != null) {
            try {
                servedMetricsPort = core.metrics.serve(bindHost, metricsPort);
            } catch (IOException e) {
                endpoints.close();
                core.close();
                throw new IOException("cannot serve metrics on " + bindHost + ":" + metricsPort + ": " + e, e);
            }
            log.info("metrics on http://{}:{}/metrics", bindHost, servedMetricsPort);
        }
        return new CtldServer(core, endpoints, servedMetricsPort);
    }

    /** What {@code scontrol reconfigure} calls on this controller. */
    Reconfigurer reconfigurer() {
        return endpoints.reconfigurer;
    }

    public int commandPort() {
        return endpoints.commandPort;
    }

    public int grpcPort() {
        return endpoints.grpcPort();
    }

    /** The port {@code /metrics} is served on; -1 when metrics are off. */
    public int metricsPort() {
        return metricsPort;
    }

    public ControllerLoop loop() {
        return core.loop;
    }

    /** Accounting records not yet acknowledged by sluice-dbd; -1 when accounting is off. */
    public int accountingBacklog() {
        return core.accountingBacklog();
    }

    @Override
    public void close() {
        endpoints.close();
        core.close();
    }
}
