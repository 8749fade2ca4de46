package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The login-node path end to end: the native front end, sluice-agent and a real controller. The
 * agent signs for whoever the kernel says is calling, so a user is themselves whatever their
 * environment claims, cannot touch another user's jobs, and with the agent gone the same
 * front end still works through a JVM.
 */
class TestAgentEndToEnd {
    static final Path NATIVE =
            Path.of("../cli/target/sluice-client").toAbsolutePath().normalize();

    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static Path socket;

    @BeforeAll
    static void up() throws Exception {
        assumeTrue(Files.isExecutable(NATIVE), "the native front end is built where cc exists");
        assumeTrue(new com.sun.security.auth.module.UnixSystem().getUid() == 0, "needs root to act as nobody");
        cluster = new ClusterProcesses(stateDir, 1, 2, 1);
        cluster.start();
        // nobody must reach the socket.
        socket = cluster.startAgentForAll();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    record Result(int exit, String out, String err) {}

    /** The front end as {@code uid} (0: as is), with extra environment. */
    private static Result front(int uid, Map<String, String> env, String... argv) throws Exception {
        List<String> cmd = new ArrayList<>();
        if (uid != 0) {
            cmd.addAll(List.of("setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups", "--"));
        }
        cmd.add(NATIVE.toString());
        cmd.addAll(List.of(argv));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(Path.of("/tmp").toFile());
        pb.environment().put("SLURM_CONF", cluster.layout().slurmConfPath().toString());
        pb.environment().put("SLUICE_AGENT_SOCKET", socket.toString());
        pb.environment().put("SLUICE_BIN", cluster.fallbackBin().toString());
        pb.environment().putAll(env);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(
                p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private static int jobId(Result r) {
        assertThat(r.exit()).as(r.err()).isZero();
        return Integer.parseInt(r.out().replaceAll("\\D", ""));
    }

    @Test
    void usersAreWhoTheKernelSaysAndKeepToTheirOwnJobs() throws Exception {
        int roots = jobId(front(0, Map.of(), "sbatch", "-H", "--wrap", "true"));
        // nobody claims to be root in every way the environment allows.
        Map<String, String> claims = Map.of("USER", "root", "LOGNAME", "root", "SLURM_JWT", "not-a-token");
        int nobodys = jobId(front(65534, claims, "sbatch", "-H", "--wrap", "true"));

        Result queue = front(65534, claims, "squeue", "-h", "-o", "%i %u", "-S", "i");
        assertThat(queue.out()).isEqualTo(roots + " root\n" + nobodys + " nobody\n");

        Result denied = front(65534, claims, "scancel", Integer.toString(roots));
        assertThat(denied.err())
                .isEqualTo("scancel: error: Kill job error on job id " + roots + ": Access/permission denied\n");
        assertThat(denied.exit()).isEqualTo(210);
        assertThat(front(65534, claims, "scancel", Integer.toString(nobodys)).exit())
                .isZero();
        assertThat(front(0, Map.of(), "scancel", Integer.toString(roots)).exit())
                .isZero();
    }

    @Test
    void withTheAgentStoppedTheSameFrontEndAnswersThroughAJvm() throws Exception {
        Result viaAgent = front(0, Map.of(), "sinfo", "-h", "-o", "%P %D");
        Result viaJvm = front(
                0,
                Map.of("SLUICE_AGENT_SOCKET", stateDir.resolve("stopped.sock").toString()),
                "sinfo",
                "-h",
                "-o",
                "%P %D");
        assertThat(viaJvm).isEqualTo(viaAgent);
        assertThat(viaAgent.out()).isNotEmpty();
    }
}
