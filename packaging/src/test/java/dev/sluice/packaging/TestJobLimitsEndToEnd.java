package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How jobs end, with real daemons: time limits (SIGTERM, SIGKILL after KillWait, TIMEOUT),
 * scancel, signals, exit codes as Slurm 22.05 prints them (observed on a real cluster:
 * {@code -t 0:05} is a one-minute limit, TIMEOUT shows {@code Reason=TimeLimit ExitCode=0:15},
 * a cancelled job {@code 0:15}, {@code exit 3} {@code FAILED NonZeroExitCode 3:0}), no process
 * left behind, and jobs run as their (non-root) owner.
 */
class TestJobLimitsEndToEnd {
    private static final String TEST_USER = "sluicejob";

    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        // Non-root jobs must reach their script in the spool below this directory.
        Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        cluster = new ClusterProcesses(stateDir, 1, 4, 1);
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static int submit(String... args) throws Exception {
        ClusterProcesses.Result r = cluster.command("sbatch", args);
        assertThat(r.exitCode()).as(r.err()).isZero();
        Matcher m = Pattern.compile("Submitted batch job (\\d+)\n").matcher(r.out());
        assertThat(m.matches()).as(r.out()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static String show(int id) throws Exception {
        ClusterProcesses.Result r = cluster.command("scontrol", "show", "job", Integer.toString(id));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.out();
    }

    private static void awaitState(int id, String state, Duration within) {
        await().atMost(within)
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(show(id)).contains("JobState=" + state + " "));
    }

    private static void awaitRunning(int id) {
        awaitState(id, "RUNNING", Duration.ofSeconds(30));
    }

    /** Processes whose environment says they belong to this job of this cluster. */
    private static List<Long> processesOf(int id) throws IOException {
        String jobVar = "SLURM_JOB_ID=" + id;
        String dirVar = "SLURM_SUBMIT_DIR=" + cluster.workDir();
        List<Long> found = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.toList()) {
                String pid = p.getFileName().toString();
                if (!pid.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    List<String> env = List.of(
                            new String(Files.readAllBytes(p.resolve("environ")), StandardCharsets.UTF_8).split("\0"));
                    if (env.contains(jobVar) && env.contains(dirVar)) {
                        found.add(Long.parseLong(pid));
                    }
                } catch (IOException gone) {
                    // exited meanwhile, or not ours to read
                }
            }
        }
        return found;
    }

    @Test
    void timeLimitEndsTheJobAsTimeoutAndLeavesNoProcess() throws Exception {
        int plain = submit("-t", "0:05", "--wrap", "sleep 600");
        // Ignores SIGTERM (and so does its sleep): only SIGKILL after KillWait ends it.
        int stubborn = submit("-t", "0:05", "--wrap", "trap '' TERM; sleep 600; sleep 600");
        awaitRunning(plain);
        awaitRunning(stubborn);
        assertThat(show(plain)).contains("TimeLimit=00:01:00");
        await().atMost(Duration.ofSeconds(20)).until(() -> processesOf(stubborn).size() >= 2);
        // One minute of limit, KillWait=10 s, and a few seconds of slack.
        awaitState(plain, "TIMEOUT", Duration.ofSeconds(60 + 10 + 10));
        awaitState(stubborn, "TIMEOUT", Duration.ofSeconds(20));
        assertThat(show(plain)).contains("Reason=TimeLimit").contains("ExitCode=0:15");
        assertThat(show(stubborn)).contains("Reason=TimeLimit").contains("ExitCode=0:9");
        assertThat(processesOf(plain)).isEmpty();
        assertThat(processesOf(stubborn)).isEmpty();
    }

    @Test
    void scancelEndsARunningJobAsCancelledAndKillsItsProcesses() throws Exception {
        int id = submit("--wrap", "sleep 600 & sleep 600 & wait");
        awaitRunning(id);
        await().atMost(Duration.ofSeconds(20)).until(() -> processesOf(id).size() >= 3);
        assertThat(cluster.command("scancel", Integer.toString(id)).exitCode()).isZero();
        awaitState(id, "CANCELLED", Duration.ofSeconds(20));
        assertThat(show(id)).contains("ExitCode=0:15");
        await().atMost(Duration.ofSeconds(15)).until(() -> processesOf(id).isEmpty());
    }

    @Test
    void scancelSignalReachesTheBatchScript() throws Exception {
        int id = submit("--wrap", "trap 'echo got USR1; exit 7' USR1; sleep 600 & wait");
        awaitRunning(id);
        await().atMost(Duration.ofSeconds(20)).until(() -> processesOf(id).size() >= 2);
        ClusterProcesses.Result r = cluster.command("scancel", "-b", "-s", "USR1", Integer.toString(id));
        assertThat(r.exitCode()).as(r.err()).isZero();
        awaitState(id, "FAILED", Duration.ofSeconds(20));
        assertThat(show(id)).contains("Reason=NonZeroExitCode").contains("ExitCode=7:0");
        assertThat(Files.readString(cluster.workDir().resolve("slurm-" + id + ".out")))
                .isEqualTo("got USR1\n");
        await().atMost(Duration.ofSeconds(15)).until(() -> processesOf(id).isEmpty());
    }

    @Test
    void exitStatusIsReportedAsSlurmPrintsIt() throws Exception {
        int failed = submit("--wrap", "exit 3");
        int ok = submit("--wrap", "true");
        awaitState(failed, "FAILED", Duration.ofSeconds(30));
        awaitState(ok, "COMPLETED", Duration.ofSeconds(30));
        assertThat(show(failed)).contains("Reason=NonZeroExitCode").contains("ExitCode=3:0");
        assertThat(show(ok)).contains("ExitCode=0:0");
    }

    @Test
    void aJobRunsAsItsNonRootOwnerAndItsFilesAreTheirs() throws Exception {
        assumeTrue(
                "root".equals(System.getProperty("user.name")),
                "running jobs as another user needs root (useradd, setpriv); skipped as "
                        + System.getProperty("user.name"));
        int uid = ensureUser();
        int gid = gidOf(uid);
        Path home = stateDir.resolve("user-work");
        Files.createDirectories(home);
        chown(home, uid, gid);
        ClusterProcesses.Result r =
                cluster.commandAs(uid, gid, home, "sbatch", "--wrap", "id -u; echo data > made-by-job.txt");
        assertThat(r.exitCode()).as(r.err()).isZero();
        int id = Integer.parseInt(r.out().replaceAll("\\D", ""));
        awaitState(id, "COMPLETED", Duration.ofSeconds(30));
        Path out = home.resolve("slurm-" + id + ".out");
        Path made = home.resolve("made-by-job.txt");
        assertThat(Files.readString(out)).isEqualTo(uid + "\n");
        assertThat((Integer) Files.getAttribute(out, "unix:uid")).isEqualTo(uid);
        assertThat((Integer) Files.getAttribute(made, "unix:uid")).isEqualTo(uid);
        assertThat((Integer) Files.getAttribute(made, "unix:gid")).isEqualTo(gid);
        assertThat(show(id)).contains("UserId=" + TEST_USER + "(" + uid + ")");
    }

    private static int ensureUser() throws Exception {
        if (run("id", "-u", TEST_USER).exitCode() != 0) {
            ClusterProcesses.Result added = run("useradd", "--no-create-home", "--shell", "/bin/sh", TEST_USER);
            // Another test run may have added it meanwhile.
            assertThat(added.exitCode() == 0 || run("id", "-u", TEST_USER).exitCode() == 0)
                    .as(added.err())
                    .isTrue();
        }
        return Integer.parseInt(run("id", "-u", TEST_USER).out().trim());
    }

    private static int gidOf(int uid) throws Exception {
        return Integer.parseInt(run("id", "-g", Integer.toString(uid)).out().trim());
    }

    private static void chown(Path path, int uid, int gid) throws Exception {
        assertThat(run("chown", uid + ":" + gid, path.toString()).exitCode()).isZero();
    }

    private static ClusterProcesses.Result run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        return new ClusterProcesses.Result(p.waitFor(), out, err);
    }
}
