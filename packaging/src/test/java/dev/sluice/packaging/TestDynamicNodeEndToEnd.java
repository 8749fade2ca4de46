package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dynamic node ({@code -Z --conf "Gres=gpu:3 ..."}) absent from slurm.conf, with its three
 * GPUs as device files: it joins the {@code Nodes=ALL} partitions with {@code gpu:3}; started
 * again with one file gone it is drained with Slurm's reason; resumed after the file is back it
 * is idle. Real daemons as processes.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestDynamicNodeEndToEnd {
    @TempDir
    static Path stateDir;

    private static ClusterProcesses cluster;
    private static Path gpus;
    private static Process dyn;

    @BeforeAll
    static void up() throws Exception {
        cluster = new ClusterProcesses(stateDir, 1, 2, 1);
        gpus = stateDir.resolve("dyngpu");
        Files.createDirectories(gpus);
        for (int i = 0; i < 3; i++) {
            Files.createFile(gpus.resolve("nvidia" + i));
        }
        cluster.appendGresConf("NodeName=dyn1 Name=gpu File=" + gpus + "/nvidia[0-2]\n");
        cluster.start();
        dyn = startDynamic();
    }

    private static Process startDynamic() throws Exception {
        return cluster.startNode(
                "dyn1",
                "-N",
                "dyn1",
                "-Z",
                "--conf",
                "CPUs=2 RealMemory=1000 Gres=gpu:3 Feature=a100",
                "--addr",
                "127.0.0.1",
                "--port",
                "0",
                "--spool-dir",
                stateDir.resolve("spool-dyn1").toString());
    }

    @AfterAll
    static void down() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String sinfo(String... args) throws Exception {
        ClusterProcesses.Result r = cluster.command("sinfo", args);
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.out();
    }

    @Test
    @Order(1)
    void theDynamicNodeAppearsWithItsGpus() {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(sinfo("-n", "dyn1", "-o", "%P %N %t %G"))
                        .isEqualTo("PARTITION NODELIST STATE GRES\n" + "all* dyn1 idle gpu:3\n"
                                + "gpu dyn1 idle gpu:3\n"));
    }

    @Test
    @Order(2)
    void itRunsAJobWithAGpu() throws Exception {
        ClusterProcesses.Result submit =
                cluster.command("sbatch", "-w", "dyn1", "--gres=gpu:2", "--wrap", "echo CVD=$CUDA_VISIBLE_DEVICES");
        assertThat(submit.exitCode()).as(submit.err()).isZero();
        String id = submit.out().replaceAll("\\D", "");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(
                                cluster.command("scontrol", "show", "job", id).out())
                        .contains("JobState=COMPLETED"));
        assertThat(Files.readString(cluster.workDir().resolve("slurm-" + id + ".out")))
                .isEqualTo("CVD=0,1\n");
    }

    @Test
    @Order(3)
    void restartedWithAGpuMissingItIsDrainedWithTheReason() throws Exception {
        ClusterProcesses.stop(dyn);
        Files.delete(gpus.resolve("nvidia2"));
        dyn = startDynamic();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(
                        () -> assertThat(sinfo("-n", "dyn1", "-o", "%N %t")).isEqualTo("NODELIST STATE\ndyn1 drain\n"));
        assertThat(sinfo("-R", "-o", "%60E %9u %N"))
                .containsPattern("(?m)^gres/gpu count reported lower than configured \\(2 < 3\\)\\s+root\\s+dyn1$");
        assertThat(cluster.logs()).contains("does not exist");
    }

    @Test
    @Order(4)
    void resumedAfterTheFileIsBackItIsIdle() throws Exception {
        Files.createFile(gpus.resolve("nvidia2"));
        ClusterProcesses.Result r = cluster.command("scontrol", "update", "NodeName=dyn1", "State=RESUME");
        assertThat(r.exitCode()).as(r.err()).isZero();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(sinfo("-n", "dyn1", "-o", "%N %t %E"))
                        .isEqualTo("NODELIST STATE REASON\ndyn1 idle none\n"));
        assertThat(sinfo("-R", "-h")).doesNotContain("dyn1");
    }

    @Test
    @Order(5)
    void reconfigurePushesAChangedGresConfToTheNode() throws Exception {
        // dyn1's GPUs are now said to be nvidia[1-3]; nvidia3 does not exist.
        Path gresConf = cluster.layout().etc().resolve("gres.conf");
        Files.writeString(gresConf, Files.readString(gresConf).replace(gpus + "/nvidia[0-2]", gpus + "/nvidia[1-3]"));
        ClusterProcesses.Result r = cluster.command("scontrol", "reconfigure");
        assertThat(r.exitCode()).as(r.err()).isZero();
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(sinfo("-n", "dyn1", "-o", "%N %t %E"))
                        .isEqualTo("NODELIST STATE REASON\n"
                                + "dyn1 drain gres/gpu count reported lower than configured (2 < 3)\n"));
    }

    @Test
    @Order(6)
    void scontrolCreatesAndDeletesDynamicNodes() throws Exception {
        ClusterProcesses.Result created = cluster.command(
                "scontrol", "create", "NodeName=c[1-2]", "CPUs=2", "Gres=gpu:1", "Feature=a100", "State=FUTURE");
        assertThat(created.exitCode()).as(created.err()).isZero();
        assertThat(sinfo("-n", "c[1-2]", "-o", "%P %N %t %G"))
                .isEqualTo("PARTITION NODELIST STATE GRES\nall* c[1-2] futr gpu:1\ngpu c[1-2] futr gpu:1\n");
        ClusterProcesses.Result refused = cluster.command("scontrol", "delete", "NodeName=node1");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err()).isEqualTo("Error deleting node(s): Can't delete non-dynamic node node1\n");
        ClusterProcesses.Result deleted = cluster.command("scontrol", "delete", "NodeName=c[1-2]");
        assertThat(deleted.exitCode()).as(deleted.err()).isZero();
        assertThat(sinfo("-h", "-o", "%N")).doesNotContain("c1").doesNotContain("c2");
    }

    @Test
    @Order(7)
    void aDynamicNodeWhoseNameDoesNotResolveIsReachedWhereItRegisteredFrom() throws Exception {
        // No --addr, no NodeAddr=: the controller must not record the bare name (jobs then
        // retried "Unable to resolve host" forever) but the address the node registered from.
        assertThatThrownBy(() -> InetAddress.getAllByName("dynx1"))
                .as("the test needs a node name that does not resolve")
                .isInstanceOf(UnknownHostException.class);
        cluster.startNode(
                "dynx1",
                "-N",
                "dynx1",
                "-Z",
                "--conf",
                "CPUs=1 RealMemory=500",
                "--port",
                "0",
                "--spool-dir",
                stateDir.resolve("spool-dynx1").toString());
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() ->
                        assertThat(sinfo("-h", "-n", "dynx1", "-o", "%N %t %o")).isEqualTo("dynx1 idle 127.0.0.1\n"));
        ClusterProcesses.Result submit = cluster.command("sbatch", "-w", "dynx1", "--wrap", "echo reached");
        assertThat(submit.exitCode()).as(submit.err()).isZero();
        String id = submit.out().replaceAll("\\D", "");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(
                                cluster.command("scontrol", "show", "job", id).out())
                        .contains("JobState=COMPLETED"));
        assertThat(Files.readString(cluster.workDir().resolve("slurm-" + id + ".out")))
                .isEqualTo("reached\n");
    }

    @Test
    @Order(8)
    void aDaemonStartedWithDashNBringsUpAFutureNodeScontrolCreated() throws Exception {
        ClusterProcesses.Result created = cluster.command(
                "scontrol", "create", "NodeName=f1", "CPUs=1", "RealMemory=500", "Feature=made", "State=FUTURE");
        assertThat(created.exitCode()).as(created.err()).isZero();
        assertThat(sinfo("-h", "-n", "f1", "-o", "%N %t %c %m %f")).isEqualTo("f1 futr 1 500 made\n");
        // The cluster's slurm.conf does not list f1: as slurmd -N, the daemon registers anyway.
        cluster.startNode(
                "f1",
                "-N",
                "f1",
                "--port",
                "0",
                "--spool-dir",
                stateDir.resolve("spool-f1").toString());
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(sinfo("-h", "-n", "f1", "-o", "%N %t %c %m %f"))
                        .as("up, with the resources it was created with")
                        .isEqualTo("f1 idle 1 500 made\n"));
        ClusterProcesses.Result submit = cluster.command("sbatch", "-w", "f1", "--wrap", "echo on f1");
        assertThat(submit.exitCode()).as(submit.err()).isZero();
        String id = submit.out().replaceAll("\\D", "");
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(
                                cluster.command("scontrol", "show", "job", id).out())
                        .contains("JobState=COMPLETED"));
        assertThat(Files.readString(cluster.workDir().resolve("slurm-" + id + ".out")))
                .isEqualTo("on f1\n");
    }
}
