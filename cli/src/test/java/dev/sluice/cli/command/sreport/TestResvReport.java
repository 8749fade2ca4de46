package dev.sluice.cli.command.sreport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.testing.FakeDbd;
import dev.sluice.cli.testing.TestingInvocations;
import dev.sluice.cli.testing.TestingInvocations.Output;
import dev.sluice.protocol.v1.AccountedReservation;
import dev.sluice.protocol.v1.ReservationQuery;
import dev.sluice.protocol.v1.ReservationReport;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sreport's reservation report over what sluice-dbd answers. Layouts as real Slurm 22.05 printed
 * them (compat 163, and the widths of its other columns read off the real cluster, 2026-12-05).
 */
class TestResvReport {
    /** 2026-12-05T08:50:00Z. */
    private static final long NOW = 1_796_460_600L;

    private static final long START = NOW - 600;

    @TempDir
    Path dir;

    private FakeDbd dbd;
    private Map<String, String> env;

    @BeforeEach
    void start() throws Exception {
        // r1: 4 CPUs for 5 minutes, its job used 40 CPU-seconds; r2: 8 CPUs for 10 minutes, unused.
        ReservationReport report = ReservationReport.newBuilder()
                .addReservations(AccountedReservation.newBuilder()
                        .setCluster("anchor")
                        .setId(1)
                        .setName("r1")
                        .setStartTime(START)
                        .setEndTime(START + 300)
                        .setNodes("n1")
                        .setTres("cpu=4")
                        .setFlags("SPEC_NODES")
                        .addAssocIds(2)
                        .putAllocSecs("cpu", 40))
                .addReservations(AccountedReservation.newBuilder()
                        .setCluster("anchor")
                        .setId(2)
                        .setName("r2")
                        .setStartTime(START)
                        .setEndTime(START + 600)
                        .setNodes("n[1-2]")
                        .setTres("cpu=8")
                        .setFlags("IGNORE_JOBS,SPEC_NODES"))
                .build();
        dbd = FakeDbd.answering(b -> b.setReservations(report));
        env = TestingInvocations.accountingConf(
                dir,
                dbd.port(),
                "NodeName=n[1-2] CPUs=4 RealMemory=16000 State=UNKNOWN",
                "PartitionName=batch Nodes=n[1-2] Default=YES State=UP");
    }

    @AfterEach
    void stop() throws Exception {
        dbd.close();
    }

    private Output sreport(String... args) {
        Invocation inv = new Invocation(
                List.of(args),
                env,
                dir,
                new ByteArrayInputStream(new byte[0]),
                TestingInvocations.ROOT,
                Clock.fixed(Instant.ofEpochSecond(NOW), ZoneOffset.UTC),
                UserDirectory.fromLines(List.of("root:x:0:0:root:/root:/bin/bash"), List.of()));
        return TestingInvocations.run(new SreportCommand(), inv);
    }

    private static final String RULE = "-".repeat(80) + "\n";

    @Test
    void theDefaultColumnsInTresMinutes() {
        Output o = sreport("reservation", "utilization", "start=now-1hour", "end=now+1hour", "names=r1,r2");
        assertThat(o.err()).isEmpty();
        assertThat(o.exitCode()).isZero();
        assertThat(o.out())
                .isEqualTo(RULE
                        + "Reservation Utilization 2026-12-05T08:00:00 - 2026-12-05T08:59:59\n"
                        + "Usage reported in TRES Minutes\n"
                        + RULE
                        + "  Cluster      Name               Start                 End      TRES Name"
                        + "            Allocated                 Idle \n"
                        + "--------- --------- ------------------- ------------------- -------------- "
                        + "-------------------- -------------------- \n"
                        + "   anchor        r1 2026-12-05T08:40:00 2026-12-05T08:45:00            cpu"
                        + "                    1                   19 \n"
                        + "   anchor        r2 2026-12-05T08:40:00 2026-12-05T08:50:00            cpu"
                        + "                    0                   80 \n");
        ReservationQuery q = dbd.requests().get(0).getQueryReservations();
        assertThat(q.getNamesList()).containsExactly("r1", "r2");
        assertThat(q.getClustersList()).containsExactly("anchor");
        assertThat(q.getStart()).isEqualTo(NOW - 3000);
        assertThat(q.getEnd()).isEqualTo(NOW + 600);
    }

    @Test
    void everyOtherColumnParsableAndPercent() {
        Output o = sreport(
                "-P",
                "-n",
                "-t",
                "percent",
                "reservation",
                "utilization",
                "format=name,allocated,idle,associations,flags,nodes,reservationid,totaltime,trescount,trestime");
        assertThat(o.out())
                .isEqualTo("r1|3.33%|96.67%|2|SPEC_NODES|n1|1|00:05:00|4|00:20:00\n"
                        + "r2|0.00%|100.00%||IGNORE_JOBS,SPEC_NODES|n[1-2]|2|00:10:00|8|01:20:00\n");
    }

    @Test
    void idMeansIdleAsInSlurmAndUnknownsFail() {
        assertThat(sreport("-P", "-n", "reservation", "utilization", "format=name,id")
                        .out())
                .isEqualTo("r1|19\nr2|80\n");
        Output bad = sreport("-P", "-n", "reservation", "utilization", "bogus=1");
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.err()).isEqualTo(" Unknown condition: bogus=1\nUse keyword set to modify value\n");
        Output report = sreport("reservation", "bogus");
        assertThat(report.exitCode()).isEqualTo(1);
        assertThat(report.err()).isEqualTo("Not valid report bogus\nValid reservation reports are, \"Utilization\"\n");
    }

    @Test
    void idsAndNodesNarrowTheRows() {
        assertThat(sreport("-P", "-n", "reservation", "utilization", "ids=2", "format=name")
                        .out())
                .isEqualTo("r2\n");
        assertThat(sreport("-P", "-n", "reservation", "utilization", "nodes=n2", "format=name")
                        .out())
                .isEqualTo("r2\n");
    }
}
