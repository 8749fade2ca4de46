package dev.sluice.ctld.server;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.RequestAuthenticator;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.dispatch.NodeDispatcher;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.rpc.Reconfigurer;
import dev.sluice.protocol.auth.DaemonAuth;
import java.io.IOException;
import java.util.Map;

/**
 * Where {@code scontrol reconfigure} reads the configuration from, and the files it read last
 * (served to configless nodes, reported by {@code scontrol show config}). Made once by {@code
 * CtldMain} and kept across a controller restarted in place; each running controller gets its
 * own {@link Reconfiguration} from it, complete when made ({@link #against}).
 */
final class ConfigReloader {
    /** Reads the configuration as at start-up. */
    interface Source {
        CtldConfig load() throws ConfigException, IOException, AuthException;
    }

    private final Source source;
    private volatile Map<String, byte[]> files;
    private volatile ShowConfig report;

    ConfigReloader(Map<String, byte[]> files, ShowConfig report, Source source) {
        this.files = Map.copyOf(files);
        this.report = requireNonNull(report, "report is null");
        this.source = requireNonNull(source, "source is null");
    }

    /**
     * The reconfigure of one running controller.
     *
     * @param nodes null when effects go elsewhere (a simulation): then no node is asked
     * @param jobs submission, which checks jobs' licenses against slurm.conf's
     * @param commands the command sockets' authenticator, which a rotated key set reaches too
     */
    Reconfigurer against(
            ControllerLoop loop,
            NodeDispatcher nodes,
            DaemonAuth auth,
            JobControl jobs,
            RequestAuthenticator commands) {
        return new Reconfiguration(this, loop, nodes, auth, jobs, commands);
    }

    /** The files served by GetConfig now. */
    Map<String, byte[]> configFiles() {
        return files;
    }

    /** What {@code scontrol show config} reports now: the configuration last read. */
    ShowConfig showConfig() {
        return report;
    }

    Source source() {
        return source;
    }

    /** A reconfigure read these. */
    void read(Map<String, byte[]> newFiles, ShowConfig newReport) {
        files = newFiles;
        report = newReport;
    }
}
