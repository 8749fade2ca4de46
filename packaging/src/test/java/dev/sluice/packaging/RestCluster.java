package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import dev.sluice.cli.client.ClusterAccess;
import dev.sluice.common.auth.JwtConfig;
import dev.sluice.common.auth.UserDb;
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
import java.util.Optional;

/**
 * A real cluster with accounting (controller, node daemon and sluice-dbd as processes) and the
 * REST daemon in this JVM in front of it, speaking to the daemons over TCP with the caller's
 * token, as sluice-restd does; root's token from {@code scontrol token}, and beside the HS256 key
 * the public key set of an outside issuer ({@link #idp}, RS256), in slurm.conf and
 * slurmdbd.conf alike. The REST end-to-end tests share it.
 */
final class RestCluster implements AutoCloseable {
    record Answer(int status, ObjectNode body) {}

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    final ClusterProcesses cluster;
    final RestServer server;
    /** root's token. */
    final String token;
    /** The outside issuer's key, whose public half the daemons take (jwks=). */
    final RSAKey idp;

    private RestCluster(ClusterProcesses cluster, RestServer server, String token, RSAKey idp) {
        this.cluster = cluster;
        this.server = server;
        this.token = token;
        this.idp = idp;
    }

    static RestCluster start(Path stateDir) throws Exception {
        OpenApiDocs.document();
        ClusterProcesses cluster = ClusterProcesses.withAccounting(stateDir, 1, 2);
        RSAKey idp = new RSAKeyGenerator(2048).keyID("idp-1").generate();
        Path jwks = stateDir.resolve("jwks.json");
        Files.writeString(jwks, new JWKSet(idp).toPublicJWKSet().toString());
        String params = "AuthAltParameters=jwt_key=" + cluster.layout().jwtKeyPath() + ",jwks=" + jwks;
        cluster.editSlurmConf(c -> c.replaceAll("(?m)^AuthAltParameters=.*$", params));
        Path dbdConf = cluster.layout().etc().resolve("slurmdbd.conf");
        Files.writeString(dbdConf, Files.readString(dbdConf).replaceAll("(?m)^AuthAltParameters=.*$", params));
        cluster.start();
        ClusterAccess access = ClusterAccess.read(cluster.layout().slurmConfPath());
        RestServer server = new RestServer(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                new TokenGate(JwtConfig.load(
                        access.conf().authAltTypes(), access.conf().authAltParameters(), Optional.empty())),
                new TokenSessions(access, UserDb.system(), "localhost"),
                access.conf().clusterName(),
                Clock.systemUTC());
        server.start();
        return new RestCluster(cluster, server, mint(cluster, "root"), idp);
    }

    @Override
    public void close() throws Exception {
        server.close();
        cluster.close();
    }

    /** A token {@code scontrol token} mints for {@code user}, as root asks it. */
    String tokenFor(String user) throws Exception {
        return mint(cluster, user);
    }

    private static String mint(ClusterProcesses cluster, String user) throws Exception {
        ClusterProcesses.Result minted = cluster.command("scontrol", "token", "username=" + user);
        assertThat(minted.out()).as(minted.err()).startsWith("SLURM_JWT=");
        return minted.out().strip().substring("SLURM_JWT=".length());
    }

    /** With root's token (and {@code X-SLURM-USER-NAME: root}), or another token alone. */
    Answer send(String method, String path, String body, String withToken) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
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
    Answer sendNaming(String method, String path, String withToken, String userName) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .header("X-SLURM-USER-TOKEN", withToken)
                .header("X-SLURM-USER-NAME", userName)
                .build();
        HttpResponse<String> r = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), OpenApiDocs.parse(r.body()));
    }

    Answer send(String method, String path, String body) throws Exception {
        return send(method, path, body, token);
    }

    /** A job submitted through version {@code v}'s {@code job/submit}; its id. */
    int submit(ApiVersion v, String script, Path out) throws Exception {
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

    /** The job's state as version {@code v} lists it. */
    String state(ApiVersion v, int job) throws Exception {
        Answer a = send("GET", v.slurmPrefix() + "job/" + job, null);
        assertThat(a.status()).as(a.body().toString()).isEqualTo(200);
        OpenApiDocs.of(v).assertValidFor("openapi_job_info_resp", a.body());
        return a.body().at("/jobs/0/job_state/0").asText();
    }

    static String quote(String s) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(s).toString();
    }
}
