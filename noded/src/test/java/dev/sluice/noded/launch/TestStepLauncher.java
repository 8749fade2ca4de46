package dev.sluice.noded.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.sluice.noded.job.StepLaunch;
import dev.sluice.noded.job.StepLaunchBuilder;
import dev.sluice.noded.spool.JobSpool;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.StepIo;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The step launcher as srun meets it: this test plays srun's I/O port, to which the node connects
 * and sends its hello, each task's output and each task's exit status as wait(2) writes it.
 */
class TestStepLauncher {
    private static final int JOB = 77;
    private static final int STEP = 3;
    private static final Instant NOW = Instant.parse("2022-06-07T08:09:10Z");

    @TempDir
    Path dir;

    private ServerSocket srun;
    private StepLauncher launcher;
    private Path work;

    @BeforeEach
    void start() throws Exception {
        srun = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        work = Files.createDirectories(dir.resolve("work"));
        launcher = new StepLauncher(setup(uid()));
    }

    @AfterEach
    void stop() throws IOException {
        launcher.signalJob(JOB, "KILL");
        srun.close();
    }

    private LaunchSetup setup(int daemonUid) throws IOException {
        return LaunchSetup.builder()
                .nodeName("n7")
                .spool(new JobSpool(dir.resolve("spool")))
                .daemonUid(daemonUid)
                .clock(() -> NOW)
                .build();
    }

    private static int uid() {
        return (int) new com.sun.security.auth.module.UnixSystem().getUid();
    }

    /** Tasks 4 and 5 of six, on the second of two nodes, each running {@code sh -c script}. */
    private StepLaunch request(String script, int ownerUid) {
        return StepLaunchBuilder.step(JOB, STEP)
                .owner(
                        ownerUid,
                        (int) new com.sun.security.auth.module.UnixSystem().getGid(),
                        System.getProperty("user.name"))
                .argv("/bin/sh", "-c", script)
                .env("PATH", "/usr/bin:/bin")
                .env("FROM_SRUN", "kept")
                .workDir(work.toString())
                .tasks(new StepLaunch.Tasks(List.of(4, 5), 1, 2, 6, "n[6-7]", "4,2"))
                .cpus(2)
                .io("127.0.0.1", srun.getLocalPort())
                .build();
    }

    /** What srun heard from the node until every task's exit. */
    private record Heard(
            StepIo hello,
            Map<Integer, String> out,
            Map<Integer, String> err,
            Map<Integer, Integer> exits,
            List<String> notices) {}

    private Heard listen(Socket socket, int tasks, Runnable onceEveryTaskSpoke) throws IOException {
        socket.setSoTimeout(30_000);
        InputStream in = new BufferedInputStream(socket.getInputStream());
        StepIo hello = Frames.read(StepIo.parser(), in);
        Map<Integer, String> out = new TreeMap<>();
        Map<Integer, String> err = new TreeMap<>();
        Map<Integer, Integer> exits = new TreeMap<>();
        List<String> notices = new ArrayList<>();
        boolean told = false;
        while (exits.size() < tasks) {
            StepIo frame = Frames.read(StepIo.parser(), in);
            if (frame.hasOutput()) {
                var o = frame.getOutput();
                String text = o.getData().toString(StandardCharsets.UTF_8);
                (o.getStream() == 1 ? out : err).merge(o.getTaskId(), text, String::concat);
            } else if (frame.hasExit()) {
                exits.put(frame.getExit().getTaskId(), frame.getExit().getStatus());
            } else if (frame.hasCancelled()) {
                notices.add(frame.getCancelled().getNotice());
            }
            if (!told && out.size() == tasks) {
                told = true;
                onceEveryTaskSpoke.run();
            }
        }
        return new Heard(hello, out, err, exits, notices);
    }

    @Test
    void eachTaskRunsWithItsStepsEnvironmentAndItsOutputAndExitStatusReachSrun() throws Exception {
        launcher.launch(request(
                "echo \"$SLURM_PROCID $SLURM_LOCALID $SLURM_NODEID $SLURM_JOB_ID $SLURM_STEP_ID $SLURM_NTASKS"
                        + " $SLURMD_NODENAME $SLURM_STEP_NODELIST $FROM_SRUN $(pwd)\"; echo oops >&2;"
                        + " exit $((SLURM_LOCALID + 2))",
                uid()));

        try (Socket socket = srun.accept()) {
            Heard heard = listen(socket, 2, () -> {});
            assertThat(heard.hello().getHello().getNodeName()).isEqualTo("n7");
            assertThat(heard.hello().getHello().getTaskIdsList()).containsExactly(4, 5);
            assertThat(heard.out())
                    .containsExactly(
                            Map.entry(4, "4 0 1 77 3 6 n7 n[6-7] kept " + work + "\n"),
                            Map.entry(5, "5 1 1 77 3 6 n7 n[6-7] kept " + work + "\n"));
            assertThat(heard.err()).containsExactly(Map.entry(4, "oops\n"), Map.entry(5, "oops\n"));
            // exit 2 and exit 3 as wait(2) writes them: srun's "exited with exit code 2".
            assertThat(heard.exits()).containsExactly(Map.entry(4, 2 << 8), Map.entry(5, 3 << 8));
        }
        // The step leaves the list once its stream is closed, just after the last exit went.
        await().atMost(Duration.ofSeconds(10)).until(() -> launcher.runningSteps() == 0);
    }

    @Test
    void aJobSignalReachesEveryTaskAndEachExitNamesTheSignal() throws Exception {
        launcher.launch(request("echo up; exec sleep 30", uid()));

        try (Socket socket = srun.accept()) {
            Heard heard = listen(socket, 2, () -> launcher.signalJob(JOB, "TERM"));
            assertThat(heard.exits()).containsExactly(Map.entry(4, 15), Map.entry(5, 15));
        }
    }

    @Test
    void srunsSignalFrameReachesEveryTask() throws Exception {
        launcher.launch(request("echo up; exec sleep 30", uid()));

        try (Socket socket = srun.accept()) {
            OutputStream toNode = socket.getOutputStream();
            Heard heard = listen(socket, 2, () -> {
                try {
                    Frames.write(StepIo.newBuilder().setSignal(2).build(), toNode);
                    toNode.flush();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertThat(heard.exits()).containsExactly(Map.entry(4, 2), Map.entry(5, 2));
        }
    }

    @Test
    void aCancelledStepsSrunHearsSlurmstepdsLineAtTheInjectedTimeThenItsTasksEnd() throws Exception {
        launcher.launch(request("echo up; exec sleep 30", uid()));

        try (Socket socket = srun.accept()) {
            Heard heard = listen(socket, 2, () -> launcher.signalStep(JOB, STEP, 9, true));
            String at = LocalDateTime.ofInstant(NOW, ZoneId.systemDefault())
                    .format(DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss"));
            assertThat(heard.notices())
                    .containsExactly("slurmstepd-n7: error: *** STEP 77.3 ON n7 CANCELLED AT " + at + " ***");
            assertThat(heard.exits()).containsExactly(Map.entry(4, 9), Map.entry(5, 9));
        }
    }

    @Test
    void aDaemonNotRunAsRootRunsNoOtherUsersStep() throws Exception {
        int daemon = uid() == 0 ? 4321 : uid();
        StepLauncher unprivileged = new StepLauncher(setup(daemon));

        assertThatThrownBy(() -> unprivileged.launch(request("echo never", daemon + 1)))
                .isInstanceOf(IOException.class)
                .hasMessage("sluice-noded runs as uid " + daemon + " and cannot run steps of uid " + (daemon + 1));
        assertThat(unprivileged.runningSteps()).isZero();
    }
}
