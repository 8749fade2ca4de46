package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sluice.noded.spool.JobFacts;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestSupervisor {
    @TempDir
    Path spool;

    private Process supervise(Path jobDir, String script) throws Exception {
        return supervise(Supervisor.install(spool), jobDir, script);
    }

    private static Process supervise(Supervisor supervisor, Path jobDir, String script) throws Exception {
        Files.createDirectories(jobDir);
        // Either supervisor starts the job in a session of its own.
        return new ProcessBuilder(supervisor.command(jobDir, List.of("/bin/sh", "-c", script)))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private static String fact(Path jobDir, String name) throws Exception {
        return JobFacts.of(jobDir).value(name).orElseThrow(() -> new AssertionError("no " + name + " in " + jobDir));
    }

    @Test
    void recordsThePidsAndTheExitStatusOfTheJob() throws Exception {
        Path dir = spool.resolve("job00001");
        Process p = supervise(dir, "exit 3");
        p.onExit().get();
        assertThat(fact(dir, Supervisor.EXIT)).isEqualTo("3");
        assertThat(fact(dir, Supervisor.SUPERVISOR_PID)).isEqualTo(Long.toString(p.pid()));
        assertThat(Long.parseLong(fact(dir, Supervisor.JOB_PID))).isPositive();
        assertThat(dir.toFile().list()).as("one file for all its facts").containsExactly(JobFacts.FILE);
    }

    @Test
    void tellsAJobKilledByASignalFromOneThatExitsWith128PlusIt() throws Exception {
        Path killed = spool.resolve("job00021");
        supervise(killed, "kill -9 $$").onExit().get();
        assertThat(Integer.parseInt(fact(killed, Supervisor.WAIT_STATUS))).isEqualTo(9);
        assertThat(fact(killed, Supervisor.EXIT))
                .as("the shell's form, for older daemons")
                .isEqualTo("137");
        Path exited = spool.resolve("job00022");
        supervise(exited, "exit 137").onExit().get();
        assertThat(Integer.parseInt(fact(exited, Supervisor.WAIT_STATUS))).isEqualTo(137 << 8);
        assertThat(fact(exited, Supervisor.EXIT)).isEqualTo("137");
        assertThat(Supervisor.exactStatus(9)).isEqualTo(9);
        assertThat(Supervisor.exactStatus(0x80 | 11)).as("core dumped").isEqualTo(11);
        assertThat(Supervisor.exactStatus(137 << 8)).isEqualTo(137 << 8);
    }

    @Test
    void aJobThatRunsAWhileIsStillReadWhenItEnds() throws Exception {
        Path dir = spool.resolve("job00023");
        Process p = supervise(dir, "sleep 3; exit 5");
        p.onExit().get();
        assertThat(Integer.parseInt(fact(dir, Supervisor.WAIT_STATUS))).isEqualTo(5 << 8);
        // The job's parent (the runner) ended before the supervisor, which waited for it.
        assertThat(ProcessHandle.allProcesses())
                .noneMatch(h ->
                        h.info().arguments().map(List::of).orElse(List.of()).contains(dir.toString()));
    }

    /**
     * The status of a job that ends before its pid is even recorded is not lost. The earlier
     * layout lost it exactly then: the job's parent, a subshell about to become a non-reaping
     * {@code tail}, reaped a job that had ended before its {@code exec} (about one run in 700 on
     * a loaded machine; always, once that subshell was made to wait a moment after the fork).
     * Here the installed supervisor is made to wait 0.3 s after the fork, so every job below ends
     * first; its waitpid(pid) still gets each status exactly.
     */
    @Test
    void aJobThatEndsBeforeItsPidIsRecordedKeepsItsExactStatus() throws Exception {
        Supervisor supervisor = Supervisor.install(spool);
        Path runner = spool.resolve("sluice-supervise.pl");
        String text = Files.readString(runner);
        String recordPid = "fact($job, 'job.pid', $job->{pid});";
        assertThat(text).contains(recordPid);
        Files.writeString(runner, text.replace(recordPid, "select(undef, undef, undef, 0.3); " + recordPid));
        java.util.Map<String, Integer> jobs = java.util.Map.of(
                "/bin/true", 0,
                "exit 3", 3 << 8,
                "kill -9 $$", 9);
        int n = 0;
        try (SupervisorHost host = supervisor.host().orElseThrow()) {
            for (var job : jobs.entrySet()) {
                // A supervisor alone, then the host: both wait before they publish the pid.
                Path dir = spool.resolve("job" + (30100 + n++));
                supervise(supervisor, dir, job.getKey()).onExit().get();
                assertThat(JobFacts.of(dir).value(Supervisor.WAIT_STATUS).orElse(""))
                        .as(job.getKey())
                        .isEqualTo(Integer.toString(job.getValue()));
                Path hosted = Files.createDirectories(spool.resolve("job" + (30100 + n++)));
                host.start(supervisor.arguments(hosted, List.of(), List.of("/bin/sh", "-c", job.getKey())))
                        .ended()
                        .get(10, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(JobFacts.of(hosted).value(Supervisor.WAIT_STATUS).orElse(""))
                        .as("hosted " + job.getKey())
                        .isEqualTo(Integer.toString(job.getValue()));
            }
        }
    }

    /** Many jobs that end at once, started together: every status exact (a guard under load). */
    @Test
    void jobsThatEndAtOnceAllHaveTheirExactStatus() throws Exception {
        Supervisor supervisor = Supervisor.install(spool);
        java.util.Map<String, Integer> jobs = java.util.Map.of(
                "/bin/true", 0,
                "exit 3", 3 << 8,
                "kill -9 $$", 9);
        java.util.Map<Path, Integer> expected = new java.util.LinkedHashMap<>();
        java.util.List<Process> running = new java.util.ArrayList<>();
        int n = 0;
        for (int round = 0; round < 10; round++) {
            for (var job : jobs.entrySet()) {
                Path dir = spool.resolve("job" + (30000 + n++));
                expected.put(dir, job.getValue());
                running.add(supervise(supervisor, dir, job.getKey()));
            }
        }
        for (Process p : running) {
            p.onExit().get();
        }
        for (var e : expected.entrySet()) {
            assertThat(JobFacts.of(e.getKey()).value(Supervisor.WAIT_STATUS).orElse(""))
                    .as(e.getKey().toString())
                    .isEqualTo(Integer.toString(e.getValue()));
            assertThat(Long.parseLong(fact(e.getKey(), Supervisor.JOB_PID))).isPositive();
        }
    }

    @Test
    void withoutPerlTheShellsStatusIsRecorded() throws Exception {
        Supervisor supervisor = Supervisor.install(spool, false);
        Path exited = spool.resolve("job00041");
        supervise(supervisor, exited, "exit 3").onExit().get();
        assertThat(fact(exited, Supervisor.EXIT)).isEqualTo("3");
        assertThat(JobFacts.of(exited).has(Supervisor.WAIT_STATUS)).isFalse();
        Path killed = spool.resolve("job00042");
        supervise(supervisor, killed, "kill -9 $$").onExit().get();
        assertThat(fact(killed, Supervisor.EXIT)).isEqualTo("137");
        assertThat(Long.parseLong(fact(killed, Supervisor.JOB_PID))).isPositive();
        assertThat(JobFacts.of(killed).has(Supervisor.WAIT_STATUS)).isFalse();
    }

    private static String[] stat(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    /**
     * Without Perl the job's pid is published only once the job's process leads its own session
     * and process group, so a TERM to that group sent the moment the pid is there reaches the
     * job, however long its process takes before it runs anything of the job's (here: until
     * {@code release} exists). The pid used to be published right after the fork: a cancel
     * between the fork and the job's setsid found no group, and the job ended by KILL after
     * KillWait (0:9 instead of 0:15).
     */
    @Test
    void withoutPerlTheJobsPidNamesItsOwnProcessGroupFromTheStart() throws Exception {
        Supervisor supervisor = Supervisor.install(spool, false);
        Path dir = spool.resolve("job00044");
        Path release = spool.resolve("release44");
        Process p = supervise(supervisor, dir, "while [ ! -e " + release + " ]; do sleep 0.05; done; exit 0");
        await().atMost(Duration.ofSeconds(10)).until(() -> JobFacts.of(dir).has(Supervisor.JOB_PID));
        long job = Long.parseLong(fact(dir, Supervisor.JOB_PID));
        String[] fields = stat(job);
        int kill = new ProcessBuilder("kill", "-s", "TERM", "--", "-" + job)
                .start()
                .waitFor();
        Files.createFile(release);
        p.onExit().get();

        assertThat(fields[2]).as("process group").isEqualTo(Long.toString(job));
        assertThat(fields[3]).as("session").isEqualTo(Long.toString(job));
        assertThat(kill).as("kill(1) found the group").isZero();
        assertThat(fact(dir, Supervisor.EXIT)).as("ended by the TERM").isEqualTo("143");
    }

    /**
     * Without Perl, an end the daemon recorded before the pid was published (it writes
     * end_state, then looks for job.pid) is delivered by the job's process itself, right after
     * it publishes its pid: SIGTERM before anything of the job runs.
     */
    @Test
    void withoutPerlAnEndRecordedBeforeThePidEndsTheJobByTermBeforeItRuns() throws Exception {
        Supervisor supervisor = Supervisor.install(spool, false);
        Path dir = spool.resolve("job00045");
        Files.createDirectories(dir);
        JobFacts.append(dir, RunningJob.END_STATE, "CANCELLED");
        Path ran = spool.resolve("ran45");
        supervise(supervisor, dir, "touch " + ran).onExit().get();
        assertThat(fact(dir, Supervisor.EXIT)).isEqualTo("143");
        assertThat(ran).doesNotExist();
        assertThat(Long.parseLong(fact(dir, Supervisor.JOB_PID))).isPositive();
    }

    @Test
    void theRunnerIgnoresTheJobsPerlSettings() throws Exception {
        // The job's environment is the user's, and the runner runs as root: PERL5OPT must not
        // make it load anything (without -t this job would never start).
        Path dir = spool.resolve("job00043");
        Files.createDirectories(dir);
        ProcessBuilder p = new ProcessBuilder(
                        Supervisor.install(spool).command(dir, List.of("/bin/sh", "-c", "exit 4")))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        p.environment().put("PERL5OPT", "-MNoSuchModule");
        p.environment().put("PERL5LIB", spool.toString());
        p.start().onExit().get();
        assertThat(fact(dir, Supervisor.WAIT_STATUS)).isEqualTo(Integer.toString(4 << 8));
    }

    @Test
    void theJobLeadsASessionOfItsOwnWithDefaultSignalsAndOutlivesNoOne() throws Exception {
        Path dir = spool.resolve("job00002");
        Process p = supervise(dir, "trap 'exit 42' INT; sleep 600 & wait");
        await().atMost(Duration.ofSeconds(10)).until(() -> JobFacts.of(dir).has(Supervisor.JOB_PID));
        long job = Long.parseLong(fact(dir, Supervisor.JOB_PID));
        // Either supervisor publishes the pid only once the job leads its own session.
        String[] fields = stat(job);
        assertThat(fields[2]).as("process group").isEqualTo(Long.toString(job));
        assertThat(fields[3]).as("session").isEqualTo(Long.toString(job));
        // SIGINT reaches it although a shell started it in the background.
        new ProcessBuilder("kill", "-s", "INT", "--", "-" + job).start().waitFor();
        p.onExit().get();
        assertThat(fact(dir, Supervisor.EXIT)).isEqualTo("42");
        new ProcessBuilder("kill", "-s", "KILL", "--", "-" + job).start().waitFor();
    }

    @Test
    void aSupervisorIsRecognisedOnlyByItsOwnJobDirectory() throws Exception {
        Path dir = spool.resolve("job00003");
        Process p = supervise(dir, "sleep 600");
        await().atMost(Duration.ofSeconds(10)).until(() -> JobFacts.of(dir).has(Supervisor.JOB_PID));
        Optional<String> pid = Optional.of(Long.toString(p.pid()));
        assertThat(KnownSupervisor.of(dir, pid)).isPresent();
        assertThat(KnownSupervisor.of(spool.resolve("job00004"), pid)).isEmpty();
        assertThat(KnownSupervisor.of(
                        dir, Optional.of(Long.toString(ProcessHandle.current().pid()))))
                .isEmpty();
        assertThat(KnownSupervisor.of(dir, Optional.empty())).isEmpty();
        new ProcessBuilder("kill", "-s", "KILL", "--", "-" + fact(dir, Supervisor.JOB_PID))
                .start()
                .waitFor();
        p.onExit().get();
        assertThat(fact(dir, Supervisor.EXIT)).isEqualTo("137");
        assertThat(KnownSupervisor.of(dir, pid)).isEmpty();
    }

    @Test
    void theJobGetsItsEnvironmentByteForByteOnlyFromTheLoaderAndKeepsItsPid() throws Exception {
        for (boolean perl : new boolean[] {true, false}) {
            if (perl && !Supervisor.perlRuns()) {
                continue;
            }
            Path dir = spool.resolve(perl ? "job00005" : "job00006");
            Files.createDirectories(dir);
            Path out = spool.resolve("env.out");
            Path pid = spool.resolve("pid");
            byte[] value = {'x', (byte) 0xe9, '\'', ' ', '$', 'H', 'O', 'M', 'E', '\n', (byte) 0xff};
            UserEnvironment userEnv = new UserEnvironment(perl);
            java.util.Map<String, String> env = new java.util.LinkedHashMap<>();
            env.put("V", dev.sluice.common.text.RawText.decode(value));
            env.put("PATH", "/usr/bin:/bin");
            env.put("BASH_FUNC_f%%", "() {  echo f\n}");
            Path file = dir.resolve("environment");
            Files.write(file, userEnv.encode(env));
            String script = "printf %s \"$V\" > " + out + "; echo $$ > " + pid + "; env > " + out + ".all";
            List<String> sh = List.of("/bin/sh", "-c", script);
            // With Perl the supervisor's child loads the file (--user, as this test's own uid);
            // without, the loader program does.
            Process p = new ProcessBuilder(
                            perl
                                    ? Supervisor.install(spool, true)
                                            .command(
                                                    dir,
                                                    List.of("--user", uid(), uid(), "nobody", file.toString(), ""),
                                                    sh)
                                    : Supervisor.install(spool, false).command(dir, userEnv.loading(file, sh)))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.onExit().get();
            assertThat(Files.readAllBytes(out)).as("perl %s", perl).containsExactly(value);
            assertThat(fact(dir, Supervisor.EXIT)).isEqualTo("0");
            // The loader became the job (exec): the recorded pid is the job's.
            assertThat(Files.readString(pid).strip()).isEqualTo(fact(dir, Supervisor.JOB_PID));
            // Exactly the job's variables, nothing of the supervisor's (the shell adds PWD).
            List<String> names = Files.readAllLines(
                            out.resolveSibling("env.out.all"), java.nio.charset.StandardCharsets.ISO_8859_1)
                    .stream()
                    .filter(l -> l.matches("^[A-Za-z_][A-Za-z0-9_%]*=.*"))
                    .map(l -> l.substring(0, l.indexOf('=')))
                    .filter(n -> !n.equals("PWD") && !n.equals("SHLVL") && !n.equals("_"))
                    .toList();
            assertThat(names).as("perl %s", perl).contains("V", "PATH").doesNotContain("HOME");
            assertThat(userEnv.dropped(env)).isEqualTo(perl ? List.of() : List.of("BASH_FUNC_f%%"));
        }
    }

    private static String uid() throws Exception {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Uid:"))
                .findFirst()
                .orElseThrow()
                .split("\\s+")[1];
    }

    @Test
    void shellStatusBecomesSlurmsWaitStatus() {
        assertThat(Supervisor.waitStatus(0, false)).isZero();
        assertThat(Supervisor.waitStatus(3, false)).isEqualTo(3 << 8);
        assertThat(Supervisor.waitStatus(143, true)).isEqualTo(15);
        assertThat(Supervisor.waitStatus(137, true)).isEqualTo(9);
        assertThat(Supervisor.waitStatus(143, false))
                .as("an exit 143 of its own")
                .isEqualTo(143 << 8);
        assertThat(Supervisor.waitStatus(3, true)).isEqualTo(3 << 8);
    }

    private static void program(Path file, String body) throws Exception {
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        file.toFile().setExecutable(true);
    }

    @Test
    void theJobRunsBetweenItsPrologAndEpilog() throws Exception {
        Path dir = spool.resolve("job00010");
        Files.createDirectories(dir);
        Path log = spool.resolve("order.log");
        program(dir.resolve("prolog"), "echo prolog >> " + log);
        program(dir.resolve("epilog"), "echo epilog >> " + log);
        supervise(dir, "echo job >> " + log + "; exit 5").onExit().get();
        assertThat(Files.readAllLines(log)).containsExactly("prolog", "job", "epilog");
        assertThat(fact(dir, Supervisor.EXIT)).isEqualTo("5");
        assertThat(JobFacts.of(dir).has(Supervisor.PROLOG_FAILED)).isFalse();
        assertThat(JobFacts.of(dir).has(Supervisor.EPILOG_FAILED)).isFalse();
    }

    @Test
    void aFailingPrologKeepsTheJobFromRunning() throws Exception {
        Path dir = spool.resolve("job00011");
        Files.createDirectories(dir);
        Path ran = spool.resolve("ran");
        program(dir.resolve("prolog"), "exit 7");
        program(dir.resolve("epilog"), "touch " + spool.resolve("epilog-ran"));
        supervise(dir, "touch " + ran).onExit().get();
        assertThat(fact(dir, Supervisor.PROLOG_FAILED)).isEqualTo("7");
        assertThat(ran).doesNotExist();
        assertThat(JobFacts.of(dir).has(Supervisor.EXIT)).isFalse();
        assertThat(spool.resolve("epilog-ran")).as("no job, no epilog").doesNotExist();
    }

    @Test
    void aFailingEpilogIsRecordedAfterTheJobsStatus() throws Exception {
        Path dir = spool.resolve("job00012");
        Files.createDirectories(dir);
        program(dir.resolve("epilog"), "exit 2");
        supervise(dir, "exit 0").onExit().get();
        assertThat(fact(dir, Supervisor.EXIT)).isEqualTo("0");
        assertThat(fact(dir, Supervisor.EPILOG_FAILED)).isEqualTo("2");
    }
}
