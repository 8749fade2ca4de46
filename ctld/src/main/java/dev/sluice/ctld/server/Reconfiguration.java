package dev.sluice.ctld.server;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.RequestAuthenticator;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.show.ShowConfig;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.control.SoftChange;
import dev.sluice.ctld.dispatch.NodeDispatcher;
import dev.sluice.ctld.loop.ControllerLoop;
import dev.sluice.ctld.rpc.Reconfigurer;
import dev.sluice.protocol.auth.DaemonAuth;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code scontrol reconfigure}: reads the files again, serves the new ones to configless nodes,
 * hands the loop the node and partition definitions (new nodes, partitions and their dynamic
 * rules), then asks every responding node daemon to fetch and register again, so a changed
 * gres.conf is checked at once. The cluster keys are read again too, which is how a key is
 * rotated in (see docs/security.md). Scheduler settings (preemption, backfill) and
 * {@code Licenses} act from the next pass; timeouts and ports still need a restart, as several
 * of them do in Slurm; {@code scontrol show config} reports the new files at once.
 *
 * <p>One per running controller, complete when made ({@link ConfigReloader#against}); the files
 * last read are the reloader's, which outlives a controller restarted in place.
 */
final class Reconfiguration implements Reconfigurer {
    private static final Logger log = LoggerFactory.getLogger(Reconfiguration.class);

    private final ConfigReloader reloader;
    private final ControllerLoop loop;
    private final NodeDispatcher dispatcher;
    private final JobControl jobs;
    private final DaemonAuth auth;
    private final RequestAuthenticator commands;

    /**
     * @param dispatcher null when effects go elsewhere (a simulation): then no node is asked
     * @param jobs submission, which checks jobs' licenses against slurm.conf's
     * @param commands the command sockets' authenticator, which a rotated key set reaches too
     */
    Reconfiguration(
            ConfigReloader reloader,
            ControllerLoop loop,
            NodeDispatcher dispatcher,
            DaemonAuth auth,
            JobControl jobs,
            RequestAuthenticator commands) {
        this.reloader = requireNonNull(reloader, "reloader is null");
        this.loop = requireNonNull(loop, "loop is null");
        this.dispatcher = dispatcher;
        this.auth = requireNonNull(auth, "auth is null");
        this.jobs = requireNonNull(jobs, "jobs is null");
        this.commands = commands;
    }

    @Override
    public Map<String, byte[]> configFiles() {
        return reloader.configFiles();
    }

    @Override
    public ShowConfig showConfig() {
        return reloader.showConfig();
    }

    @Override
    public void reconfigure() {
        CtldConfig fresh;
        try {
            fresh = reloader.source().load();
        } catch (ConfigException | IOException | AuthException e) {
            // The running configuration stays: a typo must not take the cluster down.
            throw new SlurmException(ErrorCode.INVALID_ARGUMENT, "reconfigure refused: " + e.getMessage());
        }
        try {
            loop.submit((state, now) -> new ControlResult<Void>(
                            List.of(),
                            List.of(new SoftChange.Reconfigured(
                                    fresh.nodes(),
                                    fresh.partitions(),
                                    fresh.topology().memberships())),
                            List.of(),
                            null))
                    .get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new SlurmException(ErrorCode.UNEXPECTED, "reconfigure: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlurmException(ErrorCode.UNEXPECTED, "interrupted");
        }
        // Scheduler settings (PreemptType, PreemptMode, SchedulerParameters) act from the next
        // pass on, as Slurm's reconfigure reloads its preempt plugin.
        // The gang scheduler's turns and the priority calculation keep their clocks: slurmctld's
        // timeslicer and its PriorityCalcPeriod timer run on through a reconfigure.
        long turns = loop.scheduler().config().preempt().sliceEpoch();
        var priority = loop.scheduler().config().priority();
        loop.useScheduler(new dev.sluice.ctld.sched.Scheduler(
                fresh.scheduler().turnsFrom(turns).withPriorityEpoch(priority.calcEpoch(), priority.earlierStarts())));
        // Licenses= too (Slurm 22.05 rereads them: scontrol show licenses lists the new ones and
        // jobs may ask for them at once); the next pass counts them.
        jobs.useLicenses(fresh.scheduler().select().licenses());
        // As Slurm's: show config reports the files just read, also what needs a restart to act.
        reloader.read(fresh.files().configFiles(), fresh.files().showConfig());
        // A rotated slurm.jwks takes effect here, before the nodes are asked to reconfigure.
        auth.reload(fresh.access().clusterKeys());
        if (commands != null) {
            commands.reload(fresh.access().clusterKeys());
        }
        if (dispatcher != null) {
            dispatcher.reconfigureNodes(loop.image());
        }
        log.info(
                "reconfigured: {} nodes, {} partitions",
                fresh.nodes().size(),
                fresh.partitions().size());
    }
}
