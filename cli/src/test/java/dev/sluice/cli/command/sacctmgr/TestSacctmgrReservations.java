package dev.sluice.cli.command.sacctmgr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.protocol.v1.AccountedReservation;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code sacctmgr show reservation}'s conditions and values, as real Slurm 22.05 reads them. */
class TestSacctmgrReservations {
    private static final ZonedDateTime NOW = ZonedDateTime.of(2026, 12, 5, 12, 0, 0, 0, ZoneOffset.UTC);

    private static SacctmgrReservations.Conditions parse(String... words) {
        return SacctmgrReservations.parse(List.of(words), NOW, "anchor");
    }

    @Test
    void withoutTimesEveryRowOfTheLocalClusterIsAskedFor() {
        var c = parse("names=r1,r2", "where");
        assertThat(c.query().getNamesList()).containsExactly("r1", "r2");
        assertThat(c.query().getClustersList()).containsExactly("anchor");
        assertThat(c.query().getStart()).isZero();
        assertThat(c.query().getEnd()).isEqualTo(Long.MAX_VALUE);
        assertThat(c.columns())
                .extracting(col -> col.field().title() + "%" + col.width())
                .containsExactly("Cluster%10", "Name%15", "TRES%30", "TimeStart%19", "TimeEnd%19", "UnusedWall%10");
    }

    @Test
    void startAloneEndsTheWindowNowAndEndAloneOpensItAtTheEpoch() {
        long now = NOW.toEpochSecond();
        var started = parse("start=now-1hour");
        assertThat(started.query().getStart()).isEqualTo(now - 3600);
        assertThat(started.query().getEnd()).isEqualTo(now);
        var ended = parse("end=now+2hours");
        assertThat(ended.query().getStart()).isZero();
        assertThat(ended.query().getEnd()).isEqualTo(now + 7200);
        var both = parse("s=now+2hours", "e=now+4hours", "clusters=elsewhere");
        assertThat(both.query().getStart()).isEqualTo(now + 7200);
        assertThat(both.query().getEnd()).isEqualTo(now + 14400);
        assertThat(both.query().getClustersList()).containsExactly("elsewhere");
    }

    @Test
    void unknownConditionsFieldsAndTimesAreRefusedInSlurmsWords() {
        assertThatThrownBy(() -> parse("bogus=r1"))
                .hasMessage(" Unknown condition: bogus=r1\n Use keyword 'set' to modify value");
        assertThatThrownBy(() -> parse("format=nodes")).hasMessage("Unknown field 'nodes'");
        assertThatThrownBy(() -> parse("start=soon")).hasMessage("Invalid time specification (pos=0): soon");
    }

    @Test
    void idsAndNodesSelectRowsAfterTheQuery() {
        AccountedReservation r = AccountedReservation.newBuilder()
                .setId(4)
                .setName("r1")
                .setNodes("n[1-2]")
                .build();
        assertThat(parse("ids=4").selects(r)).isTrue();
        assertThat(parse("ids=5").selects(r)).isFalse();
        assertThat(parse("nodes=n2,n7").selects(r)).isTrue();
        assertThat(parse("nodes=n3").selects(r)).isFalse();
    }

    @Test
    void valuesAsSacctmgrPrintsThem() {
        AccountedReservation r = AccountedReservation.newBuilder()
                .setCluster("anchor")
                .setName("r1")
                .setTres("cpu=8")
                .setNodes("n[1-2]")
                .setFlags("MAINT,SPEC_NODES")
                .addAssocIds(2)
                .addAssocIds(5)
                .setStartTime(NOW.toEpochSecond())
                .setEndTime(NOW.toEpochSecond() + 300)
                .setUnusedWall(42.5)
                .build();
        assertThat(SacctmgrReservations.value(r, PrintField.NODENAME, NOW)).isEqualTo("n[1-2]");
        assertThat(SacctmgrReservations.value(r, PrintField.ASSOC_NAME, NOW)).isEqualTo("2,5");
        assertThat(SacctmgrReservations.value(r, PrintField.TIMESTART, NOW)).isEqualTo("2026-12-05T12:00:00");
        assertThat(SacctmgrReservations.value(r, PrintField.TIMEEND, NOW)).isEqualTo("2026-12-05T12:05:00");
        assertThat(SacctmgrReservations.value(r, PrintField.UNUSED, NOW)).isEqualTo("42.500000");
        assertThat(SacctmgrReservations.value(r, PrintField.FLAGS, NOW)).isEqualTo("MAINT,SPEC_NODES");
        assertThat(SacctmgrReservations.names("reservations")).isTrue();
        assertThat(SacctmgrReservations.names("res")).isFalse();
    }
}
