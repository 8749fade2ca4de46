package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./sluice up} as a user runs it (LocalCluster's main, which starts sluice-dbd, the
 * controller, a node daemon and the agent as processes): every daemon and metrics endpoint
 * listens on 127.0.0.1 only, as the kernel reports it; a thousand junk connections leave a few
 * short lines in the daemons' logs; and a job's start and end are logged in slurmctld's words.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestLocalClusterEndToEnd {
    private static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final String CLASSPATH = System.getProperty("java.class.path");
    /** slurmctld's line start: {@code [2026-12-02T03:57:50.398] }. */
    private static final String STAMP = "\\[\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}] ";

    @TempDir
    static Path stateDir;

    private static SluiceUp up;

    @BeforeAll
    static void up() throws Exception {
        // A site's cgroup.conf put in the state directory first: read by the node daemon, kept.
        Files.createDirectories(stateDir.resolve("etc"));
        Files.writeString(stateDir.resolve("etc/cgroup.conf"), "CgroupPlugin=disabled\n");
        up = SluiceUp.start(stateDir, stateDir, List.of(), List.of("--nodes", "1", "--cpus", "2", "--gpus", "1"));
        up.awaitUp();
    }

    @AfterAll
    static void down() throws InterruptedException {
        if (up != null) {
            up.close();
        }
    }

    private static long pid(String daemon) throws IOException {
        return Long.parseLong(Files.readString(stateDir.resolve("run").resolve(daemon + ".pid"))
                .strip());
    }

    private static List<String> log(String daemon) throws IOException {
        return Files.readAllLines(stateDir.resolve("log").resolve(daemon + ".log"));
    }

    @Test
    @Order(1)
    void everyDaemonAndMetricsEndpointListensOnLoopbackOnly() throws Exception {
        // ctld: command port, daemons' gRPC, metrics; node: gRPC, metrics; dbd: commands, gRPC;
        // restd: its HTTP port.
        // (sluice-dbd may still be migrating its database when the nodes are up.)
        Map<String, Integer> ports = Map.of("ctld", 3, "node1", 2, "dbd", 2, "restd", 1);
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    for (var daemon : ports.entrySet()) {
                        List<InetSocketAddress> listening = ListeningSockets.of(pid(daemon.getKey()));
                        assertThat(listening).as(daemon.getKey()).hasSize(daemon.getValue());
                        assertThat(listening)
                                .as(daemon.getKey() + " listens on " + listening)
                                .allSatisfy(a -> assertThat(a.getAddress().getHostAddress())
                                        .isEqualTo("127.0.0.1"));
                    }
                });
        // The agent serves a Unix socket only.
        assertThat(ListeningSockets.of(pid("agent"))).isEmpty();
    }

    @Test
    @Order(1)
    void everyDaemonReportsExactlyThePortsItListensOnAndTheFilesNameThem() throws Exception {
        Map<String, Integer> ctld = null;
        for (String daemon : List.of("ctld", "node1", "dbd", "restd")) {
            Map<String, Integer> reported = dev.sluice.common.daemon.PortsFile.read(
                            stateDir.resolve("run").resolve(daemon + ".ports"))
                    .orElseThrow();
            List<Integer> listening = ListeningSockets.of(pid(daemon)).stream()
                    .map(InetSocketAddress::getPort)
                    .toList();
            assertThat(reported.values()).as(daemon).containsExactlyInAnyOrderElementsOf(listening);
            for (int port : reported.values()) {
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    assertThat(s.isConnected()).as(daemon + " on " + port).isTrue();
                }
            }
            if (daemon.equals("ctld")) {
                ctld = reported;
            }
        }
        // What the commands and node daemons read is what the controller bound.
        assertThat(Files.readAllLines(stateDir.resolve("etc/slurm.conf")))
                .contains("SlurmctldPort=" + ctld.get("port"))
                .contains("AccountingStoragePort="
                        + dev.sluice.common.daemon.PortsFile.read(stateDir.resolve("run/dbd.ports"))
                                .orElseThrow()
                                .get("port"));
        assertThat(Files.readString(stateDir.resolve("etc/slurm.conf")))
                .contains(" Port="
                        + dev.sluice.common.daemon.PortsFile.read(stateDir.resolve("run/node1.ports"))
                                .orElseThrow()
                                .get("port")
                        + "\n");
        assertThat(Files.readAllLines(stateDir.resolve("etc/sluice.conf")))
                .contains("SlurmctldGrpcPort=" + ctld.get("grpc"));
        assertThat(Files.readString(stateDir.resolve("sluice.env")))
                .contains("export SLUICE_METRICS_URL='http://127.0.0.1:" + ctld.get("metrics") + "/metrics'");
    }

    @Test
    @Order(1)
    void aCgroupConfInTheStateDirectoryIsReadByTheNodeDaemonAndKept() throws Exception {
        assertThat(stateDir.resolve("etc/cgroup.conf")).hasContent("CgroupPlugin=disabled");
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> log("node1").stream()
                        .anyMatch(l -> l.contains("CgroupPlugin=disabled in cgroup.conf: jobs run without")));
    }

    @Test
    @Order(2)
    void aJobsStartAndEndAreLoggedInSlurmctldsWords() throws Exception {
        Path out = stateDir.resolve("sbatch.out");
        ProcessBuilder sbatch = new ProcessBuilder(
                        JAVA, "-cp", CLASSPATH, "dev.sluice.cli.Main", "sbatch", "--wrap", "exit 3")
                .directory(stateDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        sbatch.environment()
                .put("SLURM_CONF", stateDir.resolve("etc/slurm.conf").toString());
        Process p = sbatch.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(out)).isEqualTo("Submitted batch job 1\n");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> log("ctld").stream().anyMatch(l -> l.endsWith("] _job_complete: JobId=1 done")));
        assertThat(log("ctld"))
                .anyMatch(l -> l.matches(STAMP + "sched: Allocate JobId=1 NodeList=node1 #CPUs=1 Partition=all"))
                .anyMatch(l -> l.matches(STAMP + "_job_complete: JobId=1 WEXITSTATUS 3"))
                .anyMatch(l -> l.matches(STAMP + "_job_complete: JobId=1 done"));
    }

    @Test
    @Order(2)
    void theRestDaemonTakesATokenFromScontrolToken() throws Exception {
        String env = Files.readString(stateDir.resolve("sluice.env"));
        java.util.regex.Matcher url = java.util.regex.Pattern.compile("export SLURMRESTD_URL='([^']+)'")
                .matcher(env);
        assertThat(url.find()).as(env).isTrue();
        Path out = stateDir.resolve("token.out");
        ProcessBuilder scontrol = new ProcessBuilder(JAVA, "-cp", CLASSPATH, "dev.sluice.cli.Main", "scontrol", "token")
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        scontrol.environment()
                .put("SLURM_CONF", stateDir.resolve("etc/slurm.conf").toString());
        assertThat(scontrol.start().waitFor(60, TimeUnit.SECONDS)).isTrue();
        String minted = Files.readString(out).strip();
        assertThat(minted).startsWith("SLURM_JWT=");
        var http = java.net.http.HttpClient.newHttpClient();
        var ping = java.net.http.HttpRequest.newBuilder(java.net.URI.create(url.group(1) + "/slurm/v0.0.44/ping"))
                .header("X-SLURM-USER-TOKEN", minted.substring("SLURM_JWT=".length()))
                .build();
        // The daemon may still be binding its port when the nodes are up.
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    var answer = http.send(ping, java.net.http.HttpResponse.BodyHandlers.ofString());
                    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                    assertThat(answer.body()).contains("\"responding\":true");
                });
        var forged = java.net.http.HttpRequest.newBuilder(java.net.URI.create(url.group(1) + "/slurm/v0.0.44/ping"))
                .header("X-SLURM-USER-TOKEN", minted.substring("SLURM_JWT=".length()) + "x")
                .build();
        assertThat(http.send(forged, java.net.http.HttpResponse.BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(401);
    }

    @Test
    @Order(3)
    void aThousandJunkConnectionsLeaveAFewShortLines() throws Exception {
        Map<String, Integer> before = new HashMap<>();
        Map<String, List<InetSocketAddress>> targets = new HashMap<>();
        for (String daemon : List.of("ctld", "node1", "dbd")) {
            before.put(daemon, log(daemon).size());
            targets.put(daemon, ListeningSockets.of(pid(daemon)));
        }
        int ports = targets.values().stream().mapToInt(List::size).sum();
        Random random = new Random(28);
        int sent = 0;
        for (int i = 0; sent < 1000; i++) {
            for (List<InetSocketAddress> addresses : targets.values()) {
                for (InetSocketAddress a : addresses) {
                    junk(a.getPort(), i, random);
                    sent++;
                }
            }
        }
        assertThat(sent).isGreaterThanOrEqualTo(1000).isLessThan(1000 + ports);
        // And the agent's socket, which any local user may open.
        int agentBefore = log("agent").size();
        Path agent = stateDir.resolve("run/agent.sock");
        for (int i = 0; i < 100; i++) {
            try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(agent))) {
                ch.write(ByteBuffer.wrap(new byte[] {(byte) (i % 7), 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}));
                ch.shutdownOutput();
                ch.read(ByteBuffer.allocate(64));
            } catch (IOException closedOnUs) {
                // the agent hanging up is the point
            }
        }
        // gRPC's transport reports each of these; the first report reaching the logs shows the
        // junk arrived, and the rest must stay quiet.
        for (String daemon : List.of("ctld", "node1", "dbd")) {
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> log(daemon).stream().anyMatch(l -> l.contains("gRPC: connection dropped")));
        }
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> log("agent").size() > agentBefore);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            List<String> agentAdded =
                    log("agent").subList(agentBefore, log("agent").size());
            assertThat(agentAdded)
                    .as("agent wrote " + agentAdded)
                    .hasSizeLessThanOrEqualTo(3)
                    .allMatch(l -> l.matches(STAMP + "warning: Session: .*"));
            for (String daemon : List.of("ctld", "node1", "dbd")) {
                List<String> all = log(daemon);
                List<String> added = all.subList(before.get(daemon), all.size());
                // Other news may come meanwhile (the controller reaching sluice-dbd, say): the
                // junk's share is the warnings.
                assertThat(added.stream().filter(l -> l.matches(STAMP + "warning: .*")))
                        .as(daemon + " wrote " + added)
                        .hasSizeLessThanOrEqualTo(8);
                assertThat(added)
                        .as(daemon + ": one line per event, no stack traces")
                        .allMatch(l -> l.matches(STAMP + ".*"))
                        .noneMatch(l -> l.contains("\tat ") || l.contains("Exception"));
            }
        });
    }

    /** One connection that says nothing any daemon understands, in a few flavours. */
    private static void junk(int port, int i, Random random) throws IOException {
        byte[] payload = switch (i % 4) {
            case 0 -> "GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            case 1 -> new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1};
            case 2 -> new byte[] {5, 'a', 'b', 'c', 'd', 'e'};
            default -> {
                byte[] b = new byte[64 + random.nextInt(512)];
                random.nextBytes(b);
                yield b;
            }
        };
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            out.write(payload);
            out.flush();
            s.shutdownOutput();
            try {
                s.getInputStream().read(new byte[256]);
            } catch (IOException answeredOrNot) {
                // the daemon closing on us is the point
            }
        }
    }
}
