package dev.sluice.operator.scale;

import dev.sluice.common.scalein.ScaleInRanking.Candidate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One NodeSet reconcile's decisions. A pod is <em>active</em> (its node takes work), <em>scaling
 * in</em> (its node was drained at {@link PodView#drainedAt()}) or <em>terminating</em>
 * (already deleted). With more active pods than replicas, the surplus is drained in the order of
 * the controller's scale-in ranking, so the busy nodes are the last to go: a pod whose node has
 * not registered yet goes first (it has no work), then idle nodes, then those whose jobs end
 * soonest. A scaling-in pod is deleted once its node runs no job, or when {@code grace} seconds
 * have passed since the drain. With fewer active pods than replicas, scaling-in pods are resumed
 * first (their nodes are warm), then new ordinals are created, lowest free first. With the count
 * met, outdated pods are replaced one bounded batch at a time (a rolling update), drained first.
 */
public final class ScalePlan {
    /**
     * A pod of the NodeSet as the plan needs it: {@code replacing} when it was drained for a
     * rolling update (it comes back, with the new template, once deleted), {@code outdated} when
     * its template is not the NodeSet's current one, {@code ready} when its pod runs and its node
     * has registered and answers (a replacement counts as unavailable until then).
     */
    public record PodView(
            String name,
            int ordinal,
            Optional<Long> drainedAt,
            boolean terminating,
            boolean replacing,
            boolean outdated,
            boolean ready) {
        public PodView(String name, int ordinal, Optional<Long> drainedAt, boolean terminating) {
            this(name, ordinal, drainedAt, terminating, false, false, true);
        }
    }

    /** What to do, in this order: create, resume, drain (for scale-in), replace (drain for an update), delete. */
    public record Actions(
            List<Integer> create, List<String> resume, List<String> drain, List<String> replace, List<String> delete) {
        public boolean idle() {
            return create.isEmpty() && resume.isEmpty() && drain.isEmpty() && replace.isEmpty() && delete.isEmpty();
        }
    }

    private ScalePlan() {}

    /**
     * @param ranking {@code scontrol show scalein} over the NodeSet's nodes that the controller
     *     knows; pods missing from it have not registered
     * @param now epoch seconds
     * @param grace seconds a drained node's jobs may take before its pod is deleted anyway
     */
    public static Actions plan(int replicas, List<PodView> pods, List<Candidate> ranking, long now, long grace) {
        return plan(replicas, pods, ranking, now, grace, 0);
    }

    /**
     * As {@link #plan(int, List, List, long, long)}, and, when the replica count is met, a rolling
     * update: outdated pods are drained for replacement least work first while fewer than
     * {@code maxUnavailable} pods are being replaced or not ready (0: no rolling update, as
     * {@code OnDelete}). A replaced pod is deleted as a scaled-in one is, and its ordinal is
     * created again from the new template.
     */
    public static Actions plan(
            int replicas, List<PodView> pods, List<Candidate> ranking, long now, long grace, int maxUnavailable) {
        Map<String, Candidate> byName = new LinkedHashMap<>();
        ranking.forEach(c -> byName.put(c.name(), c));
        List<PodView> active = new ArrayList<>();
        List<PodView> scalingIn = new ArrayList<>();
        List<PodView> replacing = new ArrayList<>();
        Set<Integer> taken = new HashSet<>();
        for (PodView p : pods) {
            taken.add(p.ordinal());
            if (p.terminating()) {
                continue;
            }
            if (p.drainedAt().isEmpty()) {
                active.add(p);
            } else {
                (p.replacing() ? replacing : scalingIn).add(p);
            }
        }
        List<Integer> create = new ArrayList<>();
        List<String> resume = new ArrayList<>();
        List<String> drain = new ArrayList<>();
        List<String> delete = new ArrayList<>();
        List<String> replace = new ArrayList<>();
        if (active.size() + replacing.size() < replicas) {
            int deficit = replicas - active.size() - replacing.size();
            // The scaling-in pods with least left to finish stay scaling in; resume the busiest.
            List<PodView> warm = new ArrayList<>(scalingIn);
            warm.sort(Comparator.comparingInt((PodView p) -> jobs(byName, p))
                    .reversed()
                    .thenComparingInt(PodView::ordinal));
            for (PodView p : warm) {
                if (deficit == 0) {
                    break;
                }
                resume.add(p.name());
                scalingIn.remove(p);
                deficit--;
            }
            for (int ordinal = 0; deficit > 0; ordinal++) {
                if (!taken.contains(ordinal)) {
                    create.add(ordinal);
                    deficit--;
                }
            }
        } else if (active.size() + replacing.size() > replicas && active.size() > 0) {
            int surplus = Math.min(active.size(), active.size() + replacing.size() - replicas);
            List<PodView> order = new ArrayList<>(active);
            order.sort(Comparator.comparingInt((PodView p) -> rank(byName, p))
                    .thenComparing(Comparator.comparingInt(PodView::ordinal).reversed()));
            for (PodView p : order.subList(0, surplus)) {
                drain.add(p.name());
            }
        } else if (maxUnavailable > 0) {
            long unavailable =
                    replacing.size() + active.stream().filter(p -> !p.ready()).count();
            List<PodView> outdated =
                    new ArrayList<>(active.stream().filter(PodView::outdated).toList());
            outdated.sort(
                    Comparator.comparingInt((PodView p) -> rank(byName, p)).thenComparingInt(PodView::ordinal));
            for (PodView p : outdated) {
                if (unavailable >= maxUnavailable) {
                    break;
                }
                replace.add(p.name());
                unavailable++;
            }
        }
        List<PodView> leaving = new ArrayList<>(scalingIn);
        leaving.addAll(replacing);
        for (PodView p : leaving) {
            boolean done = jobs(byName, p) == 0;
            boolean expired = now - p.drainedAt().orElseThrow() >= grace;
            if (done || expired) {
                delete.add(p.name());
            }
        }
        return new Actions(
                List.copyOf(create),
                List.copyOf(resume),
                List.copyOf(drain),
                List.copyOf(replace),
                List.copyOf(delete));
    }

    /** A node the controller does not know ranks before all: it has no work. */
    private static int rank(Map<String, Candidate> byName, PodView p) {
        Candidate c = byName.get(p.name());
        return c == null ? 0 : c.rank();
    }

    private static int jobs(Map<String, Candidate> byName, PodView p) {
        Candidate c = byName.get(p.name());
        return c == null ? 0 : c.jobs();
    }
}
