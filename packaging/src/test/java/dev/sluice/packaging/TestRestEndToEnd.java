package dev.sluice.packaging;

import static dev.sluice.restd.OpenApiDocs.assertValid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.sluice.cli.client.ClusterAccess;
import dev.sluice.common.auth.JwtConfig;
import dev.sluice.common.auth.UserDb;
import dev.sluice.common.auth.UserTokens;
import dev.sluice.restd.OpenApiDocs;
import dev.sluice.restd.auth.TokenGate;
import dev.sluice.restd.controller.TokenSessions;
import dev.sluice.restd.http.RestServer;
import dev.sluice.restd.slurm.ApiVersion;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The REST API in front of a real cluster (controller and node daemon as processes): a token
 * from {@code scontrol token}, jobs submitted, watched, updated, held, released and cancelled,
 * found in accounting, a node drained and resumed, in every data parser version (v0.0.42 to
 * v0.0.45), each answer checked against Slurm's published schema of that version. The REST daemon runs in this
 * JVM, speaking to the controller over TCP with the user's token, as sluice-restd does.
 */
class TestRestEndToEnd {
    private static final String V = "/slurm/v0.0.44/";

    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static RestServer rest;
    private static String token;
    private static RSAKey idp;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    record Answer(int status, ObjectNode body) {}

    @BeforeAll
    static void up() throws Exception {
        OpenApiDocs.document();
        cluster = ClusterProcesses.withAccounting(stateDir, 1, 2);
        // The HS256 key ./sluice up writes, and beside it the public key set of an outside issuer
        // (an identity provider's RS256 tokens), in slurm.conf and slurmdbd.conf alike.
        idp = new RSAKeyGenerator(2048).keyID("idp-1").generate();
        Path jwks = stateDir.resolve("jwks.json");
        Files.writeString(jwks, new JWKSet(idp).toPublicJWKSet().toString());
        String params = "AuthAltParameters=jwt_key=" + cluster.layout().jwtKeyPath() + ",jwks=" + jwks;
        cluster.editSlurmConf(c -> c.replaceAll("(?m)^AuthAltParameters=.*$", params));
        Path dbdConf = cluster.layout().etc().resolve("slurmdbd.conf");
        Files.writeString(dbdConf, Files.readString(dbdConf).replaceAll("(?m)^AuthAltParameters=.*$", params));
        cluster.start();
        ClusterProcesses.Result minted = cluster.command("scontrol", "token");
        assertThat(minted.out()).as(minted.err()).startsWith("SLURM_JWT=");
        token = minted.out().strip().substring("SLURM_JWT=".length());
        ClusterAccess access = ClusterAccess.read(cluster.layout().slurmConfPath());
        rest = new RestServer(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new TokenGate(JwtConfig.load(
                        access.conf().authAltTypes(), access.conf().authAltParameters(), Optional.empty())),
                new TokenSessions(access, UserDb.system(), "localhost"),
                access.conf().clusterName(),
                Clock.systemUTC());
        rest.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (rest != null) {
            rest.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Answer send(String method, String path, String body, String withToken) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rest.port() + path))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("X-SLURM-USER-TOKEN", withToken);
        if (withToken.equals(token)) {
            req.header("X-SLURM-USER-NAME", "root");
        }
        HttpResponse<String> r = HTTP.send(req.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), OpenApiDocs.parse(r.body()));
    }

    /** With {@code X-SLURM-USER-NAME: userName} beside the token, as slurmrestd's clients send it. */
    private static Answer sendNaming(String method, String path, String withToken, String userName) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + rest.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .header("X-SLURM-USER-TOKEN", withToken)
                .header("X-SLURM-USER-NAME", userName)
                .build();
        HttpResponse<String> r = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), OpenApiDocs.parse(r.body()));
    }

    private static Answer send(String method, String path, String body) throws Exception {
        return send(method, path, body, token);
    }

    private static int submit(String script, Path out) throws Exception {
        return submit(ApiVersion.V0044, script, out);
    }

    private static int submit(ApiVersion v, String script, Path out) throws Exception {
        String body = "{\"script\": " + quote(script) + ", \"job\": {\"name\": \"rest\", \"tasks\": 1,"
                + " \"current_working_directory\": " + quote(cluster.workDir().toString())
                + ", \"standard_output\": " + quote(out.toString())
                + ", \"environment\": [\"PATH=/usr/bin:/bin\"],"
                + " \"time_limit\": {\"set\": true, \"infinite\": false, \"number\": 5}}}";
        Answer a = send("POST", v.slurmPrefix() + "job/submit", body);
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        OpenApiDocs.of(v).assertValidFor("openapi_job_submit_response", a.body());
        return a.body().get("job_id").asInt();
    }

    private static String quote(String s) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(s).toString();
    }

    private static String state(int job) throws Exception {
        return state(ApiVersion.V0044, job);
    }

    private static String state(ApiVersion v, int job) throws Exception {
        Answer a = send("GET", v.slurmPrefix() + "job/" + job, null);
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        OpenApiDocs.of(v).assertValidFor("openapi_job_info_resp", a.body());
        return a.body().at("/jobs/0/job_state/0").asText();
    }

    @Test
    void pingDiagAndListingsValidate() throws Exception {
        Answer ping = send("GET", V + "ping", null);
        assertThat(ping.status()).as(ping.body().toString()).isEqualTo(200);
        assertValid("v0.0.44_openapi_ping_array_resp", ping.body());
        assertThat(ping.body().at("/meta/client/user").asText()).isEqualTo("root");
        Answer diag = send("GET", V + "diag", null);
        assertValid("v0.0.44_openapi_diag_resp", diag.body());
        Answer partitions = send("GET", V + "partitions", null);
        assertValid("v0.0.44_openapi_partition_resp", partitions.body());
        assertThat(partitions.body().get("partitions")).isNotEmpty();
        Answer jobs = send("GET", V + "jobs", null);
        assertValid("v0.0.44_openapi_job_info_resp", jobs.body());
    }

    @Test
    void aReservationIsListedInEveryVersionAsScontrolShowsIt() throws Exception {
        String node = send("GET", V + "nodes", null).body().at("/nodes/0/name").asText();
        ClusterProcesses.Result created = cluster.command(
                "scontrol",
                "create",
                "reservation",
                "ReservationName=rest_maint",
                "StartTime=now+3600",
                "Duration=60",
                "Users=root",
                "Flags=MAINT",
                "Nodes=" + node);
        assertThat(created.exitCode()).as(created.err()).isZero();
        try {
            String shown = cluster.command("scontrol", "show", "reservation", "rest_maint")
                    .out();
            for (ApiVersion version : ApiVersion.values()) {
                String prefix = version.slurmPrefix();
                Answer all = send("GET", prefix + "reservations", null);
                assertThat(all.status()).as(all.body().toString()).isEqualTo(200);
                OpenApiDocs.of(version).assertValidFor("openapi_reservation_resp", all.body());
                Answer one = send("GET", prefix + "reservation/rest_maint", null);
                assertThat(one.status()).isEqualTo(200);
                OpenApiDocs.of(version).assertValidFor("openapi_reservation_resp", one.body());
                JsonNode r = one.body().at("/reservations/0");
                assertThat(r.get("name").asText()).isEqualTo("rest_maint");
                assertThat(r.get("node_list").asText()).isEqualTo(node);
                assertThat(shown)
                        .contains(
                                "Nodes=" + node,
                                "NodeCnt=" + r.get("node_count").asInt());
                assertThat(r.get("users").asText()).isEqualTo("root");
                assertThat(r.get("flags")).extracting(JsonNode::asText).contains("MAINT");
                assertThat(r.at("/end_time/number").asLong()
                                - r.at("/start_time/number").asLong())
                        .isEqualTo(3600);
                Answer missing = send("GET", prefix + "reservation/nosuch", null);
                assertThat(missing.status()).isEqualTo(500);
                OpenApiDocs.of(version).assertValidFor("openapi_reservation_resp", missing.body());
                assertThat(missing.body().at("/errors/0/error_number").asInt()).isEqualTo(2053);
            }
        } finally {
            cluster.command("scontrol", "delete", "reservation", "rest_maint");
        }
    }

    @Test
    void aReservationIsCreatedUpdatedAndDeletedThroughTheApiFromV0043() throws Exception {
        String node = send("GET", V + "nodes", null).body().at("/nodes/0/name").asText();
        for (ApiVersion version : ApiVersion.values()) {
            String prefix = version.slurmPrefix();
            String name = "rest_" + version.name().toLowerCase(java.util.Locale.ROOT);
            String create = "{\"name\": \"" + name + "\", \"users\": [\"root\"], \"node_list\": [\"" + node + "\"],"
                    + " \"start_time\": {\"set\": true, \"number\": "
                    + (java.time.Instant.now().getEpochSecond() + 7200)
                    + "}, \"duration\": {\"set\": true, \"number\": 30}, \"flags\": [\"MAINT\"]}";
            Answer created = send("POST", prefix + "reservation", create);
            if (version == ApiVersion.V0042) {
                assertThat(created.status()).isEqualTo(404);
                continue;
            }
            assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
            OpenApiDocs.of(version).assertValidFor("openapi_reservation_mod_resp", created.body());
            try {
                String shown =
                        cluster.command("scontrol", "show", "reservation", name).out();
                assertThat(shown).contains("Nodes=" + node, "Duration=00:30:00", "Users=root", "Flags=MAINT");
                // The same name again: an update, as slurmrestd's "create or update".
                Answer updated = send(
                        "POST",
                        prefix + "reservations",
                        "{\"reservations\": [{\"name\": \"" + name
                                + "\", \"duration\": {\"set\": true, \"number\": 45}}]}");
                assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);
                OpenApiDocs.of(version).assertValidFor("openapi_reservation_mod_resp", updated.body());
                assertThat(cluster.command("scontrol", "show", "reservation", name)
                                .out())
                        .contains("Duration=00:45:00");
                // Refused as scontrol's is: no user and no account.
                Answer nobody = send(
                        "POST",
                        prefix + "reservation",
                        "{\"name\": \"nobody\", \"duration\": 5, \"node_list\": [\"" + node + "\"]}");
                assertThat(nobody.status()).isEqualTo(500);
                OpenApiDocs.of(version).assertValidFor("openapi_reservation_mod_resp", nobody.body());
            } finally {
                Answer deleted = send("DELETE", prefix + "reservation/" + name, null);
                assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
                OpenApiDocs.of(version).assertValidFor("openapi_resp", deleted.body());
            }
            assertThat(cluster.command("scontrol", "show", "reservation", name).out()
                            + cluster.command("scontrol", "show", "reservation", name)
                                    .err())
                    .contains("not found");
        }
    }

    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void jobIsSubmittedRunsAndCompletes(ApiVersion v) throws Exception {
        Path out = cluster.workDir().resolve("rest-" + UUID.randomUUID() + ".out");
        int job = submit(v, "#!/bin/sh\necho rest-hello\n", out);
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> state(v, job).equals("COMPLETED"));
        assertThat(Files.readString(out)).isEqualTo("rest-hello\n");
        ClusterProcesses.Result squeue = cluster.command("scontrol", "show", "job", "" + job);
        assertThat(squeue.out()).contains("JobName=rest").contains("TimeLimit=00:05:00");
    }

    /** The job as accounting keeps it, from sluice-dbd with the same token, as sacct shows it. */
    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void aFinishedJobIsInAccounting(ApiVersion v) throws Exception {
        Path out = cluster.workDir().resolve("acct-" + UUID.randomUUID() + ".out");
        int job = submit(v, "#!/bin/sh\nexit 3\n", out);
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    Answer a = send("GET", v.slurmdbPrefix() + "job/" + job, null);
                    assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
                    OpenApiDocs.of(v).assertValidFor("openapi_slurmdbd_jobs_resp", a.body());
                    assertThat(a.body().at("/jobs/0/state/current/0").asText()).isEqualTo("FAILED");
                });
        Answer a = send("GET", v.slurmdbPrefix() + "job/" + job, null);
        assertThat(a.body().at("/jobs/0/exit_code/return_code/number").asInt()).isEqualTo(3);
        assertThat(a.body().at("/jobs/0/user").asText()).isEqualTo("root");
        assertThat(a.body().at("/jobs/0/tres/allocated/0/type").asText()).isEqualTo("cpu");
        String sacct = cluster.command("sacct", "-n", "-X", "-P", "-j", "" + job, "-o", "State,ExitCode")
                .out();
        assertThat(sacct).isEqualTo("FAILED|3:0\n");
        Answer tres = send("GET", v.slurmdbPrefix() + "tres", null);
        OpenApiDocs.of(v).assertValidFor("openapi_tres_resp", tres.body());
        assertThat(tres.body().get("TRES")).isNotEmpty();
        Answer users = send("GET", v.slurmdbPrefix() + "users", null);
        OpenApiDocs.of(v).assertValidFor("openapi_users_resp", users.body());
    }

    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void jobIsCancelled(ApiVersion v) throws Exception {
        int job = submit(v, "#!/bin/sh\nsleep 300\n", cluster.workDir().resolve("sleep.out"));
        Answer cancel = send("DELETE", v.slurmPrefix() + "job/" + job, null);
        assertThat(cancel.status()).as(cancel.body().toString()).isEqualTo(200);
        OpenApiDocs.of(v).assertValidFor("openapi_kill_job_resp", cancel.body());
        await().atMost(Duration.ofSeconds(30)).until(() -> state(v, job).equals("CANCELLED"));
    }

    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void aHeldJobIsUpdatedThenReleasedAndRuns(ApiVersion v) throws Exception {
        Path out = cluster.workDir().resolve("held-" + UUID.randomUUID() + ".out");
        String body =
                "{\"script\": \"#!/bin/sh\\necho held-then-run\\n\", \"job\": {\"name\": \"held\", \"hold\": true,"
                        + " \"current_working_directory\": "
                        + quote(cluster.workDir().toString())
                        + ", \"standard_output\": " + quote(out.toString())
                        + ", \"environment\": [\"PATH=/usr/bin:/bin\"]}}";
        Answer submitted = send("POST", v.slurmPrefix() + "job/submit", body);
        assertThat(submitted.status()).as(submitted.body().toString()).isEqualTo(200);
        int job = submitted.body().get("job_id").asInt();
        assertThat(state(v, job)).isEqualTo("PENDING");

        Answer updated = send(
                "POST",
                v.slurmPrefix() + "job/" + job,
                "{\"job\": {\"name\": \"renamed\", \"time_limit\": {\"set\": true, \"infinite\": false, \"number\": 3}}}");
        assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);
        OpenApiDocs.of(v).assertValidFor("openapi_job_post_response", updated.body());
        ClusterProcesses.Result shown = cluster.command("scontrol", "show", "job", "" + job);
        assertThat(shown.out())
                .contains("JobName=renamed")
                .contains("TimeLimit=00:03:00")
                .contains("JobState=PENDING");

        Answer released = send("POST", v.slurmPrefix() + "job/" + job, "{\"hold\": false}");
        assertThat(released.status()).as(released.body().toString()).isEqualTo(200);
        OpenApiDocs.of(v).assertValidFor("openapi_job_post_response", released.body());
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> state(v, job).equals("COMPLETED"));
        assertThat(Files.readString(out)).isEqualTo("held-then-run\n");
    }

    @ParameterizedTest
    @EnumSource(ApiVersion.class)
    void nodeIsDrainedAndResumed(ApiVersion v) throws Exception {
        Answer nodes = send("GET", v.slurmPrefix() + "nodes", null);
        OpenApiDocs.of(v).assertValidFor("openapi_nodes_resp", nodes.body());
        String name = nodes.body().at("/nodes/0/name").asText();
        Answer drain =
                send("POST", v.slurmPrefix() + "node/" + name, "{\"state\": [\"DRAIN\"], \"reason\": \"rest test\"}");
        assertThat(drain.status()).as(drain.body().toString()).isEqualTo(200);
        OpenApiDocs.of(v).assertValidFor("openapi_resp", drain.body());
        Answer drained = send("GET", v.slurmPrefix() + "node/" + name, null);
        OpenApiDocs.of(v).assertValidFor("openapi_nodes_resp", drained.body());
        assertThat(drained.body().at("/nodes/0/state").toString()).contains("DRAIN");
        assertThat(drained.body().at("/nodes/0/reason").asText()).isEqualTo("rest test");
        // drained, or draining while another test's job is still on it
        assertThat(cluster.command("sinfo", "-h", "-o", "%t").out()).matches("(drain|drng)\\n");
        Answer resume = send("POST", v.slurmPrefix() + "node/" + name, "{\"state\": [\"RESUME\"]}");
        assertThat(resume.status()).as(resume.body().toString()).isEqualTo(200);
        assertThat(send("GET", v.slurmPrefix() + "node/" + name, null)
                        .body()
                        .at("/nodes/0/state")
                        .toString())
                .doesNotContain("DRAIN");
    }

    /** The controller applies the commands' rules to the token's user: not root's job, not a node. */
    @Test
    void aUserChangesOnlyWhatTheCommandsLetThem() throws Exception {
        UnprivilegedUser alice = UnprivilegedUser.ensure(UnprivilegedUser.ATTACKER, stateDir);
        ClusterProcesses.Result minted = cluster.command("scontrol", "token", "username=" + alice.name());
        assertThat(minted.out()).as(minted.err()).startsWith("SLURM_JWT=");
        String aliceToken = minted.out().strip().substring("SLURM_JWT=".length());
        int rootJob = submit("#!/bin/sh\nsleep 300\n", cluster.workDir().resolve("root.out"));

        Answer listed = send("GET", V + "jobs", null, aliceToken);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body().at("/meta/client/user").asText()).isEqualTo(alice.name());
        Answer cancel = send("DELETE", V + "job/" + rootJob, null, aliceToken);
        assertValid("v0.0.44_openapi_kill_job_resp", cancel.body());
        assertThat(cancel.status()).isEqualTo(500);
        assertThat(cancel.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(state(rootJob)).isIn("PENDING", "RUNNING");
        Answer rename = send("POST", V + "job/" + rootJob, "{\"name\": \"mine\"}", aliceToken);
        assertValid("v0.0.44_openapi_job_post_response", rename.body());
        assertThat(rename.status()).isEqualTo(500);
        // as `scontrol update JobId=` of another's job: Slurm's "Invalid user id"
        assertThat(rename.body().at("/results/0/error_code").asInt()).isEqualTo(2010);
        assertThat(cluster.command("scontrol", "show", "job", "" + rootJob).out())
                .contains("JobName=rest");
        Answer drain =
                send("POST", V + "node/" + LocalClusterLayout.nodeName(1), "{\"state\": [\"DRAIN\"]}", aliceToken);
        assertValid("v0.0.44_openapi_resp", drain.body());
        assertThat(drain.status()).isEqualTo(500);
        // as `scontrol update NodeName=` by a user: Slurm's "Invalid user id"
        assertThat(drain.body().at("/errors/0/error_number").asInt()).isEqualTo(2010);
        assertThat(send("GET", V + "node/" + LocalClusterLayout.nodeName(1), null)
                        .body()
                        .at("/nodes/0/state")
                        .toString())
                .doesNotContain("DRAIN");

        assertThat(send("DELETE", V + "job/" + rootJob, null).status()).isEqualTo(200);
    }

    /**
     * root's token speaks for the user X-SLURM-USER-NAME names, through the controller, which
     * then applies that user's rights; a user's token naming root is refused before anything.
     */
    @Test
    void rootsTokenSpeaksForTheNamedUserAndAUsersTokenForNoOneElse() throws Exception {
        UnprivilegedUser alice = UnprivilegedUser.ensure(UnprivilegedUser.ATTACKER, stateDir);
        ClusterProcesses.Result minted = cluster.command("scontrol", "token", "username=" + alice.name());
        assertThat(minted.out()).as(minted.err()).startsWith("SLURM_JWT=");
        String aliceToken = minted.out().strip().substring("SLURM_JWT=".length());
        int rootJob = submit("#!/bin/sh\nsleep 300\n", cluster.workDir().resolve("root-named.out"));

        Answer listed = sendNaming("GET", V + "jobs", token, alice.name());
        assertThat(listed.status()).isEqualTo(200);
        assertValid("v0.0.44_openapi_job_info_resp", listed.body());
        assertThat(listed.body().at("/meta/client/user").asText()).isEqualTo(alice.name());
        Answer cancel = sendNaming("DELETE", V + "job/" + rootJob, token, alice.name());
        assertValid("v0.0.44_openapi_kill_job_resp", cancel.body());
        // the controller acts as alice: not her job
        assertThat(cancel.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        Answer asRoot = sendNaming("DELETE", V + "job/" + rootJob, aliceToken, "root");
        assertThat(asRoot.status()).isEqualTo(401);
        assertValid("v0.0.44_openapi_resp", asRoot.body());
        assertThat(state(rootJob)).isIn("PENDING", "RUNNING");

        assertThat(send("DELETE", V + "job/" + rootJob, null).status()).isEqualTo(200);
    }

    /** QOS and clusters as sacctmgr shows them; changes only by root, as with sacctmgr. */
    @Test
    void qosClustersAndAccountChangesAsSacctmgr() throws Exception {
        String db = "/slurmdb/v0.0.44/";
        UnprivilegedUser alice = UnprivilegedUser.ensure(UnprivilegedUser.ATTACKER, stateDir);
        ClusterProcesses.Result minted = cluster.command("scontrol", "token", "username=" + alice.name());
        String aliceToken = minted.out().strip().substring("SLURM_JWT=".length());

        Answer clusters = send("GET", db + "clusters", null);
        assertThat(clusters.status()).as(clusters.body().toString()).isEqualTo(200);
        assertValid("v0.0.44_openapi_clusters_resp", clusters.body());
        String name = cluster.command("sacctmgr", "-n", "-P", "show", "cluster", "format=Cluster")
                .out()
                .strip();
        assertThat(clusters.body().at("/clusters/0/name").asText()).isEqualTo(name);
        assertThat(clusters.body().at("/clusters/0/associations/root/account").asText())
                .isEqualTo("root");

        cluster.command("sacctmgr", "-i", "add", "qos", "restqos", "priority=10", "maxwall=30");
        Answer qos = send("GET", db + "qos/restqos", null);
        assertThat(qos.status()).as(qos.body().toString()).isEqualTo(200);
        assertValid("v0.0.44_openapi_slurmdbd_qos_resp", qos.body());
        assertThat(qos.body().at("/qos/0/priority/number").asInt()).isEqualTo(10);
        assertThat(qos.body().at("/qos/0/limits/max/wall_clock/per/job/number").asInt())
                .isEqualTo(30);
        assertValid(
                "v0.0.44_openapi_slurmdbd_qos_resp",
                send("GET", db + "qos", null).body());

        Answer refused = send("DELETE", db + "qos/restqos", null, aliceToken);
        assertValid("v0.0.44_openapi_slurmdbd_qos_removed_resp", refused.body());
        assertThat(refused.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(cluster.command("sacctmgr", "-n", "-P", "show", "qos", "restqos", "format=Name")
                        .out())
                .isEqualTo("restqos\n");
        Answer deleted = send("DELETE", db + "qos/restqos", null);
        assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
        assertThat(deleted.body().get("removed_qos").toString()).isEqualTo("[\"restqos\"]");
        assertThat(cluster.command("sacctmgr", "-n", "-P", "show", "qos", "restqos", "format=Name")
                        .out())
                .isEmpty();

        String body =
                "{\"accounts\": [{\"name\": \"restacct\", \"description\": \"rest\"," + " \"organization\": \"lab\"}]}";
        Answer notAlice = send("POST", db + "accounts", body, aliceToken);
        assertValid("v0.0.44_openapi_resp", notAlice.body());
        assertThat(notAlice.body().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        assertThat(account("restacct")).isEmpty();
        Answer added = send("POST", db + "accounts", body);
        assertThat(added.status()).as(added.body().toString()).isEqualTo(200);
        assertValid("v0.0.44_openapi_resp", added.body());
        assertThat(account("restacct")).isEqualTo("restacct|rest|lab\n");
    }

    private static String account(String name) throws Exception {
        return cluster.command("sacctmgr", "-n", "-P", "show", "account", name, "format=Account,Descr,Org")
                .out();
    }

    /** jwks=: a token an identity provider signed (RS256) works through REST and for the commands. */
    @Test
    void anOutsideIssuersTokenIsTakenByRestTheControllerAndTheDbd() throws Exception {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("idp-1").build(),
                new JWTClaimsSet.Builder()
                        .issueTime(java.util.Date.from(Instant.now()))
                        .expirationTime(java.util.Date.from(Instant.now().plusSeconds(300)))
                        .claim("sun", "root")
                        .build());
        jwt.sign(new RSASSASigner(idp));
        String outside = jwt.serialize();
        Answer jobs = send("GET", V + "jobs", null, outside);
        assertThat(jobs.status()).as(jobs.body().toString()).isEqualTo(200);
        assertThat(jobs.body().at("/meta/client/user").asText()).isEqualTo("root");
        Answer accounting = send("GET", "/slurmdb/v0.0.44/tres", null, outside);
        assertThat(accounting.status()).as(accounting.body().toString()).isEqualTo(200);
        // Signed by a key outside the set, under the same kid: refused by the REST daemon.
        RSAKey other = new RSAKeyGenerator(2048).keyID("idp-1").generate();
        SignedJWT forged = new SignedJWT(jwt.getHeader(), jwt.getJWTClaimsSet());
        forged.sign(new RSASSASigner(other));
        assertThat(send("GET", V + "jobs", null, forged.serialize()).status()).isEqualTo(401);
    }

    @Test
    void tokenForAnotherClusterKeyIsRefused() throws Exception {
        byte[] other = new byte[32];
        new java.security.SecureRandom().nextBytes(other);
        String forged = new UserTokens(other).mint("root", Instant.now(), Duration.ofMinutes(5));
        Answer a = send("GET", V + "jobs", null, forged);
        assertThat(a.status()).isEqualTo(401);
        assertValid("v0.0.44_openapi_resp", a.body());
    }
}
