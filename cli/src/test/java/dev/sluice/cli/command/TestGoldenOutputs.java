package dev.sluice.cli.command;

import static dev.sluice.cli.testing.TestingInvocations.golden;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Command;
import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.command.sinfo.SinfoCommand;
import dev.sluice.cli.command.squeue.SqueueCommand;
import dev.sluice.cli.testing.Answers;
import dev.sluice.cli.testing.CommandFixture;
import dev.sluice.cli.testing.Fixtures;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.protocol.v1.ClientResponse;
import dev.sluice.protocol.v1.GetJobsResponse;
import java.io.IOException;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Byte-for-byte comparisons with real Slurm 22.05. Every file under {@code golden/} is the
 * unedited stdout of the real command, run by {@code /work/shared/tools/real-slurm/up.sh}
 * (FRESH=1 ACCT=0 NODES=3) on 2026-11-29 against the cluster that {@link Fixtures} describes;
 * the command line is in each test. Where Sluice knowingly prints something else, the test
 * says so and rewrites only that text.
 */
class TestGoldenOutputs {
    @RegisterExtension
    final CommandFixture cli = new CommandFixture(Answers::fixtureCluster);

    private String stdout(Command command, Instant now, String... args) {
        TestingInvocations.Output o = cli.runBothWays(command, now, args);
        assertThat(o.err()).isEmpty();
        assertThat(o.exitCode()).isZero();
        return o.out();
    }

    @Test
    void squeueDefault() throws IOException {
        // squeue (08:47:03)
        assertThat(stdout(new SqueueCommand(), Fixtures.SQUEUE_NOW)).isEqualTo(golden("squeue-default.txt"));
    }

    @Test
    void squeueLong() throws IOException {
        // squeue -l (08:47:03)
        assertThat(stdout(new SqueueCommand(), Fixtures.SQUEUE_NOW, "-l")).isEqualTo(golden("squeue-long.txt"));
    }

    @Test
    void squeueEachLetterLeftRightAndPadded() throws IOException {
        // for f in i P j ... F; do squeue -o "%$f|%.5$f|%20$f|"; done (08:47:04)
        StringBuilder all = new StringBuilder();
        for (char f : "iPjutTMDRbClLSeQrZNcmVAaqdfgGhknOpvwWxXyzUEBoF".toCharArray()) {
            all.append(stdout(new SqueueCommand(), Fixtures.LATER_NOW, "-o", "%" + f + "|%.5" + f + "|%20" + f + "|"));
        }
        assertThat(all.toString()).isEqualTo(golden("squeue-letters.txt"));
    }

    @Test
    void squeueManyFields() throws IOException {
        // squeue -o "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R %T %b %C %l %L %S %e %Q %r %Z %N %D %c %m %V %A %a %q %h"
        String format =
                "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R %T %b %C %l %L %S %e %Q %r %Z %N %D %c %m %V %A %a %q %h";
        assertThat(stdout(new SqueueCommand(), Fixtures.LATER_NOW, "-o", format))
                .isEqualTo(golden("squeue-many.txt"));
    }

    @Test
    void squeueStartSortAndStateFilter() throws IOException {
        // squeue --start; squeue -S i -h; squeue -t R (08:47:04)
        assertThat(stdout(new SqueueCommand(), Fixtures.LATER_NOW, "--start")).isEqualTo(golden("squeue-start.txt"));
        assertThat(stdout(new SqueueCommand(), Fixtures.LATER_NOW, "-S", "i", "-h"))
                .isEqualTo(golden("squeue-sort-i.txt"));
        assertThat(stdout(new SqueueCommand(), Fixtures.LATER_NOW, "-t", "R")).isEqualTo(golden("squeue-running.txt"));
    }

    @Test
    void sinfoModes() throws IOException {
        // sinfo; sinfo -N; sinfo -l; sinfo -N -l; sinfo -s; sinfo -R; sinfo -o "..." (08:47:04)
        Instant now = Fixtures.LATER_NOW;
        assertThat(stdout(new SinfoCommand(), now)).isEqualTo(golden("sinfo-default.txt"));
        assertThat(stdout(new SinfoCommand(), now, "-N")).isEqualTo(golden("sinfo-N.txt"));
        assertThat(stdout(new SinfoCommand(), now, "-l")).isEqualTo(golden("sinfo-l.txt"));
        assertThat(stdout(new SinfoCommand(), now, "-N", "-l")).isEqualTo(golden("sinfo-Nl.txt"));
        assertThat(stdout(new SinfoCommand(), now, "-s")).isEqualTo(golden("sinfo-s.txt"));
        // sinfo -s -N: real sinfo 22.05 summarised each node on a line of its own (compat 301).
        assertThat(stdout(new SinfoCommand(), now, "-s", "-N")).isEqualTo("""
                PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST
                gpu*         up    1:00:00          1/0/0/1 n1
                gpu*         up    1:00:00          1/0/0/1 n2
                gpu*         up    1:00:00          0/1/0/1 n3
                """);
        assertThat(stdout(new SinfoCommand(), now, "-R")).isEqualTo(golden("sinfo-R.txt"));
        assertThat(stdout(new SinfoCommand(), now, "-o", "%P %N %t %G %a %l %D %T %c %m %E %f"))
                .isEqualTo(golden("sinfo-o.txt"));
    }

    @Test
    void scontrolShowJob() throws IOException {
        // scontrol show job (08:47:04). One known difference: Sluice does not know the
        // submitting shell's session id (Slurm's unset value is 0).
        // Slurm's pass that last looked at the waiting jobs 3 and 4 ran a second after their
        // submission; Sluice's is the one the submission triggered.
        String expected = golden("scontrol-jobs.txt")
                .replace("AllocNode:Sid=localhost:7981", "AllocNode:Sid=localhost:0")
                .replaceAll(
                        "(EndTime=Unknown Deadline=N/A\\s+SuspendTime=None SecsPreSuspend=0 LastSchedEval=)"
                                + "2026-11-29T08:46:58",
                        "$12026-11-29T08:46:57");
        assertThat(stdout(new ScontrolCommand(), Fixtures.LATER_NOW, "show", "job"))
                .isEqualTo(expected);
    }

    @Test
    void scontrolShowJobOneLiner() throws IOException {
        // scontrol -o show job 2 (08:47:04), same difference
        String expected = golden("scontrol-job2-oneline.txt")
                .replace("AllocNode:Sid=localhost:7981", "AllocNode:Sid=localhost:0");
        assertThat(stdout(new ScontrolCommand(), Fixtures.LATER_NOW, "-o", "show", "job", "2"))
                .isEqualTo(expected);
    }

    @Test
    void scontrolShowJobWithGpuRequests() throws IOException {
        // sbatch -H -G 3 --gpus-per-task=1 -n3 --cpus-per-gpu=1 --mem-per-gpu=100 --wrap true  (16)
        // sbatch -H --gpus-per-node=2 --wrap true                                             (15)
        // both submitted 09:01:46 from /tmp/ref; scontrol show job 16; scontrol show job 15
        long submit = Instant.parse("2026-11-29T09:01:46Z").getEpochSecond();
        var perJob = Fixtures.job(
                        16,
                        Fixtures.wrapSpec()
                                .setHold(true)
                                .setWorkDir("/tmp/ref")
                                .setNumTasks(3)
                                .setGpus("3")
                                .setGpusPerTask("1")
                                .setCpusPerGpu(1)
                                .setMemPerGpuMb(100),
                        dev.sluice.protocol.v1.JobState.PENDING)
                .setWorkDir("/tmp/ref")
                .setSubmitTime(submit)
                .setEligibleTime(0)
                .setAccrueTime(0)
                .setLastSchedEval(submit)
                .setReason("JobHeldUser")
                .setNumCpus(3)
                .setReqTres("cpu=3,mem=300M,node=1,billing=3")
                .build();
        var perNode = Fixtures.job(
                        15,
                        Fixtures.wrapSpec().setHold(true).setWorkDir("/tmp/ref").setGpusPerNode("2"),
                        dev.sluice.protocol.v1.JobState.PENDING)
                .setWorkDir("/tmp/ref")
                .setSubmitTime(submit)
                .setEligibleTime(0)
                .setAccrueTime(0)
                .setLastSchedEval(submit)
                .setReason("JobHeldUser")
                .setNumCpus(1)
                .setReqTres("cpu=1,mem=8000M,node=1,billing=1")
                .build();
        cli.controller()
                .handler(req -> ClientResponse.newBuilder()
                        // In the controller's order (ids ascending): squeue lists pending jobs in reverse.
                        .setGetJobs(
                                GetJobsResponse.newBuilder().addJobs(perNode).addJobs(perJob))
                        .build());
        for (String[] c : new String[][] {{"16", "scontrol-job-gpus.txt"}, {"15", "scontrol-job-gpus-per-node.txt"}}) {
            String expected = golden(c[1]).replace("AllocNode:Sid=localhost:7981", "AllocNode:Sid=localhost:0");
            assertThat(stdout(new ScontrolCommand(), Fixtures.LATER_NOW, "show", "job", c[0]))
                    .isEqualTo(expected);
        }
        // squeue -o "%i %b" at the same time: N/A for a per-job request, gres:gpu:2 per node
        assertThat(stdout(new SqueueCommand(), Fixtures.LATER_NOW, "-h", "-o", "%i %b"))
                .isEqualTo("16 N/A\n15 gres:gpu:2\n");
    }

    @Test
    void scontrolShowNodeAndPartition() throws IOException {
        // scontrol show node; scontrol show partition (08:47:04)
        assertThat(stdout(new ScontrolCommand(), Fixtures.LATER_NOW, "show", "node"))
                .isEqualTo(golden("scontrol-nodes.txt"));
        assertThat(stdout(new ScontrolCommand(), Fixtures.LATER_NOW, "show", "partition"))
                .isEqualTo(golden("scontrol-partitions.txt"));
    }

    @Test
    void scontrolShowNodeSaysWhichNamesItLacks() throws IOException {
        // As 22.05 (observed): each name in turn, a missing one said on stdout; exit 1.
        TestingInvocations.Output o =
                cli.runBothWays(new ScontrolCommand(), Fixtures.LATER_NOW, "show", "node", "n9,n1,bogus[");
        assertThat(o.exitCode()).isEqualTo(1);
        String n1 = golden("scontrol-nodes.txt").split("\n\n")[0] + "\n\n";
        assertThat(o.out()).isEqualTo("Node n9 not found\n" + n1 + "Node bogus] not found\n");
        TestingInvocations.Output bad =
                cli.runBothWays(new ScontrolCommand(), Fixtures.LATER_NOW, "show", "node", "n[2-1]");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.err()).isEqualTo("unable to parse node list n[2-1]\n");
    }
}
