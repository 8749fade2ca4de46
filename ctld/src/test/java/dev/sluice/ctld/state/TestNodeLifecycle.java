package dev.sluice.ctld.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.NodeFlag;
import dev.sluice.common.slurm.NodeState;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.gres.GresPool;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The node lifecycle as a transition table: every administrative start state × every
 * transition → the state Slurm would print (base state + flags) and the reason kept. Rows are
 * read as: a node that is FROM, given TRANSITION with reason "new", becomes TO with REASON.
 */
class TestNodeLifecycle {
    /** Administrative start states, each with the reason it carries. */
    enum From {
        IDLE,
        DRAINED,
        DOWN,
        DOWN_DRAINED,
        FUTURE;

        Node node() {
            Node base = ClusterFixture.aNode("n1")
                    .build()
                    .withRegistration(
                            new NodeEndpoint("n1", "127.0.0.1", 7000),
                            NodeHardware.ofCpus(4, 1000),
                            false,
                            new DaemonReport(1, "v", NodeFacts.NONE));
            return switch (this) {
                case IDLE -> base;
                case DRAINED -> base.withAdmin(new NodeAdmin(NodeState.IDLE, true, "old", "root", 10));
                case DOWN -> base.withAdmin(new NodeAdmin(NodeState.DOWN, false, "old", "root", 10));
                case DOWN_DRAINED -> base.withAdmin(new NodeAdmin(NodeState.DOWN, true, "old", "root", 10));
                case FUTURE -> base.withAdmin(NodeAdmin.FUTURE);
            };
        }
    }

    static Stream<Arguments> table() {
        return Stream.of(
                // from, transition, printed state (idle node, no jobs), reason after
                Arguments.of(From.IDLE, NodeTransition.DRAIN, "IDLE+DRAIN", "new"),
                Arguments.of(From.IDLE, NodeTransition.DOWN, "DOWN", "new"),
                Arguments.of(From.IDLE, NodeTransition.RESUME, "IDLE", ""),
                Arguments.of(From.IDLE, NodeTransition.UNDRAIN, "IDLE", ""),
                Arguments.of(From.IDLE, NodeTransition.FUTURE, "FUTURE", "new"),
                Arguments.of(From.IDLE, NodeTransition.RETURN, "IDLE", ""),
                Arguments.of(From.DRAINED, NodeTransition.DRAIN, "IDLE+DRAIN", "new"),
                Arguments.of(From.DRAINED, NodeTransition.DOWN, "DOWN+DRAIN", "new"),
                Arguments.of(From.DRAINED, NodeTransition.RESUME, "IDLE", ""),
                Arguments.of(From.DRAINED, NodeTransition.UNDRAIN, "IDLE", ""),
                Arguments.of(From.DRAINED, NodeTransition.RETURN, "IDLE+DRAIN", "old"),
                Arguments.of(From.DOWN, NodeTransition.DRAIN, "DOWN+DRAIN", "new"),
                Arguments.of(From.DOWN, NodeTransition.DOWN, "DOWN", "new"),
                Arguments.of(From.DOWN, NodeTransition.RESUME, "IDLE", ""),
                Arguments.of(From.DOWN, NodeTransition.UNDRAIN, "DOWN", "old"),
                Arguments.of(From.DOWN, NodeTransition.RETURN, "IDLE", ""),
                Arguments.of(From.DOWN_DRAINED, NodeTransition.RESUME, "IDLE", ""),
                Arguments.of(From.DOWN_DRAINED, NodeTransition.UNDRAIN, "DOWN", "old"),
                Arguments.of(From.DOWN_DRAINED, NodeTransition.RETURN, "IDLE+DRAIN", "old"),
                Arguments.of(From.FUTURE, NodeTransition.RESUME, "IDLE", ""),
                Arguments.of(From.FUTURE, NodeTransition.DOWN, "DOWN", "new"),
                Arguments.of(From.FUTURE, NodeTransition.DRAIN, "FUTURE+DRAIN", "new"));
    }

    @ParameterizedTest(name = "{0} --{1}--> {2} ({3})")
    @MethodSource("table")
    void transition(From from, NodeTransition transition, String printed, String reason) {
        Node after = NodeLifecycle.apply(from.node(), transition, "new", "admin", 99);
        NodeView view = new NodeView(after, 0, 0, 0, true, GresPool.idle(GresInventory.NONE), CoreSet.EMPTY, 0, 0);
        String flags = view.flags().contains(NodeFlag.DRAIN) ? "+DRAIN" : "";
        assertThat(view.baseState() + flags).isEqualTo(printed);
        assertThat(after.admin().reason()).isEqualTo(reason);
        if (reason.equals("new")) {
            assertThat(after.admin().reasonUser()).isEqualTo("admin");
            assertThat(after.admin().reasonTime()).isEqualTo(99);
        } else if (reason.isEmpty()) {
            assertThat(after.admin().reasonUser()).isEmpty();
            assertThat(after.admin().reasonTime()).isZero();
        } else {
            assertThat(after.admin().reasonUser()).isEqualTo("root");
            assertThat(after.admin().reasonTime()).isEqualTo(10);
        }
        assertThat(view.isSchedulable()).isEqualTo(printed.equals("IDLE"));
    }

    /** The derived half: what running jobs and silence make of an administratively IDLE node. */
    static Stream<Arguments> derived() {
        return Stream.of(
                Arguments.of(From.IDLE, 0, 0, true, "IDLE", List.of()),
                Arguments.of(From.IDLE, 2, 1, true, "MIXED", List.of()),
                Arguments.of(From.IDLE, 4, 1, true, "ALLOCATED", List.of()),
                Arguments.of(From.DRAINED, 2, 1, true, "MIXED", List.of("DRAIN")), // DRAINING
                Arguments.of(From.DRAINED, 0, 0, true, "IDLE", List.of("DRAIN")), // DRAINED
                Arguments.of(From.IDLE, 0, 0, false, "IDLE", List.of("NOT_RESPONDING")), // idle*
                Arguments.of(From.DOWN, 0, 0, false, "DOWN", List.of("NOT_RESPONDING")), // down*
                Arguments.of(From.FUTURE, 0, 0, false, "FUTURE", List.of()));
    }

    @ParameterizedTest(name = "{0} cpus={1} jobs={2} responding={3} -> {4} {5}")
    @MethodSource("derived")
    void derivedStates(From from, int allocCpus, int jobs, boolean responding, String base, List<String> flags) {
        NodeView view = new NodeView(
                from.node(), allocCpus, 0, jobs, responding, GresPool.idle(GresInventory.NONE), CoreSet.EMPTY, 0, 0);
        assertThat(view.baseState().name()).isEqualTo(base);
        assertThat(view.flags().stream().map(Enum::name).toList()).containsExactlyElementsOf(flags);
    }
}
