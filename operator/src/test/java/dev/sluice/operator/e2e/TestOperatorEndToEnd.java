package dev.sluice.operator.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.operator.SluiceOperator;
import dev.sluice.operator.cluster.KeyedClusters;
import dev.sluice.operator.crd.ContainerWrapper;
import dev.sluice.operator.crd.Controller;
import dev.sluice.operator.crd.NodeSet;
import dev.sluice.operator.metrics.AutoscalingMetrics;
import dev.sluice.operator.metrics.Scrape;
import dev.sluice.operator.reconcile.MockApi;
import dev.sluice.operator.reconcile.Resources;
import dev.sluice.operator.render.Names;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A Sluice cluster from custom resources, end to end: the operator on the mock API server, and
 * {@link Kubelet} running each pod's real daemon. A Controller and a NodeSet of two come up and
 * run a job; the NodeSet scaled to 4 and back to 1 while a job holds one node keeps that node;
 * the controller's pod deleted comes back with the job still running, and the job completes; a
 * rolling upgrade under 50 jobs replaces one node at a time and kills none; the controller killed
 * outright loses neither its running nor its pending jobs.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestOperatorEndToEnd {
    private static final Duration UP = Duration.ofSeconds(90);

    /** Kept after the run (target/ is cleaned by the build): the daemons' logs are the diagnosis. */
    private static Path dir;

    private static MockApi api;
    private static KubernetesClient client;
    private static SluiceOperator operator;
    private static Kubelet kubelet;
    private static Commands commands;
    private static Path work;
    private static Path operatorDir;
    private static AutoscalingMetrics metrics;
    private static int metricsPort;

    @BeforeAll
    static void up() throws Exception {
        dir = Path.of("target/operator-e2e").toAbsolutePath();
        deleteTree(dir);
        byte[] key = new byte[64];
        new SecureRandom().nextBytes(key);
        api = new MockApi(key);
        client = api.client();
        Path opDir = Files.createDirectories(dir.resolve("operator"));
        operator = new SluiceOperator(
                client,
                new KeyedClusters(opDir, c -> "127.0.0.1", Clock.systemUTC()),
                Clock.systemUTC(),
                SluiceOperator.Images.defaults(),
                Optional.empty());
        operator.start();
        metrics = new AutoscalingMetrics(
                client, new KeyedClusters(opDir, c -> "127.0.0.1", Clock.systemUTC()), Clock.systemUTC());
        metricsPort = metrics.serve(0);
        kubelet = new Kubelet(client, MockApi.NS, Files.createDirectories(dir.resolve("kubelet")));
        kubelet.start();
        work = Files.createDirectories(dir.resolve("work"));
        int port = freePortWithGrpcAbove();
        // The user commands have a client configuration of their own, with the cluster key: the
        // operator's directory holds no key once its own token is in use.
        Path clientDir = Files.createDirectories(dir.resolve("client"));
        Files.writeString(
                clientDir.resolve("slurm.conf"),
                "ClusterName=lab\nSlurmctldHost=lab-0(127.0.0.1)\nSlurmctldPort=" + port + "\nStateSaveLocation="
                        + clientDir.resolve("none") + "\n");
        Files.write(clientDir.resolve("slurm.key"), key);
        Files.setPosixFilePermissions(
                clientDir.resolve("slurm.key"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        commands = new Commands(clientDir.resolve("slurm.conf"), work);
        byte[] jwtKey = new byte[32];
        new SecureRandom().nextBytes(jwtKey);
        client.resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
                        .withNewMetadata()
                        .withName("sluice-jwt")
                        .withNamespace(MockApi.NS)
                        .endMetadata()
                        .addToData(
                                "jwt_hs256.key", java.util.Base64.getEncoder().encodeToString(jwtKey))
                        .build())
                .create();
        Controller lab = Resources.controller(
                "lab",
                port,
                "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSlurmdTimeout=60\nKillWait=5\n"
                        // The stand-in kubelet runs the controller as this user, its SlurmUser.
                        + "SlurmUser=" + System.getProperty("user.name") + "\n");
        // With a JWT key the operator mints its own token (for SlurmUser) and drains, resumes and
        // deletes nodes with it, not with the cluster key.
        lab.getSpec().jwtHs256KeyRef =
                new io.fabric8.kubernetes.api.model.SecretKeySelector("jwt_hs256.key", "sluice-jwt", false);
        client.resource(lab).create();
        operatorDir = opDir.resolve(MockApi.NS).resolve("lab");
        client.resource(Resources.nodeSet("gpu", "lab", 2, 600)).create();
    }

    @AfterAll
    static void down() {
        if (metrics != null) {
            metrics.close();
        }
        if (kubelet != null) {
            kubelet.close();
        }
        if (operator != null) {
            operator.close();
        }
        if (api != null) {
            api.close();
        }
    }

    private static NodeSet nodeSet() {
        return client.resources(NodeSet.class)
                .inNamespace(MockApi.NS)
                .withName("gpu")
                .get();
    }

    private static String logs() throws IOException {
        StringBuilder s = new StringBuilder();
        for (String pod : List.of("lab-0", "gpu-0", "gpu-1", "gpu-2", "gpu-3")) {
            s.append("==== ").append(pod).append('\n').append(kubelet.logOf(pod));
        }
        return s.toString();
    }

    private static void awaitIdleNodes(int n) throws IOException {
        try {
            await().atMost(UP).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                NodeSet s = nodeSet();
                assertThat(s.getStatus()).isNotNull();
                assertThat(s.getStatus().slurmIdle).isEqualTo(n);
                assertThat(s.getStatus().readyReplicas).isEqualTo(n);
            });
        } catch (AssertionError | org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(logs(), e);
        }
    }

    private static String submit(String... args) throws Exception {
        Commands.Result r = commands.run("sbatch", args);
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.out().replaceAll("\\D", "");
    }

    private static void awaitState(String id, String state) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(
                                commands.run("scontrol", "show", "job", id).out())
                        .contains("JobState=" + state));
    }

    @Test
    @Order(1)
    void aControllerAndTwoNodesFromCustomResourcesRunAJob() throws Exception {
        awaitIdleNodes(2);
        await().atMost(UP)
                .untilAsserted(() -> assertThat(client.resources(Controller.class)
                                .inNamespace(MockApi.NS)
                                .withName("lab")
                                .get()
                                .getStatus()
                                .conditions)
                        .anySatisfy(c -> {
                            assertThat(c.getType()).isEqualTo("Available");
                            assertThat(c.getStatus()).isEqualTo("True");
                        }));
        assertThat(commands.run("sinfo", "-h", "-p", "gpu", "-o", "%P %D %t").out())
                .isEqualTo("gpu 2 idle\n");
        // The operator reaches the controller with its own token, minted for SlurmUser.
        await().atMost(UP).untilAsserted(() -> {
            assertThat(operatorDir.resolve("slurm.conf")).exists();
            assertThat(operatorDir.resolve("slurm.key")).doesNotExist();
        });
        assertThat(client.secrets()
                        .inNamespace(MockApi.NS)
                        .withName("lab-operator-token")
                        .get())
                .isNotNull();
        String id = submit("-p", "gpu", "-N", "2", "--wrap", "echo hello from $SLURM_JOB_NODELIST");
        awaitState(id, "COMPLETED");
        // Dynamic nodes are indexed in registration order, which the host list follows.
        assertThat(Files.readString(work.resolve("slurm-" + id + ".out"))).matches("hello from gpu-\\[(0-1|1,0)\\]\n");
    }

    @Test
    @Order(2)
    void scaledToFourAndBackToOneTheBusyNodeSurvivesAndItsJobCompletes() throws Exception {
        client.resources(NodeSet.class).inNamespace(MockApi.NS).withName("gpu").scale(4);
        awaitIdleNodes(4);
        String id = submit(
                "-w",
                "gpu-2",
                "--wrap",
                "while [ ! -e go ]; do sleep 0.2; done; echo done on $(hostname -s) $SLURMD_NODENAME");
        awaitState(id, "RUNNING");
        String wide = submit("-p", "gpu", "-N", "4", "--wrap", "true");
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(
                        () -> assertThat(Scrape.lines(metricsPort, "sluice_partition_"))
                                .contains(
                                        "sluice_partition_idle_nodes{controller=\"lab\",namespace=\"hpc\",partition=\"gpu\"} 3.0",
                                        "sluice_partition_pending_jobs{controller=\"lab\",namespace=\"hpc\",partition=\"gpu\"} 1.0",
                                        "sluice_partition_pending_cpus{controller=\"lab\",namespace=\"hpc\",partition=\"gpu\"} 4.0",
                                        "sluice_partition_pending_gpus{controller=\"lab\",namespace=\"hpc\",partition=\"gpu\"} 0.0"));
        assertThat(commands.run("scancel", wide).exitCode()).isZero();

        client.resources(NodeSet.class).inNamespace(MockApi.NS).withName("gpu").scale(1);

        await().atMost(UP)
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(client.pods()
                                .inNamespace(MockApi.NS)
                                .withLabel("sluice.dev/nodeset", "gpu")
                                .list()
                                .getItems())
                        .extracting(p -> p.getMetadata().getName())
                        .containsExactly("gpu-2"));
        assertThat(commands.run("scontrol", "show", "job", id).out()).contains("JobState=RUNNING");

        // The controller's pod deleted: its StatefulSet makes a new one on the same claim, which
        // recovers the running job from StateSaveLocation.
        long before = kubelet.process("lab-0").pid();
        client.pods().inNamespace(MockApi.NS).withName("lab-0").delete();
        await().atMost(UP).until(() -> {
            Process p = kubelet.process("lab-0");
            return p != null && p.pid() != before;
        });
        awaitState(id, "RUNNING");
        Files.createFile(work.resolve("go"));
        awaitState(id, "COMPLETED");
        assertThat(Files.readString(work.resolve("slurm-" + id + ".out"))).endsWith("gpu-2\n");
        await().atMost(UP).untilAsserted(() -> {
            assertThat(nodeSet().getStatus().replicas).isEqualTo(1);
            assertThat(commands.run("sinfo", "-h", "-o", "%N").out()).isEqualTo("gpu-2\n");
        });
    }

    @Test
    @Order(3)
    void aRollingUpgradeUnderFiftyJobsReplacesOneNodeAtATimeAndKillsNoJob() throws Exception {
        gpuSet().scale(3);
        awaitIdleNodes(3);
        try (RollingObserver watch = new RollingObserver(client, MockApi.NS, "gpu", 3);
                NodeSampler sampler = sampler("gpu-0", "gpu-1", "gpu-2")) {
            await().atMost(UP).until(watch::synced);
            Set<String> before =
                    gpuPods().stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
            watch.reset();
            String array = submit("-p", "gpu", "--array=1-50", "-o", "rolling-%a.out", "--wrap", "sleep 1; echo ok");
            await().atMost(UP)
                    .pollInterval(Duration.ofMillis(300))
                    .untilAsserted(() -> assertThat(commands.run("squeue", "-h", "-t", "R", "-o", "%N")
                                    .out()
                                    .lines()
                                    .sorted())
                            .containsExactly("gpu-0", "gpu-1", "gpu-2"));
            String image = "registry.example/sluice-noded:0.2.0";
            gpuSet().edit(s -> {
                s.getSpec().slurmd = new ContainerWrapper();
                s.getSpec().slurmd.image = image;
                return s;
            });
            try {
                await().atMost(UP).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    assertThat(gpuPods()).hasSize(3).allSatisfy(p -> {
                        assertThat(before).doesNotContain(p.getMetadata().getUid());
                        assertThat(p.getSpec().getContainers().getFirst().getImage())
                                .isEqualTo(image);
                        assertThat(p.getMetadata().getAnnotations()).doesNotContainKey(Names.ANNOTATION_DRAINED_AT);
                    });
                    assertThat(commands.run("squeue", "-h").out()).isEmpty();
                });
            } catch (AssertionError | org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError(logs(), e);
            }
            // Every node was drained before its pod went, and never two out of service at once,
            // neither as pods nor as nodes of the controller.
            assertThat(sampler.samples()).isGreaterThan(10);
            assertThat(sampler.maxOut()).isEqualTo(1);
            assertThat(watch.deletedUndrained()).isEmpty();
            assertThat(watch.deleted()).hasSize(3);
            assertThat(watch.maxUnavailable()).isEqualTo(1);
            assertThat(client.v1().events().inNamespace(MockApi.NS).list().getItems().stream()
                            .filter(e -> e.getReason().equals("NodeReplacing"))
                            .map(e -> e.getMessage().split(" ")[1])
                            .sorted())
                    .containsExactly("gpu-0", "gpu-1", "gpu-2");
            // No job was killed or requeued: all 50 completed with their output, exit 0, no restart.
            String jobs = commands.run("scontrol", "show", "job", array).out();
            assertThat(count(jobs, "JobState=COMPLETED")).as(jobs).isEqualTo(50);
            assertThat(count(jobs, "Restarts=0")).as(jobs).isEqualTo(50);
            assertThat(count(jobs, "ExitCode=0:0")).as(jobs).isEqualTo(50);
            for (int task = 1; task <= 50; task++) {
                assertThat(work.resolve("rolling-" + task + ".out")).hasContent("ok");
            }
        }
        await().atMost(UP)
                .untilAsserted(() -> assertThat(commands.run("sinfo", "-h", "-p", "gpu", "-o", "%D %t")
                                .out())
                        .isEqualTo("3 idle\n"));
    }

    @Test
    @Order(4)
    void theControllerPodKilledAndRecreatedLosesNoJob() throws Exception {
        String holder = submit("-p", "gpu", "-N", "3", "--wrap", "while [ ! -e go-again ]; do sleep 0.2; done");
        awaitState(holder, "RUNNING");
        String queued = submit("-p", "gpu", "--array=1-10", "-o", "queued-%a.out", "--wrap", "echo ok");
        Process ctld = kubelet.process("lab-0");
        long before = ctld.pid();
        // Killed, not stopped: no chance to save anything on the way out.
        ctld.destroyForcibly().waitFor();
        client.pods().inNamespace(MockApi.NS).withName("lab-0").delete();
        await().atMost(UP).until(() -> {
            Process p = kubelet.process("lab-0");
            return p != null && p.pid() != before && p.isAlive();
        });
        awaitState(holder, "RUNNING");
        String pending = commands.run("scontrol", "show", "job", queued).out();
        assertThat(pending).contains("JobState=PENDING").contains("ArrayTaskId=1-10");
        Files.createFile(work.resolve("go-again"));
        awaitState(holder, "COMPLETED");
        await().atMost(UP)
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(count(
                                commands.run("scontrol", "show", "job", queued).out(), "JobState=COMPLETED"))
                        .isEqualTo(10));
        String jobs = commands.run("scontrol", "show", "job", queued).out();
        assertThat(count(jobs, "Restarts=0")).as(jobs).isEqualTo(10);
        for (int task = 1; task <= 10; task++) {
            assertThat(work.resolve("queued-" + task + ".out")).hasContent("ok");
        }
        // Everything the operator asked of the controller, with its own token, was accepted.
        assertThat(kubelet.logOf("lab-0")).doesNotContainIgnoringCase("refused");
    }

    private static io.fabric8.kubernetes.client.dsl.Resource<NodeSet> gpuSet() {
        return client.resources(NodeSet.class).inNamespace(MockApi.NS).withName("gpu");
    }

    private static NodeSampler sampler(String... nodes) throws Exception {
        Controller lab = client.resources(Controller.class)
                .inNamespace(MockApi.NS)
                .withName("lab")
                .get();
        return new NodeSampler(
                new KeyedClusters(dir.resolve("sampler"), c -> "127.0.0.1", Clock.systemUTC())
                        .forController(client, lab),
                List.of(nodes));
    }

    private static List<Pod> gpuPods() {
        return client.pods()
                .inNamespace(MockApi.NS)
                .withLabel(Names.LABEL_NODESET, "gpu")
                .list()
                .getItems();
    }

    private static int count(String text, String what) {
        return text.split(java.util.regex.Pattern.quote(what), -1).length - 1;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /**
     * A port free a moment ago. Here, unlike the local clusters whose daemons start on port 0 and
     * report theirs, the port must be known before anything starts: it is the Controller
     * resource's own (a site's fixed SlurmctldPort, rendered by the operator into the
     * configuration every pod reads), so it is probed, with the small race that implies.
     */
    private static int freePortWithGrpcAbove() throws IOException {
        for (int tries = 0; tries < 100; tries++) {
            try (ServerSocket s = new ServerSocket(0)) {
                int port = s.getLocalPort();
                if (port + 100 < 65536) {
                    try (ServerSocket above = new ServerSocket(port + 100)) {
                        return port;
                    } catch (IOException e) {
                        // taken: try another
                    }
                }
            }
        }
        throw new IOException("no free port with a free port 100 above it");
    }
}
