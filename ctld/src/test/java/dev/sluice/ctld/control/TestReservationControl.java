package dev.sluice.ctld.control;

import static dev.sluice.ctld.Builders.aJob;
import static dev.sluice.ctld.Refusals.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Reservation;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** scontrol create|update|delete reservation as the controller decides them (Slurm 22.05's errors). */
class TestReservationControl {
    private static final long NOW = 1_000_000;
    private static final Caller ROOT = Caller.of(0, 0, "root");
    private static final Caller ALICE = Caller.of(1000, 1000, "alice");
    private static final ReservationControl.Directory DIRECTORY = new ReservationControl.Directory(
            u -> Set.of("root", "alice", "bob", "user1000").contains(u),
            a -> Set.of("root", "physics").contains(a));

    private ControlHarness harness;
    private ClusterState state;

    @BeforeEach
    void cluster() {
        ClusterFixture cluster =
                ClusterFixture.aCluster().nodes(3).at(NOW - 100, NOW).build();
        state = cluster.state();
        harness = new ControlHarness(cluster.sequence());
    }

    private static ReservationSpec spec(String name, String nodes, Long minutes, String users, String... flags) {
        return ReservationSpec.builder(name)
                .start(NOW)
                .durationMinutes(minutes)
                .nodes(nodes)
                .users(users)
                .flags(List.of(flags))
                .build();
    }

    /** Alice's reservation {@code name} from now for an hour, to be given its nodes or cores. */
    private static ReservationSpec.Builder alices(String name) {
        return ReservationSpec.builder(name).start(NOW).durationMinutes(60L).users("alice");
    }

    private String create(ReservationSpec spec) {
        return harness.apply(state, ReservationControl.create(state, ROOT, spec, DIRECTORY, NOW));
    }

    @Test
    void anOperatorCreatesAReservationOnTheNodesNamed() {
        assertThat(create(spec("r1", "n[1-2]", 60L, "alice"))).isEqualTo("r1");
        Reservation r = state.reservations().find("r1", NOW).orElseThrow();
        assertThat(r.nodes()).containsExactly("n1", "n2");
        assertThat(r.end() - r.start()).isEqualTo(3600);
        assertThat(r.coreCount()).isEqualTo(8);
        assertThat(r.flags()).containsExactly(ReservationFlag.SPEC_NODES);
    }

    @Test
    void whatIsRefusedChangesNothing() {
        assertThat(refusal(
                        () -> ReservationControl.create(state, ALICE, spec("x", "n1", 60L, "alice"), DIRECTORY, NOW)))
                .isEqualTo(ErrorCode.USER_ID_MISSING);
        assertThat(refusal(() -> create(spec("x", "n1", 60L, "nosuch")))).isEqualTo(ErrorCode.USER_ID_MISSING);
        assertThat(refusal(() -> create(spec("x", "n1", 60L, "alice,-bob")))).isEqualTo(ErrorCode.USER_ID_MISSING);
        assertThat(refusal(() -> create(spec("x", "n9", 60L, "alice")))).isEqualTo(ErrorCode.INVALID_NODE_NAME);
        ReservationSpec badAccount = ReservationSpec.builder("x")
                .start(NOW)
                .durationMinutes(60L)
                .nodes("n1")
                .accounts("chem")
                .build();
        assertThat(refusal(() -> create(badAccount))).isEqualTo(ErrorCode.INVALID_ACCOUNT);
        assertThat(refusal(() -> create(spec("a\nb", "n1", 60L, "alice")))).isEqualTo(ErrorCode.RESERVATION_INVALID);
        assertThat(state.reservations().isEmpty()).isTrue();
    }

    @Test
    void anOverlapIsRefusedUnlessMaintOrOverlap() {
        create(spec("r1", "n1", 60L, "alice"));
        assertThat(refusal(() -> create(spec("r1", "n1", 60L, "alice")))).isEqualTo(ErrorCode.RESERVATION_OVERLAP);
        assertThat(refusal(() -> create(spec("r2", "n[1-2]", 10L, "alice")))).isEqualTo(ErrorCode.RESERVATION_OVERLAP);
        create(spec("m", "n1", 10L, "alice", "MAINT"));
        create(spec("o", "n1", 10L, "alice", "OVERLAP"));
        assertThat(state.reservations().current(NOW)).hasSize(3);
        // After its window, the nodes are free again.
        ReservationSpec later = ReservationSpec.builder("later")
                .start(NOW + 3600)
                .durationMinutes(10L)
                .nodes("n1")
                .users("alice")
                .build();
        create(later);
    }

    @Test
    void nodesWithJobsRunningIntoTheWindowAreBusyUnlessIgnoreJobs() {
        harness.replay(state, new StateRecord.JobSubmitted(1, aJob().build(), "p", 30, NOW - 10));
        harness.replay(
                state,
                new StateRecord.JobStarted(
                        1, new Allocation(List.of(Allocation.NodeShare.of("n2", 1, 0, 1))), "p", 30, NOW - 5));
        assertThat(refusal(() -> create(spec("b", "n2", 60L, "alice")))).isEqualTo(ErrorCode.NODES_BUSY);
        assertThat(refusal(() -> create(spec("b", "n2", 60L, "alice", "MAINT"))))
                .isEqualTo(ErrorCode.NODES_BUSY);
        create(spec("b", "n2", 60L, "alice", "IGNORE_JOBS"));
        // One that starts after the job's time limit is not held up by it.
        create(ReservationSpec.builder("c")
                .start(NOW + 3600)
                .durationMinutes(10L)
                .nodes("n2")
                .users("alice")
                .build());
    }

    @Test
    void nodeCntTakesFreeNodesOfTheDefaultPartition() {
        create(spec("r1", "n1", 60L, "alice"));
        ReservationSpec two = alices("two").nodeCount(2).build();
        create(two);
        Reservation r = state.reservations().find("two", NOW).orElseThrow();
        assertThat(r.nodes()).containsExactly("n2", "n3");
        assertThat(r.partition()).isEqualTo("p");
        assertThat(r.flags()).isEmpty();
        ReservationSpec more = alices("more").nodeCount(1).build();
        assertThat(refusal(() -> create(more))).isEqualTo(ErrorCode.NODES_BUSY);
    }

    @Test
    void aCountPerNodeHoldsThatManyCoresOfEachNodeInTurn() {
        // Nodes=n[1-2] CoreCnt=2,1 (Slurm 22.05, compat 258): three cores, two of n1 and one of n2.
        create(alices("each")
                .nodes("n[1-2]")
                .coreCount(3)
                .coresPerNode(List.of(2, 1))
                .build());
        Reservation each = state.reservations().find("each", NOW).orElseThrow();
        assertThat(each.nodes()).containsExactly("n1", "n2");
        assertThat(each.coreCount()).isEqualTo(3);
        assertThat(each.cores()).containsExactly(Map.entry("n1", List.of(0, 1)), Map.entry("n2", List.of(0)));
    }

    @Test
    void theCountsMustGoWithTheNodesNamed() {
        // Slurm 22.05 (compat 273): one count over two nodes, whatever it is, is not consistent;
        // more counts than nodes, or a count above its node's cores, is busy.
        assertThat(refusal(() -> create(alices("x").nodes("n[1-2]").coreCount(2).build())))
                .isEqualTo(ErrorCode.INVALID_CORE_CNT);
        assertThat(refusal(() -> create(alices("x").nodes("n[1-2]").coreCount(8).build())))
                .isEqualTo(ErrorCode.INVALID_CORE_CNT);
        assertThat(refusal(() -> create(alices("x")
                        .nodes("n[1-2]")
                        .coreCount(4)
                        .coresPerNode(List.of(2, 1, 1))
                        .build())))
                .isEqualTo(ErrorCode.NODES_BUSY);
        assertThat(refusal(() -> create(alices("x")
                        .nodes("n[1-2]")
                        .coreCount(6)
                        .coresPerNode(List.of(1, 5))
                        .build())))
                .isEqualTo(ErrorCode.NODES_BUSY);
        assertThat(refusal(() -> create(alices("x").nodes("n1").coreCount(5).build())))
                .isEqualTo(ErrorCode.NODES_BUSY);
        assertThat(state.reservations().isEmpty()).isTrue();
        // One node takes the first of several counts.
        create(alices("first")
                .nodes("n1")
                .coreCount(5)
                .coresPerNode(List.of(2, 3))
                .build());
        Reservation first = state.reservations().find("first", NOW).orElseThrow();
        assertThat(first.coreCount()).isEqualTo(2);
        assertThat(first.cores()).containsExactly(Map.entry("n1", List.of(0, 1)));
        // Every core of a node named: still listed core by core (CoreIDs=0-3).
        create(alices("all").nodes("n2").coreCount(4).build());
        Reservation all = state.reservations().find("all", NOW).orElseThrow();
        assertThat(all.coreCount()).isEqualTo(4);
        assertThat(all.cores()).containsExactly(Map.entry("n2", List.of(0, 1, 2, 3)));
    }

    @Test
    void aCountAboveTheCoresNoJobHoldsIsBusy() {
        harness.replay(state, new StateRecord.JobSubmitted(1, aJob().build(), "p", 30, NOW - 10));
        harness.replay(
                state,
                new StateRecord.JobStarted(
                        1,
                        new Allocation(List.of(new Allocation.NodeShare("n2", 3, 0, 1, List.of(), List.of(0, 1, 2)))),
                        "p",
                        30,
                        NOW - 5));
        assertThat(refusal(() -> create(alices("x").nodes("n2").coreCount(2).build())))
                .isEqualTo(ErrorCode.NODES_BUSY);
        create(alices("one").nodes("n2").coreCount(1).build());
        assertThat(state.reservations().find("one", NOW).orElseThrow().cores())
                .containsExactly(Map.entry("n2", List.of(3)));
        // IGNORE_JOBS takes the lowest cores, the job's among them (Slurm 22.05, compat 273).
        create(alices("ignoring")
                .nodes("n2")
                .coreCount(2)
                .flags(List.of("IGNORE_JOBS", "OVERLAP"))
                .build());
        assertThat(state.reservations().find("ignoring", NOW).orElseThrow().cores())
                .containsExactly(Map.entry("n2", List.of(0, 1)));
    }

    @Test
    void twoPartialReservationsShareANodeByItsCores() {
        // Slurm 22.05 (compat 259): the second takes the cores the first left, a third finds
        // none; a whole one may still be made beside them, but no partial one beside a whole one.
        create(alices("a").nodes("n1").coreCount(2).build());
        create(alices("b").nodes("n1").coreCount(2).build());
        assertThat(state.reservations().find("b", NOW).orElseThrow().cores())
                .containsExactly(Map.entry("n1", List.of(2, 3)));
        assertThat(refusal(() -> create(alices("c").nodes("n1").coreCount(1).build())))
                .isEqualTo(ErrorCode.NODES_BUSY);
        create(alices("w").nodes("n1").build());
        harness.apply(state, ReservationControl.delete(state, ROOT, "a", NOW));
        assertThat(refusal(() -> create(alices("d").nodes("n1").coreCount(2).build())))
                .isEqualTo(ErrorCode.RESERVATION_OVERLAP);
        // One whose window does not meet theirs takes the cores again.
        create(alices("later").start(NOW + 7200).nodes("n1").coreCount(4).build());
    }

    @Test
    void aCountPerNodeWithoutNodesTakesAFreeNodeForEach() {
        create(alices("alone").coreCount(2).coresPerNode(List.of(1, 1)).build());
        Reservation alone = state.reservations().find("alone", NOW).orElseThrow();
        assertThat(alone.coreCount()).isEqualTo(2);
        assertThat(alone.cores())
                .hasSize(2)
                .allSatisfy((node, ids) -> assertThat(ids).hasSize(1));
    }

    @Test
    void coreCntAloneHoldsThatManyCoresOfTheFirstFreeNodes() {
        create(spec("r1", "n1", 60L, "alice"));
        // Fewer than a node has: the first free node, its lowest cores (compat scenario 170).
        create(alices("two").coreCount(2).build());
        Reservation two = state.reservations().find("two", NOW).orElseThrow();
        assertThat(two.nodes()).containsExactly("n2");
        assertThat(two.partial()).isTrue();
        assertThat(two.coreCount()).isEqualTo(2);
        assertThat(two.cores()).containsExactly(Map.entry("n2", List.of(0, 1)));
        assertThat(two.partition()).isEqualTo("p");
        // More: the cores left on n2, then n3's, node by node (Slurm 22.05, compat 260).
        create(alices("four").coreCount(4).build());
        Reservation four = state.reservations().find("four", NOW).orElseThrow();
        assertThat(four.nodes()).containsExactly("n2", "n3");
        assertThat(four.cores()).containsExactly(Map.entry("n2", List.of(2, 3)), Map.entry("n3", List.of(0, 1)));
        assertThat(refusal(() -> create(alices("more").coreCount(3).build()))).isEqualTo(ErrorCode.NODES_BUSY);
    }

    @Test
    void coreCntAloneTakesTheCoresNoJobHoldsBesideIt() {
        // A job on three of n1's cores: CoreCnt=2 is n1's last core and n2's first (compat 260).
        harness.replay(state, new StateRecord.JobSubmitted(1, aJob().build(), "p", 30, NOW - 10));
        harness.replay(
                state,
                new StateRecord.JobStarted(
                        1,
                        new Allocation(List.of(new Allocation.NodeShare("n1", 3, 0, 1, List.of(), List.of(0, 1, 2)))),
                        "p",
                        30,
                        NOW - 5));
        create(alices("two").coreCount(2).build());
        Reservation two = state.reservations().find("two", NOW).orElseThrow();
        assertThat(two.nodes()).containsExactly("n1", "n2");
        assertThat(two.cores()).containsExactly(Map.entry("n1", List.of(3)), Map.entry("n2", List.of(0)));
        assertThat(two.coreCount()).isEqualTo(2);
    }

    @Test
    void anUpdateKeepsWhatItDoesNotNameAndAMinusTakesAwayEveryFlagAfterIt() {
        create(spec("r1", "n1", 60L, "alice", "DAILY", "MAINT"));
        ReservationSpec change = ReservationSpec.builder("r1")
                .durationMinutes(120L)
                .users("alice,bob")
                .flags(List.of("-DAILY", "WEEKLY"))
                .build();
        harness.apply(state, ReservationControl.update(state, ROOT, change, DIRECTORY, NOW));
        Reservation r = state.reservations().find("r1", NOW).orElseThrow();
        assertThat(r.end() - r.start()).isEqualTo(7200);
        assertThat(r.users()).containsExactly("alice", "bob");
        assertThat(r.flags()).containsExactlyInAnyOrder(ReservationFlag.MAINT, ReservationFlag.SPEC_NODES);
        assertThat(r.nodes()).containsExactly("n1");
        ReservationSpec unknown =
                ReservationSpec.builder("nosuch").durationMinutes(5L).build();
        assertThat(refusal(() -> ReservationControl.update(state, ROOT, unknown, DIRECTORY, NOW)))
                .isEqualTo(ErrorCode.RESERVATION_INVALID);
    }

    @Test
    void aReservationJobsAreInCannotBeDeleted() {
        create(spec("r1", "n1", 60L, "user1000"));
        harness.replay(
                state, new StateRecord.JobSubmitted(1, aJob().reservation("r1").build(), "p", 30, NOW));
        assertThat(refusal(() -> ReservationControl.delete(state, ROOT, "r1", NOW)))
                .isEqualTo(ErrorCode.RESERVATION_BUSY);
        assertThat(refusal(() -> ReservationControl.delete(state, ALICE, "r1", NOW)))
                .isEqualTo(ErrorCode.USER_ID_MISSING);
        assertThat(refusal(() -> ReservationControl.delete(state, ROOT, "nosuch", NOW)))
                .isEqualTo(ErrorCode.RESERVATION_INVALID);
    }

    @Test
    void anEndedReservationStillKeptMayBeDeletedUntilThePassForgetsIt() {
        create(spec("r1", "n1", 1L, "alice"));
        long ended = NOW + 61;
        harness.apply(state, ReservationControl.delete(state, ROOT, "r1", ended));
        assertThat(state.reservations().shown()).isEmpty();
        assertThat(refusal(() -> ReservationControl.delete(state, ROOT, "r1", ended)))
                .isEqualTo(ErrorCode.RESERVATION_INVALID);
    }

    private void update(ReservationSpec change, long now) {
        harness.apply(state, ReservationControl.update(state, ROOT, change, DIRECTORY, now));
    }

    private static ReservationSpec change(String users, ReservationSpec.Access added, ReservationSpec.Access removed) {
        return ReservationSpec.builder("r1")
                .users(users)
                .change(new ReservationSpec.AccessChange(added, removed))
                .build();
    }

    @Test
    void usersAndAccountsAreAddedAndTakenAwayButNeverAllOfThem() {
        create(spec("r1", "n1", 60L, "root"));
        update(change(null, new ReservationSpec.Access("alice,root,bob", "physics"), null), NOW);
        Reservation r = state.reservations().find("r1", NOW).orElseThrow();
        assertThat(r.users()).containsExactly("root", "alice", "bob");
        assertThat(r.accounts()).containsExactly("physics");
        // Taking away one that is not there changes nothing and is no error (compat 256).
        update(change(null, null, new ReservationSpec.Access("root,user1000", "physics")), NOW);
        r = state.reservations().find("r1", NOW).orElseThrow();
        assertThat(r.users()).containsExactly("alice", "bob");
        assertThat(r.accounts()).isEmpty();
        assertThat(refusal(() -> update(change(null, new ReservationSpec.Access("nosuch", null), null), NOW)))
                .isEqualTo(ErrorCode.USER_ID_MISSING);
        assertThat(refusal(() -> update(change(null, null, new ReservationSpec.Access("alice,bob", null)), NOW)))
                .isEqualTo(ErrorCode.RESERVATION_EMPTY);
        assertThat(state.reservations().find("r1", NOW).orElseThrow().users()).containsExactly("alice", "bob");
    }

    private static ReservationSpec count(String name, int nodes) {
        return ReservationSpec.builder(name).nodeCount(nodes).build();
    }

    @Test
    void nodeCntKeepsTheFirstNodesOrAddsFreeOnesAndNeverNone() {
        create(alices("r1").nodeCount(1).build());
        update(count("r1", 3), NOW);
        assertThat(state.reservations().find("r1", NOW).orElseThrow().nodes()).containsExactly("n1", "n2", "n3");
        update(count("r1", 1), NOW);
        Reservation r = state.reservations().find("r1", NOW).orElseThrow();
        assertThat(r.nodes()).containsExactly("n1");
        assertThat(r.coreCount()).isEqualTo(4);
        // A node a job outside it runs on is not taken: "Requested nodes are busy" (compat 257).
        harness.replay(state, new StateRecord.JobSubmitted(1, aJob().build(), "p", 30, NOW - 10));
        harness.replay(
                state,
                new StateRecord.JobStarted(
                        1, new Allocation(List.of(Allocation.NodeShare.of("n2", 1, 0, 1))), "p", 30, NOW - 5));
        update(count("r1", 2), NOW);
        assertThat(state.reservations().find("r1", NOW).orElseThrow().nodes()).containsExactly("n1", "n3");
        assertThat(refusal(() -> update(count("r1", 3), NOW))).isEqualTo(ErrorCode.NODES_BUSY);
        assertThat(refusal(() -> update(count("r1", 0), NOW))).isEqualTo(ErrorCode.RESERVATION_INVALID);
        assertThat(state.reservations().find("r1", NOW).orElseThrow().nodes()).containsExactly("n1", "n3");
    }

    @Test
    void anEndedReservationStillKeptTakesANewEndButNotAnEndThatHasPassed() {
        create(spec("r1", "n1", 1L, "alice"));
        long ended = NOW + 65;
        ReservationSpec longer =
                ReservationSpec.builder("r1").durationMinutes(30L).build();
        update(longer, ended);
        assertThat(state.reservations().find("r1", ended).orElseThrow().active(ended))
                .isTrue();
        ReservationSpec none = ReservationSpec.builder("r1").durationMinutes(0L).build();
        assertThat(refusal(() -> update(none, ended))).isEqualTo(ErrorCode.INVALID_TIME_VALUE);
        ReservationSpec endNow = ReservationSpec.builder("r1").end(ended).build();
        assertThat(refusal(() -> update(endNow, ended))).isEqualTo(ErrorCode.INVALID_TIME_VALUE);
    }
}
