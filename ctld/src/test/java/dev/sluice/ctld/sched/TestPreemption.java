package dev.sluice.ctld.sched;

import static dev.sluice.ctld.Builders.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.common.slurm.JobReason;
import dev.sluice.common.slurm.JobState;
import dev.sluice.common.slurm.PreemptMode;
import dev.sluice.ctld.limits.AccountingPolicy;
import dev.sluice.ctld.limits.Qos;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.StateRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * Preemption (PreemptType=preempt/partition_prio and preempt/qos): which running jobs a
 * pending job preempts, as the scheduling pass plans it.
 */
class TestPreemption extends PreemptionFixture {

    @Test
    void aHigherTierJobPreemptsTheLowerTierJobInItsWayAndStartsOnceItIsGone() {
        cluster(1);
        int low = running("low", "n1", CPUS, NOW - 100, aJob().requeue().build());
        int high = submit("high", aJob().tasks(2).build());

        SchedulePlan plan = schedule(partitionPrio(0));
        assertThat(plan.preemptions())
                .containsExactly(new SchedulePlan.Preempt(low, PreemptMode.REQUEUE, high, 121, 0));
        assertThat(plan.starts()).isEmpty();
        assertThat(plan.pendingReasons()).containsEntry(high, JobReason.RESOURCES);

        cluster.replay(new StateRecord.JobRequeued(low, false, NOW, NOW + 121, true));
        SchedulePlan next = schedule(partitionPrio(0));
        assertThat(next.starts()).extracting(SchedulePlan.Start::jobId).containsExactly(high);
        assertThat(next.preemptions()).isEmpty();
    }

    @Test
    void theFewestAndLowestJobsArePreempted() {
        cluster(1);
        int big = running("low", "n1", 2, NOW - 300, aJob().requeue().build());
        int small = running("low", "n1", 1, NOW - 200, aJob().requeue().build());
        int newer = running("low", "n1", 1, NOW - 100, aJob().requeue().build());
        int high = submit("high", aJob().tasks(1).build());

        // One CPU is enough: the job that started last goes, and only it.
        assertThat(victims(schedule(partitionPrio(0)))).containsExactly(newer);
        assertThat(state.job(big).isRunning()).isTrue();
        assertThat(state.job(small).isRunning()).isTrue();
        assertThat(high).isPositive();
    }

    @Test
    void aJobOfTheSameOrALowerTierPreemptsNothing() {
        cluster(1);
        running("low", "n1", CPUS, NOW - 100, aJob().build());
        int same = submit("mid", aJob().tasks(1).build());

        SchedulePlan plan = schedule(partitionPrio(0));
        assertThat(plan.preemptions()).isEmpty();
        assertThat(plan.pendingReasons()).containsEntry(same, JobReason.RESOURCES);
    }

    @Test
    void aJobThatWouldNotFitEvenAfterPreemptingPreemptsNothing() {
        cluster(2);
        running("low", "n1", CPUS, NOW - 100, aJob().build());
        running("high", "n2", CPUS, NOW - 100, aJob().build());
        // Two whole nodes: n2 is held by a job of its own tier.
        int high = submit("high", aJob().nodes(2).tasks(8).build());

        SchedulePlan plan = schedule(partitionPrio(0));
        assertThat(plan.preemptions()).isEmpty();
        assertThat(plan.pendingReasons()).containsEntry(high, JobReason.RESOURCES);
    }

    @Test
    void aJobYoungerThanPreemptExemptTimeIsNotPreempted() {
        cluster(1);
        running("low", "n1", CPUS, NOW - 30, aJob().build());
        submit("high", aJob().tasks(1).build());

        assertThat(schedule(partitionPrio(60)).preemptions()).isEmpty();
        assertThat(schedule(partitionPrio(20)).preemptions()).hasSize(1);
    }

    @Test
    void aQosPreemptExemptTimeOverridesTheClusters() {
        cluster(1);
        running("low", "n1", CPUS, NOW - 30, aJob().qos("patient").build());
        submit("high", aJob().tasks(1).build());
        Qos patient = Qos.builder("patient").preemptExemptSeconds(60).build();
        AccountingPolicy accounting = new AccountingPolicy(
                1, List.of(), Map.of(), Map.of("patient", patient), dev.sluice.ctld.limits.UserWckeys.NONE);

        assertThat(schedule(partitionPrio(0), accounting).preemptions()).isEmpty();
        assertThat(schedule(partitionPrio(0)).preemptions()).hasSize(1);
    }

    @Test
    void requeueOfAJobThatMayNotBeRequeuedCancelsIt() {
        cluster(1);
        int low = running("low", "n1", CPUS, NOW - 100, aJob().build());
        int high = submit("high", aJob().tasks(1).build());

        assertThat(schedule(partitionPrio(0)).preemptions())
                .containsExactly(new SchedulePlan.Preempt(low, PreemptMode.CANCEL, high, 121, 0));
    }

    @Test
    void nothingMoreIsPreemptedWhileAPreemptedJobIsStillBeingKilled() {
        cluster(1);
        int low = running("low", "n1", CPUS, NOW - 100, aJob().build());
        submit("high", aJob().tasks(1).build());
        cluster.replay(StateRecord.JobEnded.unrequested(low, JobState.PREEMPTED, 15, JobReason.NONE, NOW));
        state.completing(low, "n1", true);
        int other = running("mid", "n1", 1, NOW - 100, aJob().build());

        assertThat(schedule(partitionPrio(0)).preemptions()).isEmpty();
        assertThat(other).isPositive();
    }

    @Test
    void withQosPreemptionAJobPreemptsTheQosItsQosNames() {
        cluster(1);
        int normal = running("low", "n1", 2, NOW - 100, aJob().qos("normal").build());
        int scavenger =
                running("low", "n1", 2, NOW - 50, aJob().qos("scavenger").build());
        int high = submit("low", aJob().qos("hipri").tasks(2).build());
        Qos cancelled = Qos.builder("scavenger").preemptMode("cancel").build();
        Qos hipri = Qos.builder("hipri").preempts(List.of("scavenger")).build();
        AccountingPolicy accounting = new AccountingPolicy(
                1,
                List.of(),
                Map.of(),
                Map.of("normal", Qos.builder("normal").build(), "scavenger", cancelled, "hipri", hipri),
                dev.sluice.ctld.limits.UserWckeys.NONE);
        PreemptPolicy qos = PreemptPolicy.withoutGang(PreemptPolicy.Type.QOS, PreemptMode.REQUEUE, Map.of(), 0, 121);

        assertThat(schedule(qos, accounting).preemptions())
                .containsExactly(new SchedulePlan.Preempt(scavenger, PreemptMode.CANCEL, high, 121, 0));
        assertThat(normal).isPositive();
    }

    // ------------------------------------------------------------------ properties

    /**
     * A running job: its partition, node, CPUs, how long it has run, and whether it is of the QOS
     * "patient", which has a PreemptExemptTime of its own.
     */
    record Runner(String partition, int node, int cpus, long ranSeconds, boolean patient) {}

    /** A pending job: its partition, CPUs per task and tasks. */
    record Waiter(String partition, int tasks) {}

    /**
     * Whatever runs and waits, a pass never preempts a job of the preemptor's tier or above, nor
     * one younger than PreemptExemptTime (its QOS's where that has one, compat 244); what it starts fits what is free; no start lands on
     * the nodes of a job it preempts; and each preemptor, once its victims are gone, fits.
     */
    @Property(tries = 300)
    void preemptionOnlyTakesLowerTierJobsAndOnlyWhenThePreemptorThenFits(
            @ForAll("runners") List<Runner> runners,
            @ForAll("waiters") List<Waiter> waiters,
            @ForAll("exempt") long exempt,
            @ForAll("exempt") long patientExempt) {
        cluster(3);
        AccountingPolicy accounting = new AccountingPolicy(
                1,
                List.of(),
                Map.of(),
                Map.of(
                        "patient",
                        Qos.builder("patient")
                                .preemptExemptSeconds(patientExempt)
                                .build()),
                dev.sluice.ctld.limits.UserWckeys.NONE);
        int[] used = new int[4];
        for (Runner r : runners) {
            if (used[r.node()] + r.cpus() > CPUS) {
                continue;
            }
            used[r.node()] += r.cpus();
            running(
                    r.partition(),
                    "n" + r.node(),
                    r.cpus(),
                    NOW - r.ranSeconds(),
                    aJob().requeue().qos(r.patient() ? "patient" : "normal").build());
        }
        for (Waiter w : waiters) {
            submit(w.partition(), aJob().tasks(w.tasks()).build());
        }
        Map<String, Integer> tiers = Map.of("low", 1, "mid", 1, "high", 2);
        SchedulePlan plan = schedule(partitionPrio(exempt), accounting);
        net.jqwik.api.statistics.Statistics.collect(plan.preemptions().isEmpty() ? "no preemption" : "preempts");

        Map<Integer, List<Integer>> byPreemptor = new HashMap<>();
        for (SchedulePlan.Preempt p : plan.preemptions()) {
            Job victim = state.job(p.jobId());
            Job preemptor = state.job(p.preemptorId());
            assertThat(victim.isRunning()).isTrue();
            assertThat(tiers.get(victim.terms().partition()))
                    .isLessThan(tiers.get(preemptor.terms().partition()));
            boolean patient = "patient".equals(victim.request().qos());
            assertThat(victim.runSeconds(NOW)).isGreaterThanOrEqualTo(patient ? patientExempt : exempt);
            byPreemptor.computeIfAbsent(p.preemptorId(), k -> new ArrayList<>()).add(p.jobId());
        }
        assertThat(victims(plan)).doesNotHaveDuplicates();

        // Starts never over-allocate: with the victims still holding their nodes.
        int[] cpus = new int[4];
        for (Job j : state.image().jobs()) {
            if (j.isRunning()) {
                j.allocation().nodes().forEach(s -> cpus[node(s.node())] += s.cpus());
            }
        }
        for (SchedulePlan.Start s : plan.starts()) {
            s.allocation().nodes().forEach(share -> cpus[node(share.node())] += share.cpus());
        }
        for (int n = 1; n <= 3; n++) {
            assertThat(cpus[n]).isLessThanOrEqualTo(CPUS);
        }

        // Once the victims are gone, every preemptor fits beside what the pass started: the
        // preemptors together need no more than the victims leave free.
        int free = 0;
        for (int n = 1; n <= 3; n++) {
            free += CPUS - cpus[n];
        }
        for (SchedulePlan.Preempt p : plan.preemptions()) {
            free += state.job(p.jobId()).allocation().totalCpus();
        }
        int wanted = byPreemptor.keySet().stream()
                .mapToInt(id -> state.job(id).request().size().numTasks())
                .sum();
        assertThat(free).as("preemptors %s fit after preemption", byPreemptor).isGreaterThanOrEqualTo(wanted);

        // And, the victims gone, a preemptor that no other pending job of its tier or above
        // competes with starts at the next pass (one that does may lose the room to it: a
        // known limit, docs/scheduling.md "Preemption").
        for (SchedulePlan.Preempt p : plan.preemptions()) {
            cluster.replay(StateRecord.JobEnded.unrequested(p.jobId(), JobState.PREEMPTED, 0, JobReason.NONE, NOW));
            // Gone once its batch host reports it (COMPLETING until then).
            cluster.replay(new StateRecord.JobEndReported(p.jobId(), 15, NOW));
        }
        for (SchedulePlan.Start s : plan.starts()) {
            cluster.replay(new StateRecord.JobStarted(s.jobId(), s.allocation(), s.partition(), 60, NOW));
        }
        SchedulePlan next = schedule(partitionPrio(exempt), accounting);
        List<Integer> startedNext =
                next.starts().stream().map(SchedulePlan.Start::jobId).toList();
        for (int preemptor : byPreemptor.keySet()) {
            int tier = tiers.get(state.job(preemptor).terms().partition());
            boolean alone = state.image().jobs().stream()
                    .noneMatch(j -> j.isPending()
                            && j.id() != preemptor
                            && tiers.get(j.terms().partition()) >= tier);
            if (alone) {
                assertThat(startedNext)
                        .as("preemptor %d starts after its victims %s", preemptor, byPreemptor.get(preemptor))
                        .contains(preemptor);
            }
        }
    }

    private static int node(String name) {
        return Integer.parseInt(name.substring(1));
    }

    @Provide
    Arbitrary<List<Runner>> runners() {
        return Combinators.combine(
                        Arbitraries.of("low", "mid", "high"),
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.integers().between(1, CPUS),
                        Arbitraries.longs().between(0, 600),
                        Arbitraries.of(false, true))
                .as(Runner::new)
                .list()
                .ofMinSize(2)
                .ofMaxSize(10);
    }

    @Provide
    Arbitrary<List<Waiter>> waiters() {
        return Combinators.combine(
                        Arbitraries.of("low", "mid", "high", "high"),
                        Arbitraries.integers().between(1, 12))
                .as(Waiter::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(5);
    }

    @Provide
    Arbitrary<Long> exempt() {
        return Arbitraries.of(0L, 120L, 300L);
    }
}
