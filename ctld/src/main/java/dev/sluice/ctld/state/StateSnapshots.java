package dev.sluice.ctld.state;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.ctld.state.StateRecord.ArrayTaskSplit;
import dev.sluice.ctld.state.StateRecord.JobEnded;
import dev.sluice.ctld.state.StateRecord.JobHoldChanged;
import dev.sluice.ctld.state.StateRecord.JobRequeued;
import dev.sluice.ctld.state.StateRecord.JobStarted;
import dev.sluice.ctld.state.StateRecord.JobSubmitted;
import dev.sluice.ctld.state.StateRecord.NodeRegistered;
import dev.sluice.ctld.state.StateRecord.NodeStateChanged;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The durable part of a state expressed as records: replayed into a state built from the same
 * configuration they rebuild it exactly. This is what a snapshot holds, so recovery has a
 * single code path. Jobs come in two passes — first every record comes into being (arrays
 * split into the task records they had), then each job's own history — so a task always
 * splits off its array before its start or end is replayed.
 */
final class StateSnapshots {
    private StateSnapshots() {}

    static List<StateRecord> records(ClusterState state) {
        List<StateRecord> out = new ArrayList<>();
        for (long started : state.controllerStarts()) {
            out.add(new StateRecord.ControllerStarted(started));
        }
        for (Node n : state.nodes()) {
            String gres = n.dynamic() ? n.gres().describe() : "";
            List<String> features = n.dynamic() ? n.features() : List.of();
            if (n.dynamic()) {
                // Absent from slurm.conf: the snapshot must bring the node itself.
                out.add(new StateRecord.NodeCreated(
                        n.name(),
                        new NodeEndpoint(
                                n.endpoint().hostname(),
                                n.endpoint().addr(),
                                n.endpoint().port()),
                        new NodeEquipment(n.hardware(), features, gres),
                        n.weight(),
                        n.admin().future(),
                        0));
            }
            if (n.registered()) {
                out.add(new NodeRegistered(
                        n.name(),
                        new NodeEndpoint(
                                n.endpoint().hostname(),
                                n.endpoint().addr(),
                                n.endpoint().port()),
                        new NodeEquipment(n.hardware(), features, gres),
                        new DaemonReport(n.bootTime(), n.version(), n.facts()),
                        n.dynamic(),
                        // Dated when the node was last busy: the one time of it the state keeps.
                        state.view(n).lastBusyTime()));
            }
            if (n.admin().future() && !n.dynamic()) {
                out.add(new NodeStateChanged(
                        n.name(),
                        NodeTransition.FUTURE,
                        n.admin().reason(),
                        n.admin().reasonUser(),
                        n.admin().reasonTime()));
            }
            if (n.admin().down()) {
                out.add(new NodeStateChanged(
                        n.name(),
                        NodeTransition.DOWN,
                        n.admin().reason(),
                        n.admin().reasonUser(),
                        n.admin().reasonTime()));
            }
            if (n.admin().drain()) {
                out.add(new NodeStateChanged(
                        n.name(),
                        NodeTransition.DRAIN,
                        n.admin().reason(),
                        n.admin().reasonUser(),
                        n.admin().reasonTime()));
            }
        }
        for (Job j : state.jobs()) {
            if (!j.array().isArray()) {
                out.add(new JobSubmitted(
                        j.id(),
                        j.request(),
                        j.terms().partition(),
                        j.terms().timeLimitMinutes(),
                        j.run().submitTime()));
            } else if (j.array().arrayJobId() == j.id()) {
                arrayRecords(state, j, out);
            }
        }
        for (Job j : state.jobs()) {
            for (int i = 0; i < j.run().restartCount(); i++) {
                boolean last = i == j.run().restartCount() - 1;
                out.add(new JobRequeued(
                        j.id(),
                        last && j.status().reason() == JobReason.REQUEUED_HELD,
                        j.run().eligibleTime(),
                        j.run().eligibleTime(),
                        false,
                        last && j.status().reason() == JobReason.LAUNCH_FAILED_REQUEUED_HELD));
            }
            if (j.terms().hold() != (j.request().hold() ? Job.Hold.USER : Job.Hold.NONE)) {
                out.add(new JobHoldChanged(j.id(), j.terms().hold(), j.run().submitTime()));
            }
            if (j.terms().adminPriority() > 0) {
                out.add(new StateRecord.JobUpdated(
                        j.id(),
                        List.of(new JobChange.Priority(j.terms().adminPriority())),
                        j.run().submitTime()));
            }
            if (j.allocation() != null) {
                out.add(new JobStarted(
                        j.id(),
                        j.allocation(),
                        j.terms().partition(),
                        j.terms().timeLimitMinutes(),
                        j.run().startTime()));
                if (j.suspension().time() > 0) {
                    out.add(new StateRecord.JobSuspendChanged(
                            j.id(),
                            j.status().state() == JobState.SUSPENDED,
                            j.suspension().preSuspendSeconds(),
                            j.suspension().time(),
                            j.suspension().byPreemption()));
                }
                state.preemptGrace(j)
                        .ifPresent(g -> out.add(new StateRecord.JobPreemptGraceStarted(
                                j.id(),
                                g.deadline(),
                                g.requeue(),
                                g.holdBackSeconds(),
                                j.run().startTime())));
                Set<String> prologWaits = state.prologRunsOn(j);
                if (!prologWaits.isEmpty()) {
                    out.add(new StateRecord.PrologWait(
                            j.id(), prologWaits, j.run().startTime()));
                }
            }
            if (j.status().state().isFinished()) {
                out.add(JobEnded.unrequested(
                                j.id(),
                                j.status().state(),
                                j.status().exitStatus(),
                                j.status().reason(),
                                j.run().endTime())
                        .prologFailedOn(j.status().prologFailedNode()));
                if (j.status().state() == JobState.PREEMPTED
                        && state.completingOn(j.id()).isEmpty()) {
                    // Its batch host has reported (or gone silent): no longer COMPLETING.
                    out.add(new StateRecord.JobEndReported(
                            j.id(), j.status().exitStatus(), j.run().endTime()));
                }
            }
            int derived = state.derivedExit(j.id());
            if (derived != 0) {
                // The steps themselves are accounting's; the state keeps only the highest status.
                out.add(new StateRecord.StepRecorded(
                        j.id(),
                        new JobStep(0, "", JobState.COMPLETED, 0, j.run().endTime(), derived, "", 0, 0, 0, ""),
                        j.run().endTime()));
            }
        }
        for (Reservation r : state.reservations().all()) {
            out.add(new StateRecord.ReservationSaved(r, r.start()));
        }
        return out;
    }

    /** The array's first record, then its tasks split off in id order, then forgotten tasks. */
    private static void arrayRecords(ClusterState state, Job master, List<StateRecord> out) {
        int arrayId = master.id();
        out.add(new JobSubmitted(
                arrayId,
                master.request(),
                master.terms().partition(),
                master.terms().timeLimitMinutes(),
                master.run().submitTime()));
        Set<Integer> represented = new HashSet<>();
        for (Job task : state.jobs()) {
            if (task.id() != arrayId && task.array().arrayJobId() == arrayId) {
                out.add(new ArrayTaskSplit(
                        arrayId, task.array().taskId(), task.id(), master.run().submitTime()));
                represented.add(task.array().taskId());
            }
        }
        TaskSet all = master.request().sequencing().array().partOf(arrayId).pendingTasks();
        for (int task : all.ids()) {
            boolean pending = master.array().pendingTasks().contains(task);
            if (!pending
                    && !represented.contains(task)
                    && task != master.array().taskId()) {
                out.add(new ArrayTaskSplit(arrayId, task, 0, master.run().submitTime()));
            }
        }
        if (master.array().taskId() >= 0) {
            out.add(new ArrayTaskSplit(
                    arrayId, master.array().taskId(), arrayId, master.run().submitTime()));
        }
    }
}
