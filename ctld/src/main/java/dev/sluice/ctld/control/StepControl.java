package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.gres.GresRequest;
import dev.sluice.ctld.gres.GresGrant;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.StepShare;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Places a job step inside its job's allocation, as Slurm's step manager does: a step's tasks
 * go to the first nodes of the job, spread in blocks; a step gets every GRES of the job on its
 * nodes unless it names some; {@code --exclusive} steps hold their CPUs and devices against
 * other exclusive steps and wait ({@link Outcome.Busy}) when the job has them but another step
 * holds them. Pure: the steps are soft state of the loop ({@link StepCommands}).
 */
public final class StepControl {
    private StepControl() {}

    /** What srun asked for; 0 = not given. */
    public record StepRequest(int numTasks, int numNodes, int cpusPerTask, String gres, boolean exclusive) {}

    /** A step that runs: only exclusive ones hold anything against others. */
    public record ActiveStep(int stepId, boolean exclusive, List<StepShare> shares) {
        public ActiveStep {
            shares = List.copyOf(shares);
        }
    }

    public sealed interface Outcome {
        record Placed(List<StepShare> shares) implements Outcome {}

        /** It fits the job, not now: other exclusive steps hold what it needs. */
        record Busy() implements Outcome {}
    }

    /**
     * @throws SlurmException when the step could never run in this job (more tasks, CPUs, nodes
     *     or devices than the job has, or a bad GRES text)
     */
    public static Outcome place(Allocation job, List<ActiveStep> active, StepRequest request) {
        List<GresRequest> wanted;
        try {
            wanted = request.gres().isBlank() ? List.of() : GresRequest.parseList(request.gres());
        } catch (IllegalArgumentException e) {
            throw new SlurmException(ErrorCode.INVALID_GRES);
        }
        int jobNodes = job.nodes().size();
        if (request.numNodes() > jobNodes) {
            throw new SlurmException(ErrorCode.REQUESTED_NODE_CONFIG_UNAVAILABLE);
        }
        int cpusPerTask = Math.max(1, request.cpusPerTask());
        int nodes = request.numNodes() > 0 ? request.numNodes() : nodesFor(job, request, cpusPerTask);
        int tasks = request.numTasks() > 0 ? request.numTasks() : nodes;
        if (tasks < nodes) {
            throw new SlurmException(ErrorCode.TOO_MANY_REQUESTED_CPUS);
        }
        int[] perNode = blocks(job, nodes, tasks, cpusPerTask);
        boolean busy = false;
        List<StepShare> shares = new ArrayList<>();
        int nextTask = 0;
        for (int i = 0; i < nodes; i++) {
            Allocation.NodeShare node = job.nodes().get(i);
            int here = perNode[i];
            int cpus = here * cpusPerTask;
            List<StepShare> heldHere = request.exclusive() ? exclusiveSharesOn(active, node.node()) : List.of();
            int heldCpus = heldHere.stream().mapToInt(StepShare::cpus).sum();
            busy |= cpus > node.cpus() - heldCpus;
            GresPick pick = pickGres(node, heldHere, wanted);
            busy |= pick.busy();
            List<Integer> ids = new ArrayList<>();
            for (int t = 0; t < here; t++) {
                ids.add(nextTask++);
            }
            shares.add(new StepShare(node.node(), i, ids, cpus, pick.grants()));
        }
        return busy ? new Outcome.Busy() : new Outcome.Placed(shares);
    }

    /**
     * Slurm's block distribution: every node of the step runs one task, and the rest fill the
     * nodes in order up to their CPUs ({@code srun -N2 -n4} on 4-CPU nodes: 3 and 1).
     */
    private static int[] blocks(Allocation job, int nodes, int tasks, int cpusPerTask) {
        int[] perNode = new int[nodes];
        int left = tasks;
        for (int i = 0; i < nodes; i++) {
            if (job.nodes().get(i).cpus() < cpusPerTask) {
                throw new SlurmException(ErrorCode.TOO_MANY_REQUESTED_CPUS);
            }
            perNode[i] = 1;
            left--;
        }
        for (int i = 0; i < nodes && left > 0; i++) {
            int extra = Math.min(left, job.nodes().get(i).cpus() / cpusPerTask - perNode[i]);
            perNode[i] += extra;
            left -= extra;
        }
        if (left > 0) {
            throw new SlurmException(ErrorCode.TOO_MANY_REQUESTED_CPUS);
        }
        return perNode;
    }

    private static int nodesFor(Allocation job, StepRequest request, int cpusPerTask) {
        if (request.numTasks() <= 0) {
            return job.nodes().size();
        }
        int needed = request.numTasks() * cpusPerTask;
        int nodes = 0;
        for (Allocation.NodeShare n : job.nodes()) {
            nodes++;
            needed -= n.cpus();
            if (needed <= 0) {
                break;
            }
        }
        return Math.min(nodes, request.numTasks());
    }

    private static List<StepShare> exclusiveSharesOn(List<ActiveStep> active, String node) {
        List<StepShare> out = new ArrayList<>();
        for (ActiveStep s : active) {
            if (s.exclusive()) {
                s.shares().stream().filter(sh -> sh.node().equals(node)).forEach(out::add);
            }
        }
        return out;
    }

    private record GresPick(List<GresGrant> grants, boolean busy) {}

    private static GresPick pickGres(Allocation.NodeShare node, List<StepShare> held, List<GresRequest> wanted) {
        if (wanted.isEmpty()) {
            return new GresPick(node.gres(), false);
        }
        List<GresGrant> grants = new ArrayList<>();
        boolean busy = false;
        for (GresRequest w : wanted) {
            String type = w.type().orElse("");
            List<GresGrant> jobs = node.gres().stream()
                    .filter(g -> g.name().equals(w.name()))
                    .filter(g -> type.isEmpty() || g.type().equals(type))
                    .toList();
            if (w.name().equals("gpu")) {
                Set<Integer> taken = new HashSet<>();
                held.forEach(s ->
                        s.gres().stream().filter(g -> g.name().equals("gpu")).forEach(g -> taken.addAll(g.indices())));
                List<Integer> all = new ArrayList<>();
                jobs.forEach(g -> all.addAll(g.indices()));
                all.sort(Integer::compare);
                if (all.size() < w.count()) {
                    throw new SlurmException(ErrorCode.INVALID_GRES);
                }
                List<Integer> free =
                        all.stream().filter(i -> !taken.contains(i)).toList();
                if (free.size() < w.count()) {
                    busy = true;
                    continue;
                }
                List<Integer> mine = free.subList(0, (int) w.count());
                grants.add(new GresGrant("gpu", jobs.get(0).type(), mine, mine.size()));
            } else {
                long has = jobs.stream().mapToLong(GresGrant::count).sum();
                if (has < w.count() || jobs.isEmpty()) {
                    throw new SlurmException(ErrorCode.INVALID_GRES);
                }
                long used = held.stream()
                        .flatMap(s -> s.gres().stream())
                        .filter(g -> g.name().equals(w.name()))
                        .mapToLong(GresGrant::count)
                        .sum();
                if (used + w.count() > has) {
                    busy = true;
                    continue;
                }
                GresGrant first = jobs.get(0);
                grants.add(new GresGrant(w.name(), first.type(), first.indices(), w.count()));
            }
        }
        return new GresPick(grants, busy);
    }
}
