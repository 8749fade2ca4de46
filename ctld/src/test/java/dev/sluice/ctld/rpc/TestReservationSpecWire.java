package dev.sluice.ctld.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.ctld.control.ReservationSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** scontrol's reservation message as the controller reads it: a field scontrol left out is null. */
class TestReservationSpecWire {
    @Test
    void everyFieldScontrolSendsIsReadAndDurationIsUnsigned() {
        dev.sluice.protocol.v1.ReservationSpec wire = dev.sluice.protocol.v1.ReservationSpec.newBuilder()
                .setName("r1")
                .setStartTime(100)
                .setEndTime(200)
                .setDurationMinutes(-1)
                .setNodes("n[1-2]")
                .setNodeCount(2)
                .setPartition("p")
                .setUsers("alice")
                .setAccounts("physics")
                .addFlags("MAINT")
                .setCoreCount(4)
                .setUsersAdded("bob")
                .setAccountsAdded("chem")
                .setUsersRemoved("carol")
                .setAccountsRemoved("bio")
                .build();
        assertThat(ReservationAnswers.spec(wire))
                .extracting(
                        ReservationSpec::name,
                        ReservationSpec::start,
                        ReservationSpec::end,
                        ReservationSpec::durationMinutes,
                        ReservationSpec::nodes,
                        ReservationSpec::nodeCount,
                        ReservationSpec::partition,
                        ReservationSpec::users,
                        ReservationSpec::accounts,
                        ReservationSpec::flags,
                        ReservationSpec::cores,
                        ReservationSpec::change)
                .containsExactly(
                        "r1",
                        100L,
                        200L,
                        0xFFFF_FFFFL,
                        "n[1-2]",
                        2,
                        "p",
                        "alice",
                        "physics",
                        List.of("MAINT"),
                        new ReservationSpec.Cores(4, List.of()),
                        new ReservationSpec.AccessChange(
                                new ReservationSpec.Access("bob", "chem"), new ReservationSpec.Access("carol", "bio")));
    }

    @Test
    void aFieldNotSentIsNotGiven() {
        ReservationSpec spec = ReservationAnswers.spec(dev.sluice.protocol.v1.ReservationSpec.newBuilder()
                .setName("r1")
                .build());
        assertThat(spec).isEqualTo(ReservationSpec.builder("r1").build());
        assertThat(spec.start()).isNull();
        assertThat(spec.durationMinutes()).isNull();
        assertThat(spec.nodeCount()).isNull();
        assertThat(spec.flags()).isEmpty();
        assertThat(spec.change()).isEqualTo(ReservationSpec.AccessChange.NONE);
    }
}
