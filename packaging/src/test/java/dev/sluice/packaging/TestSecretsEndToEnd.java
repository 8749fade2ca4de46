package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another user's secrets stay theirs (docs/security.md): a real unprivileged user looks for a
 * second user's script, environment and output through every command, in the controller's
 * journal, the accounting database and the node's spool, forges tokens and requests, and sends
 * oversized frames. The files the daemons create are checked for their modes.
 */
class TestSecretsEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static Path agentSocket;
    private static UnprivilegedUser alice;
    private static UnprivilegedUser bob;
    private static final String IN_SCRIPT = "BOB-SCRIPT-" + UUID.randomUUID();
    private static final String IN_ENV = "BOB-ENV-" + UUID.randomUUID();
    private static final String IN_OUTPUT = "BOB-OUTPUT-" + UUID.randomUUID();
    private static int bobRunning;
    private static int bobHeld;
    private static int rootHeld;
    private static Path jwtKey;

    @BeforeAll
    static void up() throws Exception {
        assumeTrue(Files.isExecutable(TestAgentEndToEnd.NATIVE), "the native front end is built where cc exists");
        Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        alice = UnprivilegedUser.ensure(UnprivilegedUser.ATTACKER, stateDir);
        bob = UnprivilegedUser.ensure(UnprivilegedUser.VICTIM, stateDir);
        cluster = ClusterProcesses.withAccounting(stateDir, 1, 4);
        jwtKey = stateDir.resolve("jwt_hs256.key");
        Files.write(jwtKey, UUID.randomUUID().toString().repeat(2).getBytes(StandardCharsets.US_ASCII));
        Files.setPosixFilePermissions(jwtKey, PosixFilePermissions.fromString("rw-------"));
        cluster.editSlurmConf(c -> c + "AuthAltTypes=auth/jwt\nAuthAltParameters=jwt_key=" + jwtKey + "\n");
        cluster.start();
        agentSocket = cluster.startAgentForAll();

        String script = "echo " + IN_OUTPUT + "; sleep 300 # " + IN_SCRIPT;
        bobRunning = submit(bob, "--export=ALL,BOBSECRET=" + IN_ENV, "--wrap", script);
        bobHeld = submit(bob, "-H", "--export=ALL,BOBSECRET=" + IN_ENV, "--wrap", script);
        ClusterProcesses.Result root = cluster.command("sbatch", "--parsable", "-H", "--wrap", "true");
        rootHeld = Integer.parseInt(root.out().strip());
        Path out = bob.home().resolve("slurm-" + bobRunning + ".out");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> Files.exists(out) && Files.readString(out).contains(IN_OUTPUT));
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Map<String, String> env() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("SLURM_CONF", cluster.layout().slurmConfPath().toString());
        env.put("SLUICE_AGENT_SOCKET", agentSocket.toString());
        env.put("SLUICE_BIN", cluster.fallbackBin().toString());
        env.put("PATH", "/usr/bin:/bin");
        return env;
    }

    private static UnprivilegedUser.Result as(UnprivilegedUser user, Map<String, String> env, String... argv)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(TestAgentEndToEnd.NATIVE.toString()));
        cmd.addAll(List.of(argv));
        return user.run(env, cmd.toArray(String[]::new));
    }

    private static int submit(UnprivilegedUser user, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("sbatch", "--parsable"));
        argv.addAll(List.of(args));
        UnprivilegedUser.Result r = as(user, env(), argv.toArray(String[]::new));
        assertThat(r.exit()).as(r.all()).isZero();
        return Integer.parseInt(r.out().strip());
    }

    private static void assertNoSecret(UnprivilegedUser.Result r) {
        assertThat(r.all()).doesNotContain(IN_SCRIPT).doesNotContain(IN_ENV).doesNotContain(IN_OUTPUT);
    }

    @Test
    void anotherUsersScriptAndEnvironmentAreNotShownByAnyCommand() throws Exception {
        for (int job : List.of(bobRunning, bobHeld)) {
            UnprivilegedUser.Result script = as(alice, env(), "scontrol", "write", "batch_script", "" + job, "-");
            assertThat(script.err()).isEqualTo("job script retrieval failed: Invalid user id\n");
            assertThat(script.out()).isEmpty();
            UnprivilegedUser.Result toFile = as(alice, env(), "scontrol", "write", "batch_script", "" + job);
            assertThat(toFile.err()).isEqualTo("job script retrieval failed: Invalid user id\n");
            assertThat(alice.home().resolve("slurm-" + job + ".sh")).doesNotExist();
        }
        for (String[] argv : List.of(
                new String[] {"scontrol", "show", "job", "-d", "" + bobRunning},
                new String[] {"scontrol", "show", "jobs"},
                new String[] {"squeue", "-a", "-l"},
                new String[] {"sacct", "-a", "-l"},
                new String[] {"sacct", "-a", "-P", "-o", "JobID,JobName,User,State,WorkDir"})) {
            assertNoSecret(as(alice, env(), argv));
        }
        // Its owner still reads it.
        UnprivilegedUser.Result own =
                as(bob, env(), "scontrol", "write", "batch_script", Integer.toString(bobHeld), "-");
        assertThat(own.out()).contains(IN_SCRIPT);
    }

    @Test
    void noFileTheDaemonsKeepLetsAnotherUserReadThem() throws Exception {
        // Everything under the cluster's directory but the users' own homes, as the other user.
        List<String> roots = new ArrayList<>();
        try (Stream<Path> top = Files.list(stateDir)) {
            top.filter(p -> !p.equals(alice.home()) && !p.equals(bob.home())).forEach(p -> roots.add(p.toString()));
        }
        List<String> grep = new ArrayList<>(List.of("grep", "-rlsF", "-e", IN_SCRIPT, "-e", IN_ENV, "-e", IN_OUTPUT));
        grep.addAll(roots);
        UnprivilegedUser.Result found = alice.run(Map.of("PATH", "/usr/bin:/bin"), grep.toArray(String[]::new));
        assertThat(found.out())
                .as("files another user could read the secrets in")
                .isEmpty();
        // ... while root finds them: the search would see them if they were readable.
        UnprivilegedUser.Result asRoot = UnprivilegedUser.run(grep.toArray(String[]::new));
        assertThat(asRoot.out())
                .contains(cluster.layout().stateDir().resolve("ctld").toString());
    }

    @Test
    void everyFileTheDaemonsCreateIsOwnerOnly() throws Exception {
        Set<PosixFilePermission> others = Set.of(
                PosixFilePermission.GROUP_READ,
                PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.OTHERS_READ,
                PosixFilePermission.OTHERS_WRITE);
        List<String> open = new ArrayList<>();
        int checked = 0;
        for (String dir : List.of("ctld", "dbd", "spool", "log")) {
            try (Stream<Path> tree = Files.walk(stateDir.resolve(dir))) {
                for (Path p : tree.toList()) {
                    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                        continue;
                    }
                    checked++;
                    Set<PosixFilePermission> mode = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
                    // The shell supervisor is code, not data: readable by all (the Perl one, read by
                    // the daemon's user alone, is owner-only).
                    boolean program = p.getFileName().toString().equals("sluice-supervise.sh");
                    if (!program && mode.stream().anyMatch(others::contains)) {
                        open.add(stateDir.relativize(p) + " " + PosixFilePermissions.toString(mode));
                    }
                }
            }
        }
        assertThat(open).as("files readable or writable beyond their owner").isEmpty();
        assertThat(checked)
                .as("journal, snapshot, outbox, database, spool, logs")
                .isGreaterThan(8);
        // The job's directory in the spool: reachable by its user, listed by nobody.
        Path jobDir = stateDir.resolve("spool/node1/job" + String.format("%05d", bobRunning));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(jobDir)))
                .isEqualTo("rwx--x--x");
        assertThat((Integer) Files.getAttribute(jobDir.resolve("slurm_script"), "unix:uid"))
                .isEqualTo(bob.uid());
    }

    @Test
    void forgedTokensAndClaimedIdentitiesAreRefused() throws Exception {
        // Alice's own copy of the configuration, with no socket: her commands go over TCP with
        // SLURM_JWT, where a token is the only proof.
        Path confDir = Files.createDirectories(alice.home().resolve("conf"));
        Files.copy(cluster.layout().slurmConfPath(), confDir.resolve("slurm.conf"));
        Files.writeString(confDir.resolve("sluice.conf"), "CommandSocket=" + confDir.resolve("none.sock") + "\n");
        UnprivilegedUser.run("chown", "-R", alice.uid() + ":" + alice.gid(), confDir.toString());
        Map<String, String> tcp = env();
        tcp.put("SLURM_CONF", confDir.resolve("slurm.conf").toString());

        UnprivilegedUser.Result minted = as(alice, env(), "scontrol", "token");
        assertThat(minted.out()).as(minted.all()).startsWith("SLURM_JWT=");
        tcp.put("SLURM_JWT", minted.out().strip().substring("SLURM_JWT=".length()));
        assertThat(as(alice, tcp, "squeue", "-h", "-o", "%i", "-j", "" + rootHeld)
                        .out())
                .as("a real token of alice's works")
                .isEqualTo(rootHeld + "\n");

        long exp = System.currentTimeMillis() / 1000 + 600;
        String claims = "{\"sun\":\"root\",\"exp\":" + exp + ",\"iat\":" + (exp - 600) + "}";
        for (String forged : List.of(
                jwt("{\"alg\":\"none\",\"typ\":\"JWT\"}", claims, null),
                jwt("{\"alg\":\"HS256\",\"typ\":\"JWT\"}", claims, "not-the-site-key-but-32-bytes-long!!"))) {
            tcp.put("SLURM_JWT", forged);
            UnprivilegedUser.Result cancel = as(alice, tcp, "scancel", Integer.toString(rootHeld));
            assertThat(cancel.err()).contains("Protocol authentication error");
        }
        UnprivilegedUser.Result claimRoot = java(
                alice,
                "claim-root",
                cluster.layout().stateDir().resolve("ctld/slurmctld.socket").toString(),
                "" + rootHeld);
        assertThat(claimRoot.out()).isEqualTo("results: [" + rootHeld + "=Access/permission denied]\n");
        assertThat(cluster.command("squeue", "-h", "-o", "%i %T", "-j", "" + rootHeld)
                        .out())
                .isEqualTo(rootHeld + " PENDING\n");
    }

    @Test
    void oversizedFramesCloseTheConnectionAndHarmNobody() throws Exception {
        String ctld =
                cluster.layout().stateDir().resolve("ctld/slurmctld.socket").toString();
        assertThat(java(alice, "oversized", ctld).out()).isEqualTo("closed\n");
        assertThat(java(alice, "oversized-agent", agentSocket.toString()).out()).isEqualTo("closed\n");
        UnprivilegedUser.Result after = as(alice, env(), "squeue", "-h", "-o", "%i", "-j", "" + rootHeld);
        assertThat(after.out()).as(after.all()).isEqualTo(rootHeld + "\n");
    }

    private static UnprivilegedUser.Result java(UnprivilegedUser user, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                cluster.java(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                cluster.sharedClasspath(),
                ForgedRequests.class.getName()));
        cmd.addAll(List.of(args));
        return user.run(Map.of("PATH", "/usr/bin:/bin"), cmd.toArray(String[]::new));
    }

    private static String jwt(String header, String claims, String key) throws Exception {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String signed = b64.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
                + b64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
        if (key == null) {
            return signed + ".";
        }
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.US_ASCII), "HmacSHA256"));
        return signed + "." + b64.encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII)));
    }
}
