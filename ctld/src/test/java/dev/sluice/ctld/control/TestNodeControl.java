package dev.sluice.ctld.control;

import static dev.sluice.ctld.control.NodeControlFixture.HW;
import static dev.sluice.ctld.control.NodeControlFixture.ROOT;
import static dev.sluice.ctld.control.NodeControlFixture.USER;
import static dev.sluice.ctld.control.NodeControlFixture.found;
import static dev.sluice.ctld.control.NodeControlFixture.reg;
import static dev.sluice.ctld.control.NodeControlFixture.registration;
import static dev.sluice.ctld.control.NodeControlFixture.state;
import static dev.sluice.ctld.control.NodeControlFixture.view;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.NodeFlag;
import dev.sluice.common.slurm.NodeState;
import dev.sluice.common.slurm.NodeStateRequest;
import dev.sluice.ctld.Builders;
import dev.sluice.ctld.ClusterFixture;
import dev.sluice.ctld.ControlHarness;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterState;
import dev.sluice.ctld.state.Node;
import dev.sluice.ctld.state.NodeEquipment;
import dev.sluice.ctld.state.NodeFacts;
import dev.sluice.ctld.state.StateRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Registration checks, silence, ReturnToService, updates and failed node scripts, without threads
 * (dynamic and created nodes: {@link TestDynamicNodes}).
 */
class TestNodeControl {
    private final ControlHarness harness = new ControlHarness();

    @Test
    void aNodeWithFewerGpusThanConfiguredIsDrainedWithSlurmsReason() {
        ClusterState s = state();
        NodeControl nodes = new NodeControl(300, new NodePolicy(0, false, "slurm"));
        harness.apply(s, nodes.register(s, reg("n1", found(4, 8000, Map.of("gpu", 2L))), 10));
        Node n1 = s.node("n1");
        assertThat(n1.admin().drain()).isTrue();
        assertThat(n1.admin().reason()).isEqualTo("gres/gpu count reported lower than configured (2 < 3)");
        assertThat(n1.admin().reasonUser()).isEqualTo("slurm");
        assertThat(n1.admin().reasonTime()).isEqualTo(10);
        assertThat(view(s, "n1").isSchedulable()).isFalse();
        // The same shortfall again journals nothing new.
        assertThat(nodes.register(s, reg("n1", found(4, 8000, Map.of("gpu", 2L))), 20)
                        .records())
                .isEmpty();
    }

    @Test
    void fewerCpusOrLessMemoryDrainUnlessConfigOverrides() {
        ClusterState s = state();
        harness.apply(s, new NodeControl(300, NodePolicy.DEFAULT).register(s, reg("n1", found(2, 8000, Map.of())), 10));
        assertThat(s.node("n1").admin().reason()).isEqualTo("Low CPUs");

        ClusterState m = state();
        harness.apply(m, new NodeControl(300, NodePolicy.DEFAULT).register(m, reg("n1", found(4, 4000, Map.of())), 10));
        assertThat(m.node("n1").admin().reason())
                .isEqualTo("Low RealMemory (reported:4000 < 100.00% of configured:8000)");

        ClusterState o = state();
        NodeControl overrides = new NodeControl(300, new NodePolicy(0, true, "root"));
        harness.apply(o, overrides.register(o, reg("n1", found(2, 4000, Map.of("gpu", 3L))), 10));
        assertThat(o.node("n1").admin().drain()).isFalse();
        // ...but a missing GPU is never believed away.
        harness.apply(o, overrides.register(o, reg("n1", found(2, 4000, Map.of("gpu", 1L))), 11));
        assertThat(o.node("n1").admin().reason()).isEqualTo("gres/gpu count reported lower than configured (1 < 3)");
    }

    @Test
    void enoughOrMoreIsAccepted() {
        ClusterState s = state();
        harness.apply(
                s,
                new NodeControl(300, NodePolicy.DEFAULT)
                        .register(s, reg("n1", found(8, 16000, Map.of("gpu", 4L))), 10));
        assertThat(s.node("n1").admin().drain()).isFalse();
        assertThat(view(s, "n1").baseState()).isEqualTo(NodeState.IDLE);
    }

    @Test
    void silenceDownsTheNodeAndFailsOrRequeuesItsJobs() {
        ClusterState s = state();
        NodeControl nodes = new NodeControl(30, NodePolicy.DEFAULT);
        harness.apply(s, nodes.register(s, reg("n1", Optional.empty()), 100));
        harness.replay(s, new StateRecord.JobSubmitted(1, Builders.aJob().build(), "all", 60, 100));
        harness.replay(
                s, new StateRecord.JobSubmitted(2, Builders.aJob().requeue().build(), "all", 60, 100));
        for (int id = 1; id <= 2; id++) {
            harness.replay(
                    s,
                    new StateRecord.JobStarted(
                            id, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "all", 60, 101));
        }
        assertThat(nodes.checkSilence(s, 130).records()).isEmpty();
        ControlResult<Void> r = nodes.checkSilence(s, 131);
        harness.apply(s, r);
        assertThat(s.node("n1").admin().down()).isTrue();
        assertThat(s.node("n1").admin().reason()).isEqualTo("Not responding");
        assertThat(s.node("n1").admin().reasonUser())
                .as("SlurmUser, root by default")
                .isEqualTo("root");
        assertThat(view(s, "n1").baseState()).isEqualTo(NodeState.DOWN);
        assertThat(view(s, "n1").flags()).contains(NodeFlag.NOT_RESPONDING);
        assertThat(s.job(1).status().state()).isEqualTo(JobState.NODE_FAIL);
        assertThat(s.job(2).status().state()).isEqualTo(JobState.PENDING);
        assertThat(s.job(2).run().restartCount()).isEqualTo(1);
        assertThat(r.effects()).hasSize(2);
        // Silence is noticed once.
        assertThat(nodes.checkSilence(s, 200).records()).isEmpty();
    }

    @Test
    void silenceKeepsAnAdministratorsDrainReason() {
        ClusterState s = state();
        NodeControl nodes = new NodeControl(30, NodePolicy.DEFAULT);
        harness.apply(s, nodes.register(s, reg("n1", Optional.empty()), 100));
        harness.apply(s, nodes.update(s, ROOT, List.of("n1"), Optional.of(NodeStateRequest.DRAIN), "bad fan", 105));
        harness.apply(s, nodes.checkSilence(s, 200));
        assertThat(s.node("n1").admin().down()).isTrue();
        assertThat(s.node("n1").admin().reason()).isEqualTo("bad fan");
        assertThat(s.node("n1").admin().reasonUser()).isEqualTo("root");
    }

    private ClusterState silentNode(NodeControl nodes) {
        ClusterState s = state();
        harness.apply(s, nodes.register(s, reg("n1", Optional.empty()), 100));
        harness.apply(s, nodes.checkSilence(s, 1000));
        assertThat(s.node("n1").admin().down()).isTrue();
        return s;
    }

    @Test
    void returnToServiceDecidesWhetherADownNodeComesBack() {
        NodeControl rts0 = new NodeControl(30, new NodePolicy(0, false, "root"));
        ClusterState s0 = silentNode(rts0);
        harness.apply(s0, rts0.register(s0, reg("n1", Optional.empty()), 1100));
        assertThat(s0.node("n1").admin().down()).as("ReturnToService=0").isTrue();
        assertThat(view(s0, "n1").flags()).as("it answers again: no *").doesNotContain(NodeFlag.NOT_RESPONDING);

        NodeControl rts1 = new NodeControl(30, new NodePolicy(1, false, "root"));
        ClusterState s1 = silentNode(rts1);
        harness.apply(s1, rts1.register(s1, reg("n1", Optional.empty()), 1100));
        assertThat(view(s1, "n1").baseState())
                .as("ReturnToService=1, not responding")
                .isEqualTo(NodeState.IDLE);

        ClusterState admin1 = state();
        harness.apply(admin1, rts1.register(admin1, reg("n1", Optional.empty()), 100));
        harness.apply(
                admin1,
                rts1.update(admin1, ROOT, List.of("n1"), Optional.of(NodeStateRequest.DOWN), "maintenance", 101));
        harness.apply(admin1, rts1.register(admin1, reg("n1", Optional.empty()), 102));
        assertThat(admin1.node("n1").admin().down())
                .as("ReturnToService=1, set DOWN by hand")
                .isTrue();

        NodeControl rts2 = new NodeControl(30, new NodePolicy(2, false, "root"));
        ClusterState admin2 = state();
        harness.apply(admin2, rts2.register(admin2, reg("n1", Optional.empty()), 100));
        harness.apply(
                admin2,
                rts2.update(admin2, ROOT, List.of("n1"), Optional.of(NodeStateRequest.DOWN), "maintenance", 101));
        harness.apply(admin2, rts2.register(admin2, reg("n1", Optional.empty()), 102));
        assertThat(admin2.node("n1").admin().down()).as("ReturnToService=2").isFalse();

        ClusterState invalid = silentNode(rts2);
        harness.apply(invalid, rts2.register(invalid, reg("n1", found(4, 8000, Map.of("gpu", 1L))), 1100));
        assertThat(invalid.node("n1").admin().down())
                .as("only with a valid configuration")
                .isTrue();
        assertThat(invalid.node("n1").admin().drain()).isTrue();
    }

    @Test
    void updateChecksWhoAndWhat() {
        ClusterState s = state();
        NodeControl nodes = new NodeControl(30, NodePolicy.DEFAULT);
        harness.apply(s, nodes.register(s, reg("n1", Optional.empty()), 100));
        assertThatThrownBy(() -> nodes.update(s, USER, List.of("n1"), Optional.of(NodeStateRequest.DRAIN), "x", 1))
                .isInstanceOf(SlurmException.class)
                .hasMessage("Invalid user id");
        assertThatThrownBy(() -> nodes.update(s, ROOT, List.of("n1"), Optional.of(NodeStateRequest.DRAIN), "", 1))
                .hasMessage("You must specify a reason when DOWNING or DRAINING a node. Request denied");
        assertThatThrownBy(() -> nodes.update(s, ROOT, List.of("n1"), Optional.of(NodeStateRequest.RESUME), "", 1))
                .hasMessage("Invalid node state specified");
        assertThatThrownBy(() -> nodes.update(s, ROOT, List.of("nope"), Optional.of(NodeStateRequest.DOWN), "x", 1))
                .hasMessage("Invalid node name specified");
        // scontrol takes these; the controller carries none of them out, nor an update without one.
        assertThatThrownBy(() -> nodes.update(s, ROOT, List.of("n1"), Optional.of(NodeStateRequest.FAIL), "x", 1))
                .hasMessage("Invalid node state specified");
        assertThatThrownBy(() -> nodes.update(s, ROOT, List.of("n1"), Optional.empty(), "x", 1))
                .hasMessage("Invalid node state specified");
        harness.apply(s, nodes.update(s, ROOT, List.of("n1"), Optional.of(NodeStateRequest.DRAIN), "disk", 5));
        assertThat(s.node("n1").admin().drain()).isTrue();
        harness.apply(s, nodes.update(s, ROOT, List.of("n1"), Optional.of(NodeStateRequest.RESUME), "", 6));
        assertThat(view(s, "n1").baseState()).isEqualTo(NodeState.IDLE);
        assertThat(s.node("n1").admin().reason()).isEmpty();
    }

    @Test
    void whatADaemonSaysOfItsMachineIsJournaledWhenItChanges() {
        ClusterState s = state();
        NodeControl nodes = new NodeControl(30, NodePolicy.DEFAULT);
        NodeFacts first = new NodeFacts("x86_64", "Linux 6.1.0 #1 SMP", 90);
        NodeControl.Registration reg =
                registration("n1", "127.0.0.1", 7000, new NodeEquipment(HW, List.of(), ""), first, Optional.empty());
        List<StateRecord> records = nodes.register(s, reg, 100).records();
        assertThat(records)
                .singleElement()
                .isInstanceOfSatisfying(
                        StateRecord.NodeRegistered.class,
                        r -> assertThat(r.daemon().facts()).isEqualTo(first));
        harness.apply(s, nodes.register(s, reg, 100));
        assertThat(s.node("n1").facts()).isEqualTo(first);
        assertThat(nodes.register(s, reg, 101).records()).isEmpty();
        // The daemon restarted: a new start time is a new registration record.
        NodeControl.Registration again = registration(
                "n1",
                "127.0.0.1",
                7000,
                new NodeEquipment(HW, List.of(), ""),
                new NodeFacts("x86_64", "Linux 6.1.0 #1 SMP", 200),
                Optional.empty());
        assertThat(nodes.register(s, again, 201).records()).hasSize(1);
    }

    private void runOneJob(ClusterState s, NodeControl nodes) {
        harness.apply(s, nodes.register(s, reg("n1", Optional.empty()), 100));
        harness.replay(s, new StateRecord.JobSubmitted(1, Builders.aJob().build(), "all", 60, 100));
        harness.replay(
                s,
                new StateRecord.JobStarted(
                        1, new Allocation(List.of(Allocation.NodeShare.of("n1", 1, 0, 1))), "all", 60, 101));
    }

    @Test
    void aFailedPrologDrainsTheNodeAndRequeuesTheJobHeld() {
        ClusterState s = state();
        NodeControl nodes = new NodeControl(300, new NodePolicy(0, false, "slurm"));
        runOneJob(s, nodes);
        harness.apply(
                s,
                BatchEnds.complete(s, "n1", 1, 0, null, BatchEnds.NodeScripts.PROLOG_FAILED, nodes.slurmUser(), 110));
        assertThat(s.job(1).status().state()).isEqualTo(JobState.PENDING);
        assertThat(s.job(1).terms().hold()).isEqualTo(dev.sluice.ctld.state.Job.Hold.ADMIN);
        // Recorded (compat 263): Slurm's launch failure hold, not a plain JobHeldAdmin.
        assertThat(s.image().reasonOf(s.job(1))).isEqualTo("launch failed requeued held");
        assertThat(s.job(1).run().restartCount()).isEqualTo(1);
        assertThat(s.node("n1").admin().reason()).isEqualTo("Prolog error");
        assertThat(s.node("n1").admin().reasonUser()).isEqualTo("slurm");
        assertThat(view(s, "n1").baseState()).isEqualTo(NodeState.IDLE);
        assertThat(view(s, "n1").flags()).contains(NodeFlag.DRAIN);
    }

    @Test
    void aFailedEpilogKeepsTheJobsEndAndDrainsTheNode() {
        ClusterState s = state();
        NodeControl nodes = new NodeControl(300, new NodePolicy(0, false, "slurm"));
        runOneJob(s, nodes);
        harness.apply(
                s,
                BatchEnds.complete(s, "n1", 1, 0, null, BatchEnds.NodeScripts.EPILOG_FAILED, nodes.slurmUser(), 110));
        assertThat(s.job(1).status().state()).isEqualTo(JobState.COMPLETED);
        assertThat(s.node("n1").admin().reason()).isEqualTo("Epilog error");
    }

    /** A job on two nodes downed in one command is requeued once, not twice. */
    @Test
    void aJobOnTwoDownedNodesFailsOnce() {
        ClusterState s = ClusterFixture.aCluster()
                .nodes(
                        ClusterFixture.aNode("n1").hardware(HW).gres("gpu:3"),
                        ClusterFixture.aNode("n2").hardware(HW))
                .partitions(names -> List.of(Builders.aPartition("all", names)))
                .configured();
        harness.replay(
                s, new StateRecord.JobSubmitted(1, Builders.aJob().requeue().build(), "all", 60, 100));
        harness.replay(
                s,
                new StateRecord.JobStarted(
                        1,
                        new Allocation(List.of(
                                Allocation.NodeShare.of("n1", 1, 0, 1), Allocation.NodeShare.of("n2", 1, 0, 1))),
                        "all",
                        60,
                        101));
        ControlResult<Void> downed = new NodeControl(300, NodePolicy.DEFAULT)
                .update(
                        s,
                        Caller.of(0, 0, "root"),
                        List.of("n1", "n2"),
                        Optional.of(NodeStateRequest.DOWN),
                        "maintenance",
                        110);
        assertThat(downed.records())
                .filteredOn(r -> r instanceof StateRecord.JobRequeued)
                .hasSize(1);
        harness.apply(s, downed);
        assertThat(s.job(1).status().state()).isEqualTo(JobState.PENDING);
        assertThat(s.job(1).run().restartCount()).isEqualTo(1);
    }
}
