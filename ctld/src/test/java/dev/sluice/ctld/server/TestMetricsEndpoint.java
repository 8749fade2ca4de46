package dev.sluice.ctld.server;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.config.ConfigText;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.control.NodeControl;
import dev.sluice.ctld.control.NodePolicy;
import dev.sluice.ctld.state.DaemonReport;
import dev.sluice.ctld.state.Effect;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeEndpoint;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.wire.WireMapper;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.PingRequest;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scrapes /metrics of a real in-process controller whose node is simulated. */
class TestMetricsEndpoint {
    private dev.sluice.common.auth.ClusterKeys keys;

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})?\\s+(\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    @TempDir
    Path dir;

    private CtldServer ctld;
    private final List<Integer> launched = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void start() throws Exception {
        String slurmConf = """
                ClusterName=metrics
                SlurmctldHost=localhost
                StateSaveLocation=%s
                GresTypes=gpu
                NodeName=n1 CPUs=4 RealMemory=4000 Gres=gpu:a100:2
                PartitionName=debug Nodes=n1 Default=YES
                """.formatted(dir.resolve("state"));
        String gresConf = "NodeName=n1 Name=gpu Type=a100 File=/dev/nvidia[0-1]\n";
        // Ports the kernel picks, as `sluice-ctld --port 0`: the test asks the server which.
        CtldConfig config = ConfigText.ctldConfig(dir, slurmConf, gresConf).withPorts(0, 0);
        keys = config.access().clusterKeys();
        ctld = CtldServer.start(
                config,
                Clock.systemUTC(),
                "127.0.0.1",
                false,
                e -> {},
                (effect, image) -> {
                    if (effect instanceof Effect.LaunchBatch l) {
                        launched.add(l.jobId());
                    }
                },
                null,
                0);
        Node n1 = config.nodes().get(0);
        var reg = new NodeControl.Registration(
                "n1",
                new NodeEndpoint("n1", "127.0.0.1", 1),
                new NodeEquipment(n1.hardware(), List.of(), ""),
                new DaemonReport(1, "test", NodeFacts.NONE),
                false,
                Set.of(),
                Optional.empty());
        ctld.loop()
                .submit((s, now) -> new NodeControl(0, NodePolicy.DEFAULT).register(s, reg, now))
                .get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        if (ctld != null) {
            ctld.close();
        }
    }

    @Test
    void aRunningAndAWaitingJobShowInJobNodeAndGresSeries() throws Exception {
        int running = submit(aJob().gres("gpu:1").timeLimit(10));
        int waiting = submit(aJob().gres("gpu:2"));
        assertThat(launched).containsExactly(running);

        Map<String, Double> m = scrape();

        assertThat(m).containsEntry("sluice_jobs{partition=debug,state=RUNNING}", 1.0);
        assertThat(m).containsEntry("sluice_jobs{partition=debug,state=PENDING}", 1.0);
        assertThat(m).containsEntry("sluice_jobs_pending_reason{partition=debug,reason=Resources}", 1.0);
        assertThat(m).containsEntry("sluice_nodes{state=mixed}", 1.0);
        // The 10-minute job frees n1 in (just under) 600 s.
        assertThat(m.get("sluice_node_free_in_seconds{node=n1}")).isBetween(540.0, 600.0);
        assertThat(m).containsEntry("sluice_node_gres{name=gpu,node=n1,type=a100}", 2.0);
        assertThat(m).containsEntry("sluice_node_gres_allocated{name=gpu,node=n1,type=a100}", 1.0);
        assertThat(m.get("sluice_scheduler_cycle_seconds_count")).isGreaterThanOrEqualTo(2.0);
        assertThat(m.get("sluice_journal_sync_seconds_count")).isGreaterThanOrEqualTo(2.0);
        assertThat(m)
                .containsEntry(
                        "sluice_rpc_duration_seconds_count{method=REQUEST_SUBMIT_BATCH_JOB,outcome=ok,transport=frames}",
                        2.0);
        // Accounting is off in this configuration: no outbox to report.
        assertThat(m.keySet()).noneMatch(k -> k.startsWith("sluice_accounting_outbox_depth"));
        assertThat(waiting).isEqualTo(running + 1);
    }

    @Test
    void refusedRequestsAreCountedAsErrors() throws Exception {
        ClientResponse bad = call(ClientRequest.newBuilder()
                .setSubmitBatchJob(SubmitBatchJobRequest.newBuilder()
                        .setSpec(WireMapper.toWire(aJob().partition("nosuch").build())))
                .build());
        assertThat(bad.hasError()).isTrue();
        call(ClientRequest.newBuilder()
                .setPing(PingRequest.getDefaultInstance())
                .build());

        Map<String, Double> m = scrape();

        assertThat(m)
                .containsEntry(
                        "sluice_rpc_duration_seconds_count{method=REQUEST_SUBMIT_BATCH_JOB,outcome=error,transport=frames}",
                        1.0);
        assertThat(m)
                .containsEntry(
                        "sluice_rpc_duration_seconds_count{method=REQUEST_PING,outcome=ok,transport=frames}", 1.0);
        assertThat(m).containsEntry("sluice_jobs{partition=debug,state=PENDING}", 0.0);
        assertThat(m).containsEntry("sluice_nodes{state=idle}", 1.0);
        assertThat(m).containsEntry("sluice_node_free_in_seconds{node=n1}", 0.0);
    }

    private int submit(dev.sluice.ctld.Builders.JobBuilder job) throws Exception {
        ClientResponse r = call(ClientRequest.newBuilder()
                .setSubmitBatchJob(SubmitBatchJobRequest.newBuilder().setSpec(WireMapper.toWire(job.build())))
                .build());
        assertThat(r.hasError()).as(r.getError().getMessage()).isFalse();
        return r.getSubmitBatchJob().getJobId();
    }

    private ClientResponse call(ClientRequest request) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), ctld.commandPort())) {
            byte[] body = request.toBuilder()
                    .setProtocolVersion(Frames.PROTOCOL_VERSION)
                    .build()
                    .toByteArray();
            // As a holder of the cluster key signs for alice (docs/security.md).
            var alice = new dev.sluice.common.auth.Principal(1000, 1000, "alice", java.util.List.of(), "localhost");
            dev.sluice.protocol.v1.SignedRequest.newBuilder()
                    .setRequest(com.google.protobuf.ByteString.copyFrom(body))
                    .setCredential(new dev.sluice.common.auth.ClusterCredentials(keys)
                            .issue(
                                    alice,
                                    "slurmctld",
                                    body,
                                    java.time.Instant.now(),
                                    dev.sluice.common.auth.ClusterCredentials.DEFAULT_TTL))
                    .build()
                    .writeDelimitedTo(s.getOutputStream());
            return ClientResponse.parseDelimitedFrom(s.getInputStream());
        }
    }

    /** Series as {@code name{k=v,...}} with labels sorted, to their values. */
    private Map<String, Double> scrape() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ctld.metricsPort() + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        Map<String, Double> out = new TreeMap<>();
        for (String line : r.body().split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (line.startsWith("#") || !m.matches()) {
                continue;
            }
            Map<String, String> labels = new TreeMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            String key = labels.isEmpty()
                    ? m.group(1)
                    : m.group(1)
                            + labels.entrySet().stream()
                                    .map(e -> e.getKey() + "=" + e.getValue())
                                    .collect(java.util.stream.Collectors.joining(",", "{", "}"));
            out.put(key, Double.parseDouble(m.group(3).replace("Inf", "Infinity")));
        }
        return out;
    }
}
