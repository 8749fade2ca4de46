package dev.sluice.packaging.sim;

import dev.sluice.cli.Caller;
import dev.sluice.cli.Command;
import dev.sluice.cli.Commands;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import dev.sluice.common.auth.AuthException;
import dev.sluice.common.auth.ClusterKeys;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.GresConf;
import dev.sluice.common.conf.GresConfReader;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.config.CommandSecurity;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.config.CtldConfigs;
import dev.sluice.ctld.control.ControlResult;
import dev.sluice.ctld.control.JobControl;
import dev.sluice.ctld.control.NodeControl;
import dev.sluice.ctld.control.NodePolicy;
import dev.sluice.ctld.server.CtldServer;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.StateRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A real controller (journal, loop, scheduler, allocator, command socket) over simulated nodes
 * and a manual clock: every configured node is registered and idle, launches are recorded
 * instead of run, and a job ends when the simulation says so. The user commands run as library
 * calls against it, so what they print is what a user would see. Drives the golden scenario
 * tests and {@code sluice select-query}.
 */
public final class SimulatedCluster implements AutoCloseable {
    private final CtldServer ctld;
    private final SimulatedNodes nodes;
    private final Registrar registrar;
    private final ManualClock clock;
    private final Path clientConf;
    private final Path workDir;
    private final JobControl jobs;

    private final CtldConfig config;
    private volatile long patienceSeconds = 30;

    private SimulatedCluster(
            CtldServer ctld,
            SimulatedNodes nodes,
            Registrar registrar,
            ManualClock clock,
            Path clientConf,
            Path workDir,
            JobControl jobs,
            CtldConfig config) {
        this.config = config;
        this.ctld = ctld;
        this.nodes = nodes;
        this.registrar = registrar;
        this.clock = clock;
        this.clientConf = clientConf;
        this.workDir = workDir;
        this.jobs = jobs;
    }

    /**
     * @param slurmConf the site's slurm.conf (gres.conf beside it is read too)
     * @param workDir scratch space: the controller's state and the commands' working directory
     */
    public static SimulatedCluster start(Path slurmConf, Path workDir, Instant start)
            throws IOException, ConfigException, InterruptedException {
        SlurmConf conf = SlurmConfReader.read(slurmConf);
        Path gresPath = slurmConf.toAbsolutePath().resolveSibling("gres.conf");
        GresConf gres = Files.exists(gresPath) ? GresConfReader.read(gresPath) : GresConfReader.parse("", "gres.conf");
        CtldConfig c = CtldConfigs.from(conf, gres, 0, Map.of());
        Path state = Files.createDirectories(workDir.resolve("state"));
        // The site's settings, but on this machine: ephemeral ports (port 0, the one bound is
        // written into the commands' slurm.conf below), a scratch state dir, and SlurmdTimeout=0
        // since simulated nodes never go silent.
        // A real cluster key beside the commands' slurm.conf: each command signs as the user it
        // runs for, so "@as alice" is alice to the controller, as on a real cluster.
        Path key = workDir.resolve(ClusterKeys.KEY_FILE);
        if (!Files.exists(key)) {
            ClusterKeys.generate(key);
        }
        ClusterKeys keys;
        try {
            keys = ClusterKeys.load(key);
        } catch (AuthException e) {
            throw new IOException(e.getMessage(), e);
        }
        CtldConfig local = c.toBuilder()
                .controlHost("localhost")
                .slurmctldPort(0)
                .grpcPort(0)
                .stateSaveLocation(state.toString())
                .slurmdTimeoutSeconds(0)
                .memberships(List.of())
                .nodePolicy(NodePolicy.DEFAULT)
                .clusterKeys(keys)
                // No local socket here: it would make every command the test's own user.
                .security(new CommandSecurity(
                        c.security().userTokens(),
                        c.security().slurmUser(),
                        c.security().privateJobs(),
                        c.security().maxScriptBytes(),
                        c.security().maxEnvBytes(),
                        ""))
                .build();
        ManualClock clock = new ManualClock(start);
        // The nodes report through an outbox that a registrar drains into the controller, so the
        // nodes are built before the controller that needs them, and nothing is wired afterwards.
        ReportOutbox reports = new ReportOutbox();
        SimulatedNodes nodes = new SimulatedNodes(reports);
        CtldServer ctld = CtldServer.start(local, clock, "127.0.0.1", false, e -> {}, nodes);
        Registrar registrar = Registrar.start(reports, ctld.loop());
        // StateSaveLocation too: without it the commands would look for the controller's socket
        // in the default place, where a real cluster on this machine may be listening. GresTypes:
        // the commands refuse a --gres the configuration does not name, as Slurm's do.
        Path client = workDir.resolve("client-slurm.conf");
        Files.writeString(
                client,
                "ClusterName=" + c.clusterName() + "\nSlurmctldHost=localhost(127.0.0.1)\n" + "SlurmctldPort="
                        + ctld.commandPort()
                        + "\nStateSaveLocation=" + state + "\n"
                        + (conf.gresTypes().isEmpty() ? "" : "GresTypes=" + String.join(",", conf.gresTypes()) + "\n"));
        JobControl jobs = JobControl.builder(local.scheduler().select())
                .maxArraySize(local.jobs().maxArraySize())
                .build();
        SimulatedCluster cluster = new SimulatedCluster(ctld, nodes, registrar, clock, client, workDir, jobs, local);
        cluster.registerAll(local);
        return cluster;
    }

    private void registerAll(CtldConfig config) throws InterruptedException {
        NodeControl nodes = new NodeControl(0, NodePolicy.DEFAULT);
        // Queued together so that thousands of nodes register in a few batches, not one each.
        List<java.util.concurrent.CompletableFuture<?>> registered = new ArrayList<>();
        for (Node n : config.nodes()) {
            NodeControl.Registration reg = new NodeControl.Registration(
                    n.name(),
                    new NodeEndpoint(
                            n.endpoint().hostname(),
                            n.endpoint().addr(),
                            n.endpoint().port()),
                    new NodeEquipment(n.hardware(), List.of(), ""),
                    new DaemonReport(1, "simulated", NodeFacts.NONE),
                    false,
                    Set.of(),
                    Optional.empty());
            registered.add(ctld.loop().submit((s, now) -> nodes.register(s, reg, now)));
        }
        for (java.util.concurrent.CompletableFuture<?> f : registered) {
            await(f);
        }
    }

    private <T> T await(java.util.concurrent.CompletableFuture<T> f) throws InterruptedException {
        try {
            return f.get(patienceSeconds, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    public ManualClock clock() {
        return clock;
    }

    /** Moves time on and lets the controller run its periodic work and a scheduling pass. */
    public void advance(long seconds) throws InterruptedException {
        clock.advanceSeconds(seconds);
        settle();
    }

    /** Waits until the controller has handled everything submitted so far and scheduled. */
    public void settle() throws InterruptedException {
        // The nodes' reports of what was done so far (a cancelled job's end) go first, as they
        // would have reached the controller before the next thing asked of it.
        registrar.flush();
        await(ctld.loop().submit((s, now) -> ControlResult.answer(null)));
        // A second round trip: the pass that follows the first may have started jobs (or ended
        // them, whose reports go first again).
        registrar.flush();
        await(ctld.loop().submit((s, now) -> ControlResult.answer(null)));
    }

    /** The batch script of a running job ({@code 12} or an array task {@code 10_3}) ends with this code. */
    public void end(String name, int exitCode) throws InterruptedException {
        Job job = ctld.loop().image().jobs().stream()
                .filter(j -> j.displayId().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no job " + name));
        int jobId = job.id();
        if (!job.isRunning()) {
            throw new IllegalArgumentException("job " + jobId + " is not running");
        }
        String host = job.allocation().batchHost();
        await(ctld.loop()
                .submit((s, now) ->
                        dev.sluice.ctld.control.BatchEnds.complete(s, host, jobId, (exitCode & 0xff) << 8, null, now)));
        settle();
    }

    /** Ends a running job as its node would for a reason of its own (TIMEOUT, ...). */
    public void endAs(int jobId, JobState state) throws InterruptedException {
        Job job = ctld.loop().image().job(jobId).orElseThrow();
        String host = job.allocation().batchHost();
        await(ctld.loop()
                .submit((s, now) -> dev.sluice.ctld.control.BatchEnds.complete(s, host, jobId, 0, state, now)));
        settle();
    }

    /** How long to wait for the controller before calling it stuck (scale runs need longer). */
    public void patience(long seconds) {
        patienceSeconds = seconds;
    }

    /** The controller's configuration as this simulation runs it. */
    public CtldConfig config() {
        return config;
    }

    /**
     * Submits many jobs in one controller command, as if each came through {@code sbatch}, so
     * that a large queue builds up in one batch and one scheduling pass. Each request is checked
     * by the real submission path; the first refused one fails the whole call and changes nothing.
     *
     * @return the job ids, in request order
     */
    public List<Integer> submitAll(List<JobRequest> requests) throws InterruptedException {
        return await(ctld.loop().submit((s, now) -> {
            List<StateRecord> records = new ArrayList<>(requests.size());
            List<Integer> ids = new ArrayList<>(requests.size());
            Map<JobRequest, StateRecord.JobSubmitted> checked = new HashMap<>();
            int next = s.nextJobId();
            for (JobRequest request : requests) {
                // Identical requests get identical answers: check each distinct one once.
                StateRecord.JobSubmitted template = checked.computeIfAbsent(request, r -> (StateRecord.JobSubmitted)
                        jobs.submit(s, r, now).records().getFirst());
                records.add(new StateRecord.JobSubmitted(
                        next, request, template.partition(), template.timeLimitMinutes(), now));
                ids.add(next++);
            }
            return ControlResult.of(records, List.of(), ids);
        }));
    }

    public List<Integer> launched() {
        return nodes.launched();
    }

    public dev.sluice.ctld.state.ClusterImage image() {
        return ctld.loop().image();
    }

    /** What a command printed and returned. */
    public record Output(int exitCode, String out, String err) {}

    /** Runs a user command as {@code caller} with the simulated time. */
    public Output run(Caller caller, String command, List<String> args, String stdin) throws InterruptedException {
        Command cmd = Commands.byName(command).orElseThrow(() -> new IllegalArgumentException("no command " + command));
        Map<String, String> env = new HashMap<>();
        env.put("SLURM_CONF", clientConf.toString());
        env.put("PATH", "/usr/bin:/bin");
        env.put("USER", caller.userName());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // A fixed, virtual working directory: nothing runs, and printed paths stay the same.
        Invocation inv = new Invocation(
                args,
                env,
                Path.of("/home", caller.userName()),
                new ByteArrayInputStream(stdin == null ? new byte[0] : stdin.getBytes(StandardCharsets.UTF_8)),
                caller,
                clock,
                users(caller));
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = cmd.run(inv, o, e);
        }
        settle();
        return new Output(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static UserDirectory users(Caller caller) {
        return UserDirectory.fromLines(
                List.of(
                        "root:x:0:0::/root:/bin/sh",
                        caller.userName() + ":x:" + caller.uid() + ":" + caller.gid() + "::/home/" + caller.userName()
                                + ":/bin/sh"),
                List.of("root:x:0:", caller.userName() + ":x:" + caller.gid() + ":"));
    }

    public Path workDir() {
        return workDir;
    }

    @Override
    public void close() {
        ctld.close();
        registrar.close();
    }

    /** Removes a scratch directory and everything in it (its cluster key among them). */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (var tree = Files.walk(dir)) {
            for (Path p : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
