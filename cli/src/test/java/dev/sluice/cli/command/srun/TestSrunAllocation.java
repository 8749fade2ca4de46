package dev.sluice.cli.command.srun;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.JobSpec;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A lone srun (no SLURM_JOB_ID): the allocation it asks for is sbatch's JobSpec, filled from the
 * same options; what Slurm refuses on this cluster is refused with its words. Expected lines and
 * statuses are real srun 22.05's on the same command lines.
 */
class TestSrunAllocation {
    @RegisterExtension
    final CommandFixture cli = CommandFixture.onAFakeCluster().withEnv("PATH", "/usr/bin:/bin");

    private Output srun(String... args) {
        return cli.run(new SrunCommand(), args);
    }

    private JobSpec submitted() {
        return cli.cluster().submitted().orElseThrow();
    }

    @Test
    void allocationOptionsFillTheJobSpecAsSbatchsDo() {
        Output o = srun(
                "-A",
                "acct",
                "-q",
                "qos",
                "--comment=c",
                "-p",
                "gpu",
                "-x",
                "n2",
                "-w",
                "n1",
                "-C",
                "feat",
                "--mem=100",
                "-t",
                "5",
                "--dependency=singleton",
                "--mail-type=END",
                "--gpus=1",
                "--nice",
                "-k",
                "-N1",
                "-n2",
                "-J",
                "nm",
                "--signal=USR1@10",
                "--gres-flags=enforce-binding",
                "/bin/true");
        assertThat(o).isEqualTo(new Output(0, "", ""));
        JobSpec s = submitted();
        assertThat(s.getAccount()).isEqualTo("acct");
        assertThat(s.getQos()).isEqualTo("qos");
        assertThat(s.getComment()).isEqualTo("c");
        assertThat(s.getPartition()).isEqualTo("gpu");
        assertThat(s.getExcludeNodes()).isEqualTo("n2");
        assertThat(s.getReqNodes()).isEqualTo("n1");
        assertThat(s.getConstraint()).isEqualTo("feat");
        assertThat(s.getMemPerNodeMb()).isEqualTo(100);
        assertThat(s.getTimeLimitMinutes()).isEqualTo(5);
        assertThat(s.getDependency()).isEqualTo("singleton");
        assertThat(s.getMailType()).isEqualTo("END");
        assertThat(s.getGpus()).isEqualTo("1");
        assertThat(s.getNice()).isEqualTo(100);
        assertThat(s.getNoKill()).isTrue();
        assertThat(s.getMinNodes()).isEqualTo(1);
        assertThat(s.getNumTasks()).isEqualTo(2);
        assertThat(s.getName()).isEqualTo("nm");
        assertThat(s.getWarnSignal()).isEqualTo(10);
        assertThat(s.getGresFlags()).isEqualTo("enforce-binding");
        assertThat(s.getCommand()).isEqualTo("/bin/true");
        assertThat(s.getStdOut()).isEmpty();
        assertThat(cli.cluster().step().orElseThrow().getEnvironmentMap()).containsEntry("SLURM_JOB_ID", "42");
        assertThat(cli.cluster().released()).contains(0);
    }

    @Test
    void aNodeFileIsTheNodeList() throws IOException {
        Files.writeString(cli.dir().resolve("hosts"), "n1\nn2\n");
        srun("-F", "hosts", "/bin/true");
        assertThat(submitted().getReqNodes()).isEqualTo("n1,n2");
        assertThat(srun("-F/nonexistent", "/bin/true")).isEqualTo(new Output(255, "", """
                        srun: error: slurm_allocate_resources error opening file /nonexistent, No such file or directory
                        srun: error: Invalid --nodefile node file
                        """));
    }

    @Test
    void whatThisClusterHasNoneOfIsRefusedAsSlurmsControllerRefusesIt() {
        assertThat(srun("-M", "foo", "/bin/true").err())
                .isEqualTo("srun: error: No cluster 'foo' known by database.\n"
                        + "srun: error: 'foo' can't be reached now, or it is an invalid entry for --cluster.  "
                        + "Use 'sacctmgr list clusters' to see available clusters.\n");
        assertThat(cli.cluster().submitted()).isEmpty();
        assertThat(srun("-M", "test", "/bin/true").exitCode()).isZero();
    }

    @Test
    void immediateGivesUpOnABusyClusterAndReleasesTheJob() {
        cli.cluster().pending();
        // Real srun 22.05, both nodes busy: `srun -I ...` and `srun -I2 ...`.
        assertThat(srun("-I", "-N1", "--exclusive", "/bin/true"))
                .isEqualTo(new Output(1, "", "srun: error: Unable to allocate resources: Requested nodes are busy\n"));
        assertThat(cli.cluster().released()).isPresent();
        assertThat(srun("-I1", "/bin/true").err())
                .isEqualTo("srun: job 42 queued and waiting for resources\n"
                        + "srun: error: Unable to allocate resources: Requested nodes are busy\n");
    }

    @Test
    void testOnlyAsksWhereAndWhenAndRunsNothing() {
        Output o = srun("--test-only", "-n1", "/bin/true");
        assertThat(o.err())
                .startsWith("srun: Job 42 to start at ")
                .endsWith(" using 1 processors on nodes n1 in partition gpu\n");
        assertThat(cli.cluster().requests())
                .hasSize(1)
                .allMatch(r -> r.getSubmitBatchJob().getTestOnly());
    }

    @Test
    void badValuesAreSlurmsRefusals() {
        assertThat(srun("-t", "bogus", "/bin/true"))
                .isEqualTo(new Output(255, "", "srun: error: Invalid --time specification\n"));
        assertThat(srun("-N", "3-1", "/bin/true").err())
                .isEqualTo("srun: error: Maximum node count 1 is less than minimum node count 3\n");
        assertThat(srun("-c", "0", "/bin/true"))
                .isEqualTo(new Output(1, "", "srun: error: Invalid numeric value \"0\" for --cpus-per-task.\n"));
        assertThat(srun("--jobid=abc", "/bin/true"))
                .isEqualTo(new Output(1, "", "srun: error: Invalid numeric value \"abc\" for --jobid.\n"));
        assertThat(srun("-r0", "/bin/true"))
                .isEqualTo(new Output(1, "", "srun: fatal: --relative option invalid for job allocation request\n"));
        assertThat(srun("--nice=100000000000", "/bin/true"))
                .isEqualTo(new Output(255, "", "srun: error: Invalid --nice value, out of range (+/- 2147483645)\n"));
        assertThat(srun("--exclusive=bogus", "/bin/true"))
                .isEqualTo(new Output(255, "", "srun: error: Invalid --exclusive specification\n"));
        assertThat(cli.cluster().requests()).isEmpty();
    }

    @Test
    void exclusiveForAUserOrAnMcsLabelIsTakenAndTheNodesStayShared() {
        assertThat(srun("--exclusive=user", "/bin/true").exitCode()).isZero();
        assertThat(submitted().getExclusive()).isFalse();
        assertThat(cli.cluster().requests().stream()
                        .filter(ClientRequest::hasCreateStep)
                        .findFirst()
                        .orElseThrow()
                        .getCreateStep()
                        .getExclusive())
                .isFalse();
    }
}
