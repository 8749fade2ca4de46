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
 * Places a job step inside its job's allocation, as Slurm's step manager does: its nodes and
 * how many tasks each runs are {@link StepLayout}'s; a step gets every GRES of the job on its
 * nodes unless it names some; {@code --exclusive} steps hold their CPUs and devices against
 * other exclusive steps and wait ({@link Outcome.Busy}) when the job has them but another step
 * holds them. Pure: the steps are soft state of the loop ({@link StepCommands}).
 */
public final class StepControl {
    private StepControl() {}

    /**
     * What srun asked for; 0 = not given. {@code nodeList}: {@code -w}'s nodes; {@code relative}:
     * {@code -r}'s offset into the job's nodes; {@code gpusPerTask}: GPUs each task gets (on
     * each node, tasks × that, when the step names no GRES).
     */
    public record StepRequest(
            int numTasks,
            int numNodes,
            int cpusPerTask,
            String gres,
            boolean exclusive,
            List<String> nodeList,
            int relative,
            int gpusPerTask) {
        public StepRequest {
            nodeList = List.copyOf(nodeList);
        }

        /** A step placed anywhere in the job ({@code -w}, {@code -r} and {@code --gpus-per-task} unset). */
        public static StepRequest anywhere(
                int numTasks, int numNodes, int cpusPerTask, String gres, boolean exclusive) {
            return new StepRequest(numTasks, numNodes, cpusPerTask, gres, exclusive, List.of(), 0, 0);
        }
    }

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
        int cpusPerTask = Math.max(1, request.cpusPerTask());
        // No task count: one per node, on every node of the job unless -N/-w say otherwise.
        int nodeCount = request.numTasks() <= 0
                        && request.numNodes() <= 0
                        && request.nodeList().isEmpty()
                ? job.nodes().size()
                : request.numNodes();
        int tasks = request.numTasks() > 0
                ? request.numTasks()
                : Math.max(nodeCount, request.nodeList().size());
        StepLayout.Layout layout =
                StepLayout.of(job, tasks, nodeCount, cpusPerTask, request.nodeList(), request.relative());
        int nodes = layout.nodes().size();
        int[] perNode = layout.tasksPerNode();
        boolean busy = false;
        List<StepShare> shares = new ArrayList<>();
        int nextTask = 0;
        for (int i = 0; i < nodes; i++) {
            Allocation.NodeShare node = job.nodes().get(layout.nodes().get(i));
            int here = perNode[i];
            int cpus = here * cpusPerTask;
            List<StepShare> heldHere = request.exclusive() ? exclusiveSharesOn(active, node.node()) : List.of();
            int heldCpus = heldHere.stream().mapToInt(StepShare::cpus).sum();
            busy |= cpus > node.cpus() - heldCpus;
            GresPick pick = pickGres(node, heldHere, perTaskGpus(wanted, request.gpusPerTask(), here));
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
     * {@code --gpus-per-task} with no GRES named: the node's tasks' GPUs, which the node daemon
     * then hands out task by task ({@code --gpu-bind=per_task}, as Slurm implies it).
     */
    private static List<GresRequest> perTaskGpus(List<GresRequest> wanted, int gpusPerTask, int tasksHere) {
        if (!wanted.isEmpty() || gpusPerTask <= 0) {
            return wanted;
        }
        return List.of(new GresRequest("gpu", java.util.Optional.empty(), (long) gpusPerTask * tasksHere));
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
