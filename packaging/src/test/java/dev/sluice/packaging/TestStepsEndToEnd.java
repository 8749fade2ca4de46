package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Job steps with real daemons: {@code srun} inside batch jobs on two nodes with four fake GPUs
 * each (100 MPS shares per GPU), the GPU step scenario of Slurm's GRES guide, task variables,
 * labelled output, exit codes, and an exclusive step that waits for devices.
 */
class TestStepsEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 2, 4, 1, 4, 100);
        cluster.start();
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static int submit(String script, String... args) throws Exception {
        Path file = Files.createTempFile(cluster.workDir(), "job", ".sh");
        Files.writeString(file, "#!/bin/sh\n" + script);
        List<String> argv = new ArrayList<>(List.of(args));
        argv.add(file.toString());
        ClusterProcesses.Result r = cluster.command("sbatch", argv.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        Matcher m = Pattern.compile("Submitted batch job (\\d+)\n").matcher(r.out());
        assertThat(m.matches()).as(r.out()).isTrue();
        return Integer.parseInt(m.group(1));
    }

    private static String awaitCompleted(int id) throws Exception {
        await().atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(cluster.command("scontrol", "show", "job", Integer.toString(id))
                                .out())
                        .containsPattern("JobState=(COMPLETED|FAILED|CANCELLED|TIMEOUT) "));
        String show =
                cluster.command("scontrol", "show", "job", Integer.toString(id)).out();
        assertThat(show).as(output(id)).contains("JobState=COMPLETED ");
        return output(id);
    }

    private static String output(int id) throws Exception {
        Path out = cluster.workDir().resolve("slurm-" + id + ".out");
        return Files.exists(out) ? Files.readString(out) : "(no output file)\n" + cluster.logs();
    }

    @Test
    void exclusiveStepsInParallelGetDisjointGpus() throws Exception {
        int id = submit("""
                srun --gres=gpu:2 -n2 --exclusive sh -c 'echo "two $SLURM_STEP_ID $CUDA_VISIBLE_DEVICES"; sleep 2' > two.txt &
                srun --gres=gpu:1 -n1 --exclusive sh -c 'echo "one $SLURM_STEP_ID $CUDA_VISIBLE_DEVICES"; sleep 2' > one-a.txt &
                srun --gres=gpu:1 -n1 --exclusive sh -c 'echo "one $SLURM_STEP_ID $CUDA_VISIBLE_DEVICES"; sleep 2' > one-b.txt &
                wait
                echo "job sees $CUDA_VISIBLE_DEVICES"
                """, "--gres=gpu:4", "-n4", "-N1");
        assertThat(awaitCompleted(id)).contains("job sees 0,1,2,3");
        List<String> two = Files.readAllLines(cluster.workDir().resolve("two.txt"));
        String oneA = Files.readString(cluster.workDir().resolve("one-a.txt")).strip();
        String oneB = Files.readString(cluster.workDir().resolve("one-b.txt")).strip();
        assertThat(two).hasSize(2);
        assertThat(two.get(0)).isEqualTo(two.get(1));
        String twoDevices = two.get(0).split(" ")[2];
        String aDevice = oneA.split(" ")[2];
        String bDevice = oneB.split(" ")[2];
        assertThat(twoDevices.split(",")).hasSize(2);
        Set<String> all = new HashSet<>(List.of(twoDevices.split(",")));
        all.add(aDevice);
        all.add(bDevice);
        assertThat(all).as("disjoint: " + two + " " + oneA + " " + oneB).containsExactlyInAnyOrder("0", "1", "2", "3");
        Set<String> stepIds = Set.of(two.get(0).split(" ")[1], oneA.split(" ")[1], oneB.split(" ")[1]);
        assertThat(stepIds).containsExactlyInAnyOrder("0", "1", "2");
    }

    @Test
    void aStepOnTwoNodesSeesItsGpusOnEachAndLabelsItsOutput() throws Exception {
        int id = submit(
                "srun -N2 -n2 --gres=gpu:2 -l sh -c 'echo $SLURMD_NODENAME $CUDA_VISIBLE_DEVICES $SLURM_NODEID'\n",
                "-N2",
                "-n2",
                "--gres=gpu:2");
        String out = awaitCompleted(id);
        assertThat(out.lines().sorted().toList()).containsExactly("0: node1 0,1 0", "1: node2 0,1 1");
    }

    @Test
    void theSrunOptionsWorkflowToolsPassWorkOnRealNodes() throws Exception {
        // Snakemake's `srun -n1 --cpu-bind=q`, the output-file options of other tools, a
        // multi-program step, per-task input and a bad exit that ends its step.
        Path dir = cluster.workDir();
        Files.writeString(dir.resolve("mp.conf"), "0 echo first %t\n* echo rest %t %o\n");
        Files.writeString(dir.resolve("in-0.txt"), "input zero\n");
        Files.writeString(dir.resolve("in-1.txt"), "input one\n");
        int id = submit("""
                srun -n1 --cpu-bind=q --mpi=none --export=ALL echo snakemake
                srun -n2 --unbuffered --output wf-%j-%t.out --error wf.err --open-mode=append sh -c 'echo out $SLURM_PROCID; echo err >&2'
                srun -n3 -l --multi-prog mp.conf > mp.txt
                srun -n2 -l -i in-%t.txt cat > in.txt
                srun -n2 -K sh -c 'if [ $SLURM_PROCID = 1 ]; then exit 4; fi; exec sleep 60'
                echo "K rc=$?"
                """, "-n3", "-N1");
        String out = awaitCompleted(id);
        assertThat(out)
                .contains("srun: cluster configuration lacks support for cpu binding\nsnakemake\n")
                .contains("srun: launch/slurm: _step_signal: Terminating StepId=" + id + ".4\n")
                .contains("K rc=143\n");
        assertThat(Files.readString(dir.resolve("wf-" + id + "-0.out"))).isEqualTo("out 0\n");
        assertThat(Files.readString(dir.resolve("wf-" + id + "-1.out"))).isEqualTo("out 1\n");
        assertThat(Files.readString(dir.resolve("wf.err"))).isEqualTo("err\nerr\n");
        assertThat(Files.readAllLines(dir.resolve("mp.txt")).stream().sorted().toList())
                .containsExactly("0: first 0", "1: rest 1 0", "2: rest 2 1");
        assertThat(Files.readAllLines(dir.resolve("in.txt")).stream().sorted().toList())
                .containsExactly("0: input zero", "1: input one");
    }

    @Test
    void tasksGetTheirIdsAndSrunExitsWithTheHighestTaskExit() throws Exception {
        int id = submit("""
                srun -l sh -c 'echo $SLURM_PROCID $SLURM_LOCALID $SLURM_NODEID $SLURM_STEP_ID $SLURM_STEP_GPUS'
                srun -n2 sh -c 'exit $((SLURM_PROCID + 2))'
                echo "rc=$?"
                """, "-n2", "--gres=gpu:1");
        String out = awaitCompleted(id);
        assertThat(out).contains("0: 0 0 0 0 0\n").contains("1: 1 1 0 0 0\n").contains("rc=3\n");
        assertThat(out)
                .contains("srun: error: node1: task 0: Exited with exit code 2")
                .contains("srun: error: node1: task 1: Exited with exit code 3");
    }

    @Test
    void anExclusiveStepWaitsForDevicesOtherStepsHold() throws Exception {
        int id = submit("""
                srun --exclusive --gres=gpu:4 -n1 sh -c 'touch held; while [ ! -e release ]; do sleep 0.1; done; echo first' &
                while [ ! -e held ]; do sleep 0.1; done
                srun --exclusive --gres=gpu:1 -n1 sh -c 'echo second $CUDA_VISIBLE_DEVICES' 2> waited.txt &
                while ! grep -q 'temporarily disabled' waited.txt 2>/dev/null; do sleep 0.1; done
                touch release
                wait
                """, "--gres=gpu:4", "-n1");
        String out = awaitCompleted(id);
        assertThat(out).isEqualTo("first\nsecond 0\n");
        assertThat(Files.readString(cluster.workDir().resolve("waited.txt")))
                .isEqualTo(
                        "srun: Job " + id + " step creation temporarily disabled, retrying (Requested nodes are busy)\n"
                                + "srun: Step created for job " + id + "\n");
    }

    @Test
    void anMpsShareBecomesAThreadPercentage() throws Exception {
        int id = submit("""
                echo "batch CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"
                srun sh -c 'echo "step CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$CUDA_MPS_ACTIVE_THREAD_PERCENTAGE"'
                """, "--gres=mps:50");
        assertThat(awaitCompleted(id))
                .isEqualTo("batch CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50\nstep CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50\n");
    }

    @Test
    void aLoneSrunMakesItsOwnAllocationAndReleasesIt() throws Exception {
        String host = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        ClusterProcesses.Result r = cluster.command("srun", "-n2", "-J", "lone", "hostname");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(host + "\n" + host + "\n");
        String show = cluster.command("scontrol", "show", "job").out();
        assertThat(show).containsPattern("JobName=lone\n(.*\n){2}\\s+JobState=COMPLETED Reason=None");
    }

    @Test
    void sallocRunsItsCommandWithTheAllocationAndEndsWithItsStatus() throws Exception {
        ClusterProcesses.Result r = cluster.command(
                "salloc",
                "-n1",
                "--gres=gpu:1",
                "sh",
                "-c",
                "echo job=$SLURM_JOB_ID; srun sh -c 'echo step $SLURM_STEP_ID $CUDA_VISIBLE_DEVICES'; exit 3");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(3);
        Matcher m = Pattern.compile("job=(\\d+)\n").matcher(r.out());
        assertThat(m.lookingAt()).as(r.out()).isTrue();
        String id = m.group(1);
        assertThat(r.out()).isEqualTo("job=" + id + "\nstep 0 0\n");
        assertThat(r.err())
                .isEqualTo(
                        "salloc: Granted job allocation " + id + "\nsalloc: Relinquishing job allocation " + id + "\n");
        String show = cluster.command("scontrol", "show", "job", id).out();
        assertThat(show).contains("JobState=FAILED Reason=NonZeroExitCode").contains("ExitCode=3:0");
    }
}
