package dev.sluice.ctld.limits;

import static dev.sluice.ctld.limits.LimitProperties.TRES;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.tres.Tres;
import dev.sluice.ctld.state.Job;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Over random jobs, placed on random nodes, and GrpTRES caps on an account and its user: the gate
 * never lets the jobs it admits take the association over a cap, and it holds a job back only
 * when admitting it would, a node counting once however many of the jobs share it (compat 168).
 */
class TestTresLimitProperties {
    private static final Enforcement ALL = Enforcement.parse(List.of("associations", "limits"));

    /** A job of {@code nodes} nodes placed on n{firstNode}, n{firstNode + 1} ... */
    record Demand(int tasks, int nodes, long mem, int gpus, int firstNode) {}

    @Provide
    Arbitrary<List<Demand>> demands() {
        return Combinators.combine(
                        Arbitraries.integers().between(1, 6),
                        Arbitraries.integers().between(1, 2),
                        Arbitraries.longs().between(0, 8).map(n -> n * 500),
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.integers().between(1, 2))
                .as(Demand::new)
                .list()
                .ofMaxSize(12);
    }

    @Provide
    Arbitrary<TresLimits> caps() {
        return LimitProperties.caps();
    }

    @Property(tries = 300)
    void admittedJobsNeverExceedAndRefusedOnesWouldHave(
            @ForAll("demands") List<Demand> jobs, @ForAll("caps") TresLimits account, @ForAll("caps") TresLimits user) {
        AccountingPolicy policy = LimitProperties.policy(
                List.of(
                        Association.builder("root").qos(List.of("normal")).build(),
                        Association.builder("physics")
                                .parent("root")
                                .limits(Limits.builder().grpTres(account).build())
                                .build(),
                        Association.builder("physics")
                                .user("user1000")
                                .parent("physics")
                                .limits(Limits.builder().grpTres(user).build())
                                .build()),
                Qos.builder("normal").build());
        LimitUsage usage = LimitUsage.of(policy, List.of());
        Tres held = Tres.empty();
        Set<String> nodesHeld = new TreeSet<>();
        List<String> reasons = new ArrayList<>();
        int id = 1;
        for (Demand d : jobs) {
            Job job = LimitProperties.job(id++, 1000, "physics", d.tasks(), d.nodes(), d.mem(), d.gpus());
            Tres wanted = JobTres.of(job.request());
            JobReason reason = LimitGate.reason(ALL, policy, usage, job);
            Tres own = held.with("node", nodesHeld.size());
            // Before placement it may yet land on the nodes the association holds.
            Tres beyond = wanted.with("node", Math.max(0, d.nodes() - nodesHeld.size()));
            boolean wouldExceed = account.exceeded(own, beyond) != null || user.exceeded(own, beyond) != null;
            assertThat(reason != null)
                    .as("held back exactly when a cap would be passed")
                    .isEqualTo(wouldExceed);
            if (reason == null) {
                List<String> placed = LimitProperties.placed(d.firstNode(), d.nodes());
                Set<String> after = new TreeSet<>(nodesHeld);
                after.addAll(placed);
                reason = LimitGate.placed(ALL, policy, usage, job, placed);
                boolean overNodes = false;
                for (TresLimits caps : List.of(account, user)) {
                    overNodes |= caps.get("node") != Limits.NONE && after.size() > caps.get("node");
                }
                assertThat(reason != null)
                        .as("held back on its nodes exactly when they take the association past node=")
                        .isEqualTo(overNodes);
                if (reason == null) {
                    usage.started(job, wanted, placed);
                    held = held.plus(wanted);
                    nodesHeld.addAll(placed);
                }
            }
            if (reason != null) {
                reasons.add(reason.slurmName());
            }
            Tres now = held.with("node", nodesHeld.size());
            for (String t : TRES) {
                assertThat(usage.account("physics").tres().get(t))
                        .as("the account's " + t)
                        .isEqualTo(now.get(t));
                assertThat(usage.association("physics", "user1000").tres().get(t))
                        .as("the user's " + t)
                        .isEqualTo(now.get(t));
                for (TresLimits caps : List.of(account, user)) {
                    if (caps.get(t) != Limits.NONE) {
                        assertThat(now.get(t)).as(t).isLessThanOrEqualTo(caps.get(t));
                    }
                }
            }
        }
        assertThat(reasons)
                .allSatisfy(r -> assertThat(r)
                        .isIn("AssocGrpCpuLimit", "AssocGrpMemLimit", "AssocGrpNodeLimit", "AssocGrpGRES"));
    }
}
