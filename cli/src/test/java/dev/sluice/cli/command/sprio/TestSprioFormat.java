package dev.sluice.cli.command.sprio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.protocol.v1.JobPriorityInfo;
import dev.sluice.protocol.v1.PriorityWeightsInfo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * sprio's layouts against lines real Slurm 22.05 printed (priority/multifactor with
 * PriorityWeightAge=1000, Fairshare=10000, JobSize=100, Partition=1000, QOS=0; two nodes of 4
 * CPUs; jobs -N2 --exclusive, -n2 and, as another user without an association, -n1).
 */
class TestSprioFormat {
    private static final PriorityWeightsInfo W = PriorityWeightsInfo.newBuilder()
            .setAge(1000)
            .setFairshare(10000)
            .setJobSize(100)
            .setPartition(1000)
            .build();

    private static JobPriorityInfo job(int id, String user, double fs, double size, double sum) {
        return JobPriorityInfo.newBuilder()
                .setJobId(id)
                .setPartition("gpu")
                .setUserName(user)
                .setFairshare(fs)
                .setJobSize(size)
                .setPartitionFactor(1.0)
                .setPriority((long) sum)
                .setPrioritySum(sum)
                .build();
    }

    private static final JobPriorityInfo J0 = job(5000000, "root", 1.0, 0.625, 11062.5);
    private static final JobPriorityInfo J1 = job(5000001, "root", 1.0, 0.375, 11037.5);
    private static final JobPriorityInfo J2 = job(5000002, "sluiceuser1", 0.0, 0.3125, 1031.25);

    private static List<String> render(String format, boolean weights, List<JobPriorityInfo> jobs) {
        StringBuilder prefix = new StringBuilder();
        List<Character> bad = new ArrayList<>();
        List<SprioFormat.Field> fields = SprioFormat.parse(format, prefix, bad::add);
        return SprioFormat.render(prefix.toString(), fields, true, weights, jobs, W);
    }

    @Test
    void theDefaultLayoutHidesFactorsWithoutWeightAndRoundsHalvesToEven() {
        assertThat(render(SprioFormat.defaults(W, false, false, false), true, List.of(J0, J1, J2)))
                .containsExactly(
                        "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE  PARTITION",
                        "        Weights                               1       1000      10000        100       1000");
        assertThat(render(SprioFormat.defaults(W, false, false, false), false, List.of(J0, J1, J2)))
                .containsExactly(
                        "          JOBID PARTITION   PRIORITY       SITE        AGE  FAIRSHARE    JOBSIZE  PARTITION",
                        "        5000000 gpu            11062          0          0      10000         62       1000",
                        "        5000001 gpu            11037          0          0      10000         38       1000",
                        "        5000002 gpu             1031          0          0          0         31       1000");
    }

    @Test
    void theLongLayoutShowsEveryFactorTheUserAndNice() {
        assertThat(render(SprioFormat.defaults(W, true, false, false), false, List.of(J1, J2)))
                .containsExactly(
                        "          JOBID PARTITION     USER   PRIORITY       SITE        AGE      ASSOC  FAIRSHARE    JOBSIZE  PARTITION        QOS        NICE                 TRES",
                        "        5000001 gpu           root      11037          0          0          0      10000         38       1000          0           0                     ",
                        "        5000002 gpu       sluiceus       1031          0          0          0          0         31       1000          0           0                     ");
        assertThat(render(SprioFormat.defaults(W, true, false, false), true, List.of())
                        .get(1))
                .isEqualTo(
                        "        Weights                                        1       1000          0      10000        100       1000          0                           (null)");
    }

    @Test
    void normalizedValuesAreCutToTheirColumns() {
        assertThat(render(SprioFormat.defaults(W, false, true, false), true, List.of(J0, J2)))
                .containsExactly(
                        "          JOBID PARTITION PRIORITY   AGE        FAIRSHARE  JOBSIZE    PARTITION ",
                        "        Weights                      1000       10000      100        1000      ");
        assertThat(render(SprioFormat.defaults(W, false, true, false), false, List.of(J0, J2)))
                .containsExactly(
                        "          JOBID PARTITION PRIORITY   AGE        FAIRSHARE  JOBSIZE    PARTITION ",
                        "        5000000 gpu       0.00000257 0.0000000  1.0000000  0.6250000  1.0000000 ",
                        "        5000002 gpu       0.00000024 0.0000000  0.0000000  0.3125000  1.0000000 ");
    }

    @Test
    void aFormatOfEveryLetterAndUnknownOnesDroppedWithTheirText() {
        StringBuilder prefix = new StringBuilder();
        List<Character> bad = new ArrayList<>();
        List<SprioFormat.Field> fields = SprioFormat.parse(
                "%N|%n|%a|%f|%j|%p|%q|%r|%t|%y|%c|%S|%A|%B|%b|%F|%J|%P|%Q|%T|%Y|%i|%u|%o", prefix, bad::add);
        assertThat(bad).containsExactly('n', 'o');
        assertThat(SprioFormat.headerLine(prefix.toString(), fields))
                .isEqualTo(
                        "NICE|AGE|FAIRSHARE|JOBSIZE|PARTITION|QOS|PARTITION|TRES|PRIORITY|CLUSTER|SITE|AGE|ASSOC|ASSOC|FAIRSHARE|JOBSIZE|PARTITION|QOS|TRES|PRIORITY|JOBID|USER|");
        assertThat(SprioFormat.jobLine(prefix.toString(), fields, J1, W))
                .isEqualTo(
                        "0|0.0000000|1.0000000|0.3750000|1.0000000|0.0000000|gpu||0.00000256986823|(null)|0|0|0|0.0000000|10000|38|1000|0||11037|5000001|root|");
    }

    @Test
    void weightsReplaceTheJobsLinesAndNoHeaderLeavesThemAlone() {
        // Real Slurm 22.05 (scenario 229): `sprio -w -o "%.15i %.10Y %.10J"` with two jobs pending.
        StringBuilder prefix = new StringBuilder();
        List<SprioFormat.Field> fields = SprioFormat.parse("%.15i %.10Y %.10J", prefix, c -> {});
        assertThat(SprioFormat.render(prefix.toString(), fields, true, true, List.of(J0, J1), W))
                .containsExactly("          JOBID   PRIORITY    JOBSIZE", "        Weights                   100");
        assertThat(SprioFormat.render(prefix.toString(), fields, false, true, List.of(J0, J1), W))
                .containsExactly("        Weights                   100");
    }

    @Test
    void aUserFilterAddsTheUserColumn() {
        assertThat(SprioFormat.defaults(W, false, false, true)).startsWith("%.15i %9r %.8u %.10Y");
    }

    @Test
    void widthsCutAndPad() {
        assertThat(render("%10i|%.3u|%A", false, List.of(J1)))
                .containsExactly("JOBID     |USE|AGE", "5000001   |roo|0");
    }
}
