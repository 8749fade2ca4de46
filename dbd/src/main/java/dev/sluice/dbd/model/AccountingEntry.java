package dev.sluice.dbd.model;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One record of a controller's accounting stream, as the store writes it: the job or step as it
 * stands after an event, or the cluster's size from a time on. {@code sequence} is the
 * controller's outbox sequence, which makes re-sent records harmless.
 */
public sealed interface AccountingEntry {
    long sequence();

    /**
     * A job row, keyed by (cluster, job id, submit time) as in Slurm: the whole job after the
     * event, so storing it is an upsert.
     *
     * @param name the job's name
     * @param workDir its working directory
     * @param priority its priority at the event
     * @param constraints {@code --constraint} as typed
     * @param reservation the reservation it runs in ({@code --reservation}), empty for none
     * @param reservationId that reservation's number, 0 for none
     */
    record Job(
            long sequence,
            JobKey key,
            JobOwner owner,
            JobTimes times,
            JobOutcome outcome,
            JobPlacement placement,
            String name,
            String workDir,
            long priority,
            String constraints,
            String reservation,
            long reservationId)
            implements AccountingEntry {
        public Job {
            requireNonNull(reservation, "reservation is null");
            requireNonNull(key, "key is null");
            requireNonNull(owner, "owner is null");
            requireNonNull(times, "times is null");
            requireNonNull(outcome, "outcome is null");
            requireNonNull(placement, "placement is null");
            requireNonNull(name, "name is null");
            requireNonNull(workDir, "workDir is null");
            requireNonNull(constraints, "constraints is null");
        }
    }

    /**
     * Which job: Slurm's key, and for an array task its display id ({@code 10_3}) and array.
     *
     * @param arrayJobId 0 for a job that is not part of an array
     * @param arrayTaskId -1 for none
     */
    record JobKey(int jobId, long submitTime, String displayId, int arrayJobId, int arrayTaskId) {
        public JobKey {
            requireNonNull(displayId, "displayId is null");
        }

        public boolean isArray() {
            return arrayJobId != 0;
        }
    }

    /**
     * Whose job, and under which association, QOS and wckey. uid/gid unsigned, as Slurm's.
     *
     * @param wckey in Slurm's form ({@code *NAME}: its user's default), empty for none
     */
    record JobOwner(String userName, long uid, long gid, String groupName, String account, String qos, String wckey) {
        public JobOwner {
            requireNonNull(wckey, "wckey is null");
            requireNonNull(userName, "userName is null");
            requireNonNull(groupName, "groupName is null");
            requireNonNull(account, "account is null");
            requireNonNull(qos, "qos is null");
        }
    }

    /** Epoch seconds (0: not yet) and the time limit in minutes (Slurm's uint32 scale). */
    /** @param suspended seconds it spent suspended (sacct Suspended) */
    record JobTimes(long eligible, long start, long end, long limitMinutes, long suspended) {}

    /**
     * The job's state by Slurm's name, its wait status, the reason it waits or ended, and who
     * cancelled it (-1: nobody).
     */
    record JobOutcome(String state, int exitStatus, String reason, long cancelledBy) {
        public JobOutcome {
            requireNonNull(state, "state is null");
            requireNonNull(reason, "reason is null");
        }
    }

    /**
     * Where it ran and what it asked for and got; TRES in the controller's named form
     * ({@code cpu=2,mem=1G,node=1}).
     */
    record JobPlacement(
            String partition,
            String nodeList,
            int nodes,
            int cpus,
            int reqCpus,
            int reqNodes,
            String reqTres,
            String allocTres) {
        public JobPlacement {
            requireNonNull(partition, "partition is null");
            requireNonNull(nodeList, "nodeList is null");
            requireNonNull(reqTres, "reqTres is null");
            requireNonNull(allocTres, "allocTres is null");
        }
    }

    /**
     * A step of a job (the batch script is step {@link StepOrder#BATCH}) after the event.
     *
     * @param stepId Slurm's unsigned step number
     */
    record Step(
            long sequence,
            int jobId,
            long jobSubmitTime,
            long stepId,
            String name,
            StepRun run,
            StepPlacement placement)
            implements AccountingEntry {
        public Step {
            requireNonNull(name, "name is null");
            requireNonNull(run, "run is null");
            requireNonNull(placement, "placement is null");
        }
    }

    /** A step's state by Slurm's name, its span and its wait status. */
    record StepRun(String state, long start, long end, int exitStatus) {
        public StepRun {
            requireNonNull(state, "state is null");
        }
    }

    /** Where a step ran and what it held (named TRES form). */
    record StepPlacement(String nodeList, int nodes, int tasks, int cpus, String allocTres) {
        public StepPlacement {
            requireNonNull(nodeList, "nodeList is null");
            requireNonNull(allocTres, "allocTres is null");
        }
    }

    /**
     * The cluster's size from {@code time} on, and its part on DOWN or DRAINED nodes (sreport's
     * Down), both in the named TRES form.
     */
    record ClusterSize(long sequence, long time, String tres, String downTres) implements AccountingEntry {
        public ClusterSize {
            requireNonNull(tres, "tres is null");
            requireNonNull(downTres, "downTres is null");
        }
    }

    /**
     * An advance reservation as it stands after a create or update, or (deleted) the deletion of
     * the reservation of that name, at {@code time}. TRES in the named form, nodes a ranged host
     * list, flags as scontrol prints them.
     */
    record Reservation(
            long sequence,
            long time,
            String name,
            long id,
            long start,
            long end,
            String nodes,
            String tres,
            String flags,
            List<String> users,
            List<String> accounts,
            boolean deleted)
            implements AccountingEntry {
        public Reservation {
            requireNonNull(name, "name is null");
            requireNonNull(nodes, "nodes is null");
            requireNonNull(tres, "tres is null");
            requireNonNull(flags, "flags is null");
            users = List.copyOf(users);
            accounts = List.copyOf(accounts);
        }

        /** Whether the two hold different things (nodes, TRES, flags, users, accounts). */
        public boolean holdsOtherThan(Reservation other) {
            return !nodes.equals(other.nodes)
                    || !tres.equals(other.tres)
                    || !flags.equals(other.flags)
                    || !users.equals(other.users)
                    || !accounts.equals(other.accounts);
        }
    }
}
