package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands act with the caller's rights only (docs/security.md, "Files the commands open"):
 * a real unprivileged user, through the native front end and a root sluice-agent and through a
 * JVM of its own, tries to make the commands read and write files it may not touch, and to run
 * a program as someone else. Every attempt here succeeded, as root, before the agent handed
 * file work to the front end.
 */
class TestCallerRightsEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static Path socket;
    private static UnprivilegedUser alice;
    /** Root's files: one world-readable (not writable), one 0600, one in a 0700 directory. */
    private static Path rootReadable;

    private static Path root0600;
    private static Path rootOnlyDir;
    private static final String SECRET = "ROOT-SECRET-" + UUID.randomUUID();

    @BeforeAll
    static void up() throws Exception {
        assumeTrue(Files.isExecutable(TestAgentEndToEnd.NATIVE), "the native front end is built where cc exists");
        Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        alice = UnprivilegedUser.ensure(UnprivilegedUser.ATTACKER, stateDir);
        cluster = new ClusterProcesses(stateDir, 1, 2, 1);
        // Bound to their CPUs, jobs and steps start under taskset, one more program run for them.
        cluster.editSlurmConf(conf -> conf.replace("TaskPlugin=task/none\n", "TaskPlugin=task/affinity\n"));
        cluster.start();
        socket = cluster.startAgentForAll();

        rootReadable = stateDir.resolve("root-owned.txt");
        Files.writeString(rootReadable, "root's, untouched\n");
        Files.setPosixFilePermissions(rootReadable, PosixFilePermissions.fromString("rw-r--r--"));
        root0600 = stateDir.resolve("root-0600.txt");
        Files.writeString(root0600, SECRET + "\nClusterName=" + SECRET + "\n");
        Files.setPosixFilePermissions(root0600, PosixFilePermissions.fromString("rw-------"));
        rootOnlyDir = stateDir.resolve("root-only");
        Files.createDirectories(rootOnlyDir);
        Files.writeString(rootOnlyDir.resolve("secret"), "#!/bin/sh\n# " + SECRET + "\n");
        Files.setPosixFilePermissions(rootOnlyDir, PosixFilePermissions.fromString("rwx------"));
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** The environment a user of this cluster has: through sluice-agent, or without it. */
    private static Map<String, String> env(boolean agent) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("SLURM_CONF", cluster.layout().slurmConfPath().toString());
        env.put("SLUICE_AGENT_SOCKET", socket.toString());
        env.put("SLUICE_BIN", cluster.fallbackBin().toString());
        env.put("PATH", "/usr/bin:/bin");
        if (!agent) {
            env.put("SLUICE_NO_AGENT", "1");
        }
        return env;
    }

    private static UnprivilegedUser.Result as(UnprivilegedUser user, boolean agent, String... argv) throws Exception {
        return as(user, env(agent), argv);
    }

    /** The command through the native front end, as {@code user}, in its home. */
    private static UnprivilegedUser.Result as(UnprivilegedUser user, Map<String, String> env, String... argv)
            throws Exception {
        return user.run(env, frontEnd(argv));
    }

    private static String[] frontEnd(String... argv) {
        String[] cmd = new String[argv.length + 1];
        cmd[0] = TestAgentEndToEnd.NATIVE.toString();
        System.arraycopy(argv, 0, cmd, 1, argv.length);
        return cmd;
    }

    private static int heldJob(UnprivilegedUser user) throws Exception {
        UnprivilegedUser.Result r = as(user, true, "sbatch", "--parsable", "-H", "--wrap", "echo mine");
        assertThat(r.exit()).as(r.all()).isZero();
        return Integer.parseInt(r.out().strip());
    }

    @Test
    void scontrolWriteBatchScriptCannotWriteWhereTheCallerMayNot() throws Exception {
        int job = heldJob(alice);
        for (boolean agent : List.of(true, false)) {
            UnprivilegedUser.Result overwrite = as(
                    alice, agent, "scontrol", "write", "batch_script", Integer.toString(job), rootReadable.toString());
            assertThat(overwrite.err())
                    .as("agent=%s", agent)
                    .isEqualTo("failed to open file `" + rootReadable + "`: Permission denied\n");
            assertThat(Files.readString(rootReadable)).isEqualTo("root's, untouched\n");

            Path planted = stateDir.resolve("planted-" + agent + ".sh");
            as(alice, agent, "scontrol", "write", "batch_script", Integer.toString(job), planted.toString());
            assertThat(planted).as("a new file in a directory of root's").doesNotExist();
            // The default file name lands in the working directory: root's here.
            alice.in(stateDir, env(agent), frontEnd("scontrol", "write", "batch_script", Integer.toString(job)));
            assertThat(stateDir.resolve("slurm-" + job + ".sh")).doesNotExist();
        }
        // Where the caller may write, the file is the caller's.
        UnprivilegedUser.Result own = as(alice, true, "scontrol", "write", "batch_script", Integer.toString(job));
        assertThat(own.out()).isEqualTo("batch script for job " + job + " written to slurm-" + job + ".sh\n");
        Path written = alice.home().resolve("slurm-" + job + ".sh");
        assertThat(Files.readString(written)).contains("echo mine");
        assertThat((Integer) Files.getAttribute(written, "unix:uid")).isEqualTo(alice.uid());
    }

    @Test
    void sbatchCannotReadWhatTheCallerMayNot() throws Exception {
        for (boolean agent : List.of(true, false)) {
            for (Path file : List.of(root0600, rootOnlyDir.resolve("secret"))) {
                UnprivilegedUser.Result r = as(alice, agent, "sbatch", "-H", file.toString());
                assertThat(r.exit()).as("agent=%s %s", agent, r.all()).isEqualTo(1);
                assertThat(r.err()).isEqualTo("sbatch: error: Unable to open file " + file + "\n");
            }
            UnprivilegedUser.Result vars =
                    as(alice, agent, "sbatch", "-H", "--export-file=" + root0600, "--wrap", "true");
            assertThat(vars.err()).isEqualTo("sbatch: error: Could not open user environment file " + root0600 + "\n");
            UnprivilegedUser.Result nodes =
                    as(alice, agent, "sbatch", "-H", "-w", root0600.toString(), "--wrap", "true");
            assertThat(nodes.err())
                    .isEqualTo("sbatch: error: slurm_allocate_resources error opening file " + root0600
                            + ", Permission denied\n");
        }
        UnprivilegedUser.Result queue = as(alice, true, "squeue", "-h", "-u", alice.name(), "-o", "%j");
        assertThat(queue.out()).doesNotContain("secret").doesNotContain("root-0600");
        assertThat(as(alice, true, "scontrol", "show", "jobs").all()).doesNotContain(SECRET);
    }

    @Test
    void aConfigurationTheCallerMayNotReadShowsNoneOfItsText() throws Exception {
        Path includer = alice.home().resolve("including.conf");
        Files.writeString(includer, Files.readString(cluster.layout().slurmConfPath()) + "Include " + root0600 + "\n");
        assertThat(UnprivilegedUser.run("chown", alice.uid() + ":" + alice.gid(), includer.toString())
                        .exit())
                .isZero();
        for (boolean agent : List.of(true, false)) {
            for (Path conf : List.of(root0600, Path.of("/etc/shadow"), includer)) {
                Map<String, String> env = env(agent);
                env.put("SLURM_CONF", conf.toString());
                UnprivilegedUser.Result r = as(alice, env, "squeue");
                assertThat(r.exit())
                        .as("agent=%s SLURM_CONF=%s: %s", agent, conf, r.all())
                        .isEqualTo(1);
                assertThat(r.all())
                        .contains("Permission denied")
                        .doesNotContain(SECRET)
                        .doesNotContain("root:");
                assertThat(r.err()).endsWith("squeue: fatal: Unable to process configuration file\n");
            }
        }
    }

    @Test
    void sallocRunsItsCommandAsTheCallerOnTheCallersTerminal() throws Exception {
        for (boolean agent : List.of(true, false)) {
            Path made = alice.home().resolve("made-by-salloc-" + agent);
            UnprivilegedUser.Result r =
                    as(alice, agent, "salloc", "-N1", "/bin/sh", "-c", "id -u; id -g; touch " + made);
            assertThat(r.exit()).as("agent=%s %s", agent, r.all()).isZero();
            assertThat(r.out()).isEqualTo(alice.uid() + "\n" + alice.gid() + "\n");
            assertThat((Integer) Files.getAttribute(made, "unix:uid")).isEqualTo(alice.uid());
            UnprivilegedUser.Result intoRoots =
                    as(alice, agent, "salloc", "-N1", "/bin/sh", "-c", "echo x > " + rootReadable);
            assertThat(intoRoots.exit()).isNotZero();
            assertThat(Files.readString(rootReadable)).isEqualTo("root's, untouched\n");
        }
    }

    @Test
    void aJobEntersItsWorkingDirectoryAsItsUser() throws Exception {
        Path out = alice.home().resolve("chdir.out");
        UnprivilegedUser.Result r = as(
                alice,
                true,
                "sbatch",
                "--parsable",
                "--chdir=" + rootOnlyDir,
                "-o",
                out.toString(),
                "--wrap",
                "pwd; ls " + rootOnlyDir + " 2>&1 | head -1");
        assertThat(r.exit()).as(r.all()).isZero();
        try {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> Files.exists(out) && Files.readString(out).contains("\n/tmp\n"));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            System.err.println("DEBUG "
                    + as(alice, true, "scontrol", "show", "job", r.out().strip())
                            .all() + "\n" + (Files.exists(out) ? Files.readString(out) : "no out") + cluster.logs());
            throw e;
        }
        assertThat(Files.readString(out))
                // Twice, as slurmstepd says it for the step and again for the task (compat 104).
                .containsPattern("^(slurmstepd-\\S+: error: couldn't chdir to `"
                        + java.util.regex.Pattern.quote(rootOnlyDir.toString())
                        + "': Permission denied: going to /tmp instead\n){2}/tmp\n")
                .doesNotContain("secret");
    }

    /** Programs the node daemon runs, or might, on a job's behalf: each faked in the user's PATH. */
    private static final List<String> FAKED =
            List.of("setsid", "setpriv", "env", "taskset", "perl", "sh", "chrt", "nice", "numactl");

    /**
     * A user's PATH, LD_LIBRARY_PATH and BASH_ENV reach their jobs and steps unchanged, and no
     * program of the user's runs as root: the user puts their own {@code setsid}, {@code env},
     * {@code setpriv}... first in PATH, and each, when run, writes its uid to a marker file. Before
     * the node daemon ran its own programs with a PATH of its own, the job's environment (the
     * user's) was theirs: the user's {@code env}, {@code setsid} and {@code setpriv} ran as root.
     */
    @Test
    void aJobsEnvironmentNeverReachesRootsPrograms() throws Exception {
        Path home = alice.home();
        Path marker = home.resolve("ran-as");
        Path bin = home.resolve("bin");
        Files.createDirectories(bin);
        Files.writeString(marker, "");
        Files.setPosixFilePermissions(marker, PosixFilePermissions.fromString("rw-------"));
        for (String name : FAKED) {
            Path fake = bin.resolve(name);
            Files.writeString(
                    fake,
                    "#!/bin/sh\n"
                            + "echo \"$(/usr/bin/id -u) $(/usr/bin/basename \"$0\")\" >> '" + marker + "'\n"
                            + "for real in /usr/bin/" + name + " /bin/" + name + "; do\n"
                            + "  [ -x \"$real\" ] && exec \"$real\" \"$@\"\n"
                            + "done\n"
                            + "echo \"" + name + ": not found\" >&2\n"
                            + "exit 127\n");
            Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        // Sourced by any bash started non-interactively with this environment.
        Path bashEnv = home.resolve("bashenv");
        Files.writeString(bashEnv, "echo \"$(/usr/bin/id -u) BASH_ENV\" >> '" + marker + "'\n");
        Files.createDirectories(home.resolve("lib"));
        assertThat(UnprivilegedUser.run(
                                "chown",
                                "-R",
                                alice.uid() + ":" + alice.gid(),
                                bin.toString(),
                                marker.toString(),
                                bashEnv.toString(),
                                home.resolve("lib").toString())
                        .exit())
                .isZero();

        String path = bin + ":/usr/bin:/bin";
        String libraryPath = home.resolve("lib").toString();
        String seen = "$(id -u) PATH=$PATH LD_LIBRARY_PATH=$LD_LIBRARY_PATH BASH_ENV=$BASH_ENV";
        String expected = alice.uid() + " PATH=" + path + " LD_LIBRARY_PATH=" + libraryPath + " BASH_ENV=" + bashEnv;
        // The front end keeps SLUICE_BIN from what it runs: srun inside is told it again.
        String client = "/usr/bin/env SLUICE_BIN=" + cluster.fallbackBin() + " " + TestAgentEndToEnd.NATIVE;
        SoftAssertions soft = new SoftAssertions();
        Map<Boolean, Path> outputs = new HashMap<>();
        Map<Boolean, String> jobs = new HashMap<>();
        for (boolean agent : List.of(true, false)) {
            Map<String, String> env = env(agent);
            env.put("PATH", path);
            env.put("LD_LIBRARY_PATH", libraryPath);
            env.put("BASH_ENV", bashEnv.toString());

            // A batch job (sbatch exports the caller's environment), with a step inside it.
            Path out = home.resolve("env-" + agent + ".out");
            outputs.put(agent, out);
            UnprivilegedUser.Result batch = as(
                    alice,
                    env,
                    "sbatch",
                    "--parsable",
                    "-o",
                    out.toString(),
                    "--wrap",
                    "echo \"batch " + seen + "\"; " + client + " srun -n1 sh -c 'echo \"step-in-batch " + seen + "\"'");
            assertThat(batch.exit()).as("agent=%s %s", agent, batch.all()).isZero();
            jobs.put(agent, batch.out().strip());

            // A step of its own, and a step in an allocation.
            UnprivilegedUser.Result step = as(alice, env, "srun", "-n1", "sh", "-c", "echo \"srun " + seen + "\"");
            soft.assertThat(step.out())
                    .as("srun, agent=%s: %s", agent, step.err())
                    .isEqualTo("srun " + expected + "\n");
            UnprivilegedUser.Result alloc = as(
                    alice,
                    env,
                    "salloc",
                    "-N1",
                    "/usr/bin/env",
                    "SLUICE_BIN=" + cluster.fallbackBin(),
                    TestAgentEndToEnd.NATIVE.toString(),
                    "srun",
                    "-n1",
                    "sh",
                    "-c",
                    "echo \"salloc " + seen + "\"");
            soft.assertThat(alloc.out())
                    .as("salloc, agent=%s: %s", agent, alloc.err())
                    .isEqualTo("salloc " + expected + "\n");
        }
        for (boolean agent : List.of(true, false)) {
            Path out = outputs.get(agent);
            try {
                // Ended, so whatever the node runs for the job has run.
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> as(alice, true, "scontrol", "show", "job", jobs.get(agent))
                                .out()
                                .contains("JobState=COMPLETED"));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError(
                        "agent=" + agent + ": "
                                + as(alice, true, "scontrol", "show", "job", jobs.get(agent))
                                        .all()
                                + (Files.exists(out) ? Files.readString(out) : "no output") + "\n"
                                + cluster.logs(),
                        e);
            }
            soft.assertThat(Files.readString(out))
                    .as("the batch job and its step, agent=%s", agent)
                    .isEqualTo("batch " + expected + "\nstep-in-batch " + expected + "\n");
        }
        String ran = Files.readString(marker);
        soft.assertThat(ran.lines().filter(l -> l.startsWith("0 ")).toList())
                .as(
                        "the user's programs that ran as root (all that ran: %s)",
                        ran.lines().toList())
                .isEmpty();
        // The fakes do run, as the user: the steps' `sh` is the one the user's PATH names.
        soft.assertThat(ran.lines().toList()).contains(alice.uid() + " sh");
        soft.assertAll();
    }
}
