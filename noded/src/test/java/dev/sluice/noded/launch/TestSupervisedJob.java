package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sluice.noded.spool.JobFacts;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Perl supervisor's job process (sluice-supervise.pl's {@code --user} and {@code --io}):
 * what the chain of setsid, setpriv, the environment loader and the user's shell did, done in
 * the job's own process before its one exec. Here by a supervisor alone; the same tests run the
 * job under the C host in {@link TestSupervisedJobUnderCHost}.
 */
class TestSupervisedJob {
    private static final int USER = 1001; // sluiceuser1, made by .ci/run

    @TempDir
    Path spool;

    Supervisor supervisor() throws Exception {
        assumeTrue(Supervisor.perlRuns(), "needs /usr/bin/perl");
        return Supervisor.install(spool, true, Supervisor.HostProgram.PERL);
    }

    /** Supervises {@code command} with {@code options} until its life is over: a supervisor alone here. */
    void supervise(Supervisor supervisor, Path dir, List<String> options, List<String> command) throws Exception {
        new ProcessBuilder(supervisor.command(dir, options, command))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start()
                .onExit()
                .get();
    }

    private static boolean rootWithTestUser() throws Exception {
        return uid() == 0
                && Files.readAllLines(Path.of("/etc/passwd")).stream().anyMatch(l -> l.startsWith("sluiceuser1:"));
    }

    private static int uid() throws Exception {
        return Integer.parseInt(status("/proc/self/status", "Uid:").get(0));
    }

    private static List<String> status(String file, String key) throws Exception {
        String line = Files.readAllLines(Path.of(file)).stream()
                .filter(l -> l.startsWith(key))
                .findFirst()
                .orElseThrow();
        return List.of(line.substring(key.length()).strip().split("\\s+"));
    }

    /** Runs {@code script} (a file) under the supervisor with {@code --user} and {@code --io}; its wait status. */
    private int run(Supervisor supervisor, int uid, Map<String, String> env, String workDir, String out, String script)
            throws Exception {
        return run(supervisor, uid, "", env, workDir, out, script);
    }

    /** @param groups the daemon's groups for the user, comma-separated; empty: the group file's */
    private int run(
            Supervisor supervisor,
            int uid,
            String groups,
            Map<String, String> env,
            String workDir,
            String out,
            String script)
            throws Exception {
        Path dir = Files.createDirectories(spool.resolve("job00001"));
        Path envFile = dir.resolve("environment");
        Files.write(envFile, new UserEnvironment(true).encode(env));
        Path program = spool.resolve("script");
        Files.writeString(program, "#!/bin/sh\n" + script + "\n");
        Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(spool, PosixFilePermissions.fromString("rwxr-xr-x"));
        if (uid != uid()) {
            Files.setOwner(
                    envFile,
                    envFile.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("sluiceuser1"));
        }
        List<String> options = new ArrayList<>(List.of(
                "--user", Integer.toString(uid), Integer.toString(uid), "sluiceuser1", envFile.toString(), groups));
        options.addAll(List.of("--io", workDir, out, out, "/dev/null", "n1", "0"));
        supervise(supervisor, dir, options, List.of(program.toString()));
        return Integer.parseInt(JobFacts.of(dir).value(Supervisor.WAIT_STATUS).orElse(""));
    }

    @Test
    void theJobEntersItsDirectoryTakesItsUmaskAndWritesItsOutputThere() throws Exception {
        Supervisor supervisor = supervisor();
        Path work = Files.createDirectories(spool.resolve("work"));
        Path out = work.resolve("slurm-1.out");
        Files.writeString(out, "left from an earlier run\n");
        int status = run(
                supervisor,
                uid(),
                Map.of("PATH", "/usr/bin:/bin", "SLURM_UMASK", "0027", "PWD", "/elsewhere"),
                work.toString(),
                out.toString(),
                "pwd; echo \"$PWD\"; umask; echo \"umask=${SLURM_UMASK:-unset}\"; echo err >&2; : > made; exit 3");
        assertThat(status).isEqualTo(3 << 8);
        assertThat(Files.readAllLines(out))
                .containsExactly(work.toString(), work.toString(), "0027", "umask=unset", "err");
        assertThat(Files.getPosixFilePermissions(work.resolve("made")))
                .isEqualTo(PosixFilePermissions.fromString("rw-r-----"));
    }

    /**
     * How a node daemon gives the job's variables to the Perl and C supervisor hosts: as records in
     * the request, no file. Bytes that are not UTF-8 arrive as they are, a NUL ends a record as it
     * would in the file, and a later name wins.
     */
    @Test
    void theVariablesGivenInTheRequestAreTheJobsExactly() throws Exception {
        Supervisor supervisor = supervisor();
        Path dir = Files.createDirectories(spool.resolve("job00002"));
        Path out = spool.resolve("inline.out");
        byte[] value = {'x', (byte) 0xe9, '\'', ' ', '$', 'H', '\n', (byte) 0xff};
        Map<String, String> env = new java.util.LinkedHashMap<>();
        env.put("PATH", "/usr/bin:/bin");
        env.put("V", dev.sluice.common.text.RawText.decode(value));
        env.put("W", "a\0B=b");
        List<String> records = new ArrayList<>(UserEnvironment.records(env));
        records.add("PATH=/bin:/usr/bin");
        Path program = spool.resolve("inline-script");
        Files.writeString(program, "#!/bin/sh\nprintf %s \"$V\" > " + out + "; env > " + out + ".all\n");
        Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> options = new ArrayList<>(
                List.of("--user", Integer.toString(uid()), Integer.toString(uid()), "sluiceuser1", "-", ""));
        options.addAll(List.of("--io", spool.toString(), "/dev/null", "/dev/null", "/dev/null", "n1", "0"));
        options.addAll(List.of("--environment", Integer.toString(records.size())));
        options.addAll(records);
        // Through a host, as a node daemon sends it: a lone supervisor's arguments pass through
        // the JDK's process launch, which encodes them in the locale's charset.
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            host.start(supervisor.arguments(dir, options, List.of(program.toString())))
                    .ended()
                    .get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        assertThat(JobFacts.of(dir).value(Supervisor.WAIT_STATUS)).contains("0");
        assertThat(Files.readAllBytes(out)).containsExactly(value);
        assertThat(Files.readAllLines(
                        out.resolveSibling("inline.out.all"), java.nio.charset.StandardCharsets.ISO_8859_1))
                .contains("PATH=/bin:/usr/bin", "W=a", "B=b")
                .doesNotContain("PATH=/usr/bin:/bin");
        assertThat(dir.resolve("environment")).doesNotExist();
    }

    @Test
    void aDirectoryItCannotEnterSendsItToTmpWithSlurmsWords() throws Exception {
        Supervisor supervisor = supervisor();
        Path out = spool.resolve("out");
        String missing = spool.resolve("no-such-dir").toString();
        assertThat(run(supervisor, uid(), Map.of("PATH", "/bin"), missing, out.toString(), "pwd"))
                .isZero();
        String line = "slurmstepd-n1: error: couldn't chdir to `" + missing
                + "': No such file or directory: going to /tmp instead";
        assertThat(Files.readAllLines(out)).containsExactly(line, line, "/tmp");
    }

    @Test
    void anOutputFileThatCannotBeOpenedEndsTheJobBySignal53() throws Exception {
        Supervisor supervisor = supervisor();
        Path ran = spool.resolve("ran");
        String out = spool.resolve("no-such-dir/out").toString();
        assertThat(run(supervisor, uid(), Map.of(), "/tmp", out, "touch " + ran))
                .isEqualTo(53);
        assertThat(ran).doesNotExist();
    }

    /** A working directory of sluiceuser1's, for tests that run as root for that user. */
    private Path userWorkDir() throws Exception {
        assumeTrue(rootWithTestUser(), "needs root and sluiceuser1");
        Path work = Files.createDirectories(spool.resolve("work"));
        Files.setOwner(
                work, work.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("sluiceuser1"));
        return work;
    }

    /** As root for another user: every id is the user's, saved ones included, and files are opened as the user. */
    @Test
    void theJobIsTheUserThroughAndThrough() throws Exception {
        Supervisor supervisor = supervisor();
        Path out = userWorkDir().resolve("out");
        Path work = out.getParent();
        Path secret = spool.resolve("secret");
        Files.writeString(secret, "root's\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        int status = run(
                supervisor,
                USER,
                Map.of("PATH", "/usr/bin:/bin"),
                work.toString(),
                out.toString(),
                "grep -E '^(Uid|Gid):' /proc/self/status; id -G; cat " + secret + " 2>/dev/null; exit 0");
        assertThat(status).isZero();
        List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
        assertThat(lines.get(0).split("\\s+")).containsExactly("Uid:", "1001", "1001", "1001", "1001");
        assertThat(lines.get(1).split("\\s+")).containsExactly("Gid:", "1001", "1001", "1001", "1001");
        assertThat(lines.get(2)).doesNotContain(" 0").isNotEqualTo("0");
        assertThat(lines).as("a file only root may read").doesNotContain("root's");
        assertThat(Files.getOwner(out).getName()).isEqualTo("sluiceuser1");
    }

    /**
     * The groups the daemon found (getgrouplist, directory groups included) are the job's, not
     * the group file's: 100 here is a group the file does not list sluiceuser1 in.
     */
    @Test
    void theJobGetsTheGroupsTheDaemonFound() throws Exception {
        Supervisor supervisor = supervisor();
        Path out = userWorkDir().resolve("out");
        Path work = out.getParent();
        int status = run(
                supervisor,
                USER,
                USER + ",100",
                Map.of("PATH", "/usr/bin:/bin"),
                work.toString(),
                out.toString(),
                "id -G");
        assertThat(status).isZero();
        assertThat(Files.readAllLines(out).get(0).split(" ")).containsExactly(Integer.toString(USER), "100");
    }

    /** An output file the user may not write (root's directory) is not opened with root's rights. */
    @Test
    void aFileOnlyRootMayWriteIsNotOpened() throws Exception {
        Supervisor supervisor = supervisor();
        assumeTrue(rootWithTestUser(), "needs root and sluiceuser1");
        Path rootOnly = Files.createDirectories(spool.resolve("root-only"));
        Files.setPosixFilePermissions(rootOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path out = rootOnly.resolve("out");
        assertThat(run(supervisor, USER, Map.of(), "/tmp", out.toString(), "true"))
                .isEqualTo(53);
        assertThat(out).doesNotExist();
    }

    /** --cgroup: the supervisor joins each directory first (a plain file stands for cgroup.procs here). */
    @Test
    void theSupervisorJoinsItsCgroupsBeforeAnythingElse() throws Exception {
        Supervisor supervisor = supervisor();
        Path a = Files.createDirectories(spool.resolve("cg/a"));
        Path b = Files.createDirectories(spool.resolve("cg/b"));
        Files.writeString(a.resolve("cgroup.procs"), "");
        Files.writeString(b.resolve("cgroup.procs"), "");
        Path dir = Files.createDirectories(spool.resolve("job00002"));
        List<String> command =
                supervisor.command(dir, Supervisor.cgroupOptions(List.of(a, b)), List.of("/bin/sh", "-c", "exit 0"));
        Process p = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        p.onExit().get();
        String pid = Long.toString(p.pid());
        assertThat(a.resolve("cgroup.procs")).hasContent(pid);
        assertThat(b.resolve("cgroup.procs")).hasContent(pid);
        assertThat(JobFacts.of(dir).value(Supervisor.WAIT_STATUS).orElse("")).isEqualTo("0");
        // One it cannot join: it stops there (126), before the Prolog or the job.
        Path missing = spool.resolve("cg/none");
        Path dir2 = Files.createDirectories(spool.resolve("job00003"));
        Process q = new ProcessBuilder(supervisor.command(
                        dir2, Supervisor.cgroupOptions(List.of(missing)), List.of("/bin/sh", "-c", "exit 0")))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertThat(q.onExit().get().exitValue()).isEqualTo(126);
        assertThat(JobFacts.of(dir2).has(Supervisor.SUPERVISOR_PID)).isFalse();
    }
}
