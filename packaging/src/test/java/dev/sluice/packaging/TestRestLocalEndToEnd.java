package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rest_auth/local with real users on both ends: sluice-restd runs as sluiceuser1 on a Unix
 * socket (a process of its own, as slurmrestd is run), and clients reach it with no token,
 * as whoever they are. sluiceuser1 lists jobs and cancels its own; cancelling sluiceuser2's job
 * is refused as {@code scancel} refuses it; sluiceuser2 is turned away at the socket; root is let
 * in but acts as sluiceuser1, the daemon's only identity (slurmrestd 22.05 does all of this).
 */
class TestRestLocalEndToEnd {
    private static final String V = "/slurm/v0.0.44/";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** An HTTP/1.1 exchange over a Unix socket, in the client user's own process. */
    private static final String CLIENT = "import socket,sys\n"
            + "s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])\n"
            + "s.sendall(('%s %s HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\nContent-Length: 0\\r\\n\\r\\n'"
            + " % (sys.argv[2], sys.argv[3])).encode())\n"
            + "out=b''\n"
            + "while True:\n  b=s.recv(65536)\n  if not b: break\n  out+=b\n"
            + "sys.stdout.write(out.decode())\n";

    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static UnprivilegedUser alice;
    private static UnprivilegedUser bob;
    private static Process restd;
    private static Path socketDir;
    private static Path socket;

    record Answer(int status, String contentType, String text) {
        JsonNode json() throws IOException {
            return JSON.readTree(text);
        }
    }

    @BeforeAll
    static void up() throws Exception {
        // The daemon, run as sluiceuser1, reads the configuration and the build's classes here.
        Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        alice = UnprivilegedUser.ensure(UnprivilegedUser.ATTACKER, stateDir);
        bob = UnprivilegedUser.ensure(UnprivilegedUser.VICTIM, stateDir);
        cluster = new ClusterProcesses(stateDir, 1, 4, 1);
        cluster.start();
        socketDir = Files.createTempDirectory("restd-local");
        Files.setPosixFilePermissions(socketDir, PosixFilePermissions.fromString("rwxrwxrwx"));
        socket = socketDir.resolve("restd.socket");
        List<String> cmd = new ArrayList<>(List.of(
                "setpriv",
                "--reuid=" + alice.uid(),
                "--regid=" + alice.gid(),
                "--init-groups",
                "--",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                cluster.sharedClasspath(),
                "dev.sluice.restd.RestdMain",
                "-a",
                "rest_auth/local",
                "-f",
                cluster.layout().slurmConfPath().toString(),
                "unix:" + socket));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(alice.home().toFile());
        pb.environment().put("HOME", alice.home().toString());
        pb.redirectErrorStream(true)
                .redirectOutput(stateDir.resolve("restd.log").toFile());
        restd = pb.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(socket) || !restd.isAlive());
        assertThat(restd.isAlive()).as(() -> log()).isTrue();
    }

    @AfterAll
    static void down() throws Exception {
        if (restd != null) {
            restd.destroy();
            restd.waitFor();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (socketDir != null) {
            Files.deleteIfExists(socket);
            Files.deleteIfExists(socketDir);
        }
    }

    private static String log() {
        try {
            return Files.readString(stateDir.resolve("restd.log"));
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** {@code method path} over the socket as {@code user} (null: root, this test's process). */
    private static Answer as(UnprivilegedUser user, String method, String path) throws Exception {
        String[] argv = {"python3", "-c", CLIENT, socket.toString(), method, path};
        UnprivilegedUser.Result r =
                user == null ? UnprivilegedUser.run(argv) : user.run(Map.of("PATH", "/usr/bin:/bin"), argv);
        assertThat(r.exit()).as(r.err()).isZero();
        String text = r.out();
        int split = text.indexOf("\r\n\r\n");
        String head = text.substring(0, split);
        String type = head.lines()
                .filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith("content-type:"))
                .map(l -> l.substring("content-type:".length()).strip())
                .findFirst()
                .orElse("");
        return new Answer(Integer.parseInt(head.substring(9, 12)), type, text.substring(split + 4));
    }

    private static int sbatch(UnprivilegedUser user) throws Exception {
        ClusterProcesses.Result r = cluster.commandAs(
                user.uid(), user.gid(), user.home(), "sbatch", "-o", "/dev/null", "--wrap", "sleep 300");
        assertThat(r.out()).as(r.err()).startsWith("Submitted batch job ");
        return Integer.parseInt(r.out().strip().substring("Submitted batch job ".length()));
    }

    private static String state(int job) throws Exception {
        return cluster.command("squeue", "-h", "-t", "all", "-j", "" + job, "-o", "%T")
                .out()
                .strip();
    }

    @Test
    void theDaemonsUserListsJobsAndCancelsItsOwnWithoutAToken() throws Exception {
        int own = sbatch(alice);
        Answer listed = as(alice, "GET", V + "jobs");
        assertThat(listed.status()).as(listed.text()).isEqualTo(200);
        assertThat(listed.json().at("/meta/client/user").asText()).isEqualTo(alice.name());
        assertThat(listed.json().get("jobs").findValuesAsText("user_name")).contains(alice.name());

        Answer cancelled = as(alice, "DELETE", V + "job/" + own);
        assertThat(cancelled.status()).as(cancelled.text()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> state(own).equals("CANCELLED"));
    }

    @Test
    void anotherUsersJobIsRefusedAsScancelRefusesIt() throws Exception {
        int theirs = sbatch(bob);
        Answer refused = as(alice, "DELETE", V + "job/" + theirs);
        assertThat(refused.status()).as(refused.text()).isEqualTo(500);
        // scancel of another's job: Slurm's "Access/permission denied"
        assertThat(refused.json().at("/errors/0/error_number").asInt()).isEqualTo(2002);
        ClusterProcesses.Result scancel =
                cluster.commandAs(alice.uid(), alice.gid(), alice.home(), "scancel", "" + theirs);
        assertThat(scancel.err()).contains("Access/permission denied");
        // Root is let in, but speaks as the daemon's user: refused all the same.
        Answer asRoot = as(null, "DELETE", V + "job/" + theirs);
        assertThat(asRoot.status()).as(asRoot.text()).isEqualTo(500);
        assertThat(asRoot.json().at("/meta/client/user").asText()).isEqualTo(alice.name());
        assertThat(state(theirs)).isIn("PENDING", "RUNNING");
        cluster.command("scancel", "" + theirs);
    }

    @Test
    void anotherUserIsTurnedAwayAtTheSocket() throws Exception {
        Answer a = as(bob, "GET", V + "jobs");
        assertThat(a.status()).isEqualTo(401);
        assertThat(a.contentType()).isEqualTo("text/plain");
        assertThat(a.text()).isEqualTo("Authentication failure");
        assertThat(log()).contains("rejecting socket connection of user " + bob.name());
    }
}
