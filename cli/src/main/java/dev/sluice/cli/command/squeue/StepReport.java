package dev.sluice.cli.command.squeue;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetStepsRequest;
import dev.sluice.protocol.v1.StepInfo;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * {@code squeue -s/--steps[=list]}: the running steps, batch steps included. The list names
 * jobs ({@code 12}) or steps ({@code 12.0}, {@code 12.batch}); {@code -j}, {@code -u},
 * {@code -p} and {@code -w} filter as for jobs, other filters do not apply to steps (as in
 * Slurm, where e.g. {@code -A} "has no effect when listing job steps"). Steps are listed by job
 * then step number, the batch step last, as Slurm 22.05 lists them.
 */
final class StepReport {
    private static final String PROG = "squeue";

    /** One entry of the step list: a job, or one step of it. */
    record StepSelector(int jobId, OptionalInt stepId) {
        boolean matches(StepInfo s) {
            return s.getJobId() == jobId && (stepId.isEmpty() || stepId.getAsInt() == s.getStepId());
        }

        static Optional<StepSelector> parse(String text) {
            int dot = text.indexOf('.');
            String job = dot < 0 ? text : text.substring(0, dot);
            if (!digits(job)) {
                return Optional.empty();
            }
            int jobId = (int) Long.parseLong(job);
            if (dot < 0) {
                return Optional.of(new StepSelector(jobId, OptionalInt.empty()));
            }
            String step = text.substring(dot + 1);
            if (step.equals("batch")) {
                return Optional.of(new StepSelector(jobId, OptionalInt.of(StepFormatter.BATCH_STEP)));
            }
            return digits(step)
                    ? Optional.of(new StepSelector(jobId, OptionalInt.of((int) Long.parseLong(step))))
                    : Optional.empty();
        }

        private static boolean digits(String s) {
            return !s.isEmpty()
                    && s.length() <= 10
                    && s.chars().allMatch(Character::isDigit)
                    && Long.parseLong(s) <= SlurmLimits.MAX_UINT32;
        }
    }

    /** What the job options selected, already parsed by squeue. */
    record Filter(List<Integer> jobIds, Set<String> users, Set<String> partitions, Set<String> nodes) {}

    private StepReport() {}

    static int run(
            Invocation inv,
            String stepList,
            Filter filter,
            String format,
            boolean noHeader,
            PrintStream out,
            PrintStream err) {
        List<StepSelector> wanted = new ArrayList<>();
        for (String item : CommandSupport.commaList(stepList)) {
            Optional<StepSelector> s = StepSelector.parse(item);
            if (s.isEmpty()) {
                // Slurm's wording, with its "??" for a step part it could not read.
                err.println(PROG + ": error: Invalid job_step id: " + (item.contains(".") ? item : item + ".??"));
                return 1;
            }
            wanted.add(s.get());
        }
        StepFormatter formatter = StepFormatter.of(
                format != null ? format : StepFormatter.DEFAULT_FORMAT,
                c -> err.println(PROG + ": error: Invalid job step format specification: " + c));
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        List<StepInfo> steps;
        try {
            steps = client.get()
                    .call(ClientRequest.newBuilder().setGetSteps(GetStepsRequest.getDefaultInstance()))
                    .getGetSteps()
                    .getStepsList();
        } catch (ControllerException e) {
            err.println("slurm_get_job_steps error: " + e.getMessage());
            return 1;
        }
        if (!noHeader) {
            out.println(formatter.header());
        }
        Instant now = inv.clock().instant();
        steps.stream()
                .filter(s -> wanted.isEmpty() || wanted.stream().anyMatch(w -> w.matches(s)))
                .filter(s -> filter.jobIds().isEmpty() || filter.jobIds().contains(s.getJobId()))
                .filter(s -> filter.users().isEmpty()
                        || filter.users().contains(s.getUserName())
                        || filter.users().contains(Integer.toUnsignedString(s.getUserId())))
                .filter(s ->
                        filter.partitions().isEmpty() || filter.partitions().contains(s.getPartition()))
                .filter(s -> filter.nodes().isEmpty()
                        || HostList.expand(s.getNodeList()).stream().anyMatch(filter.nodes()::contains))
                .sorted(Comparator.comparingLong((StepInfo s) -> Integer.toUnsignedLong(s.getJobId()))
                        .thenComparingLong(s -> Integer.toUnsignedLong(s.getStepId())))
                .forEach(s -> out.println(formatter.row(s, now, inv.clock().getZone())));
        return 0;
    }
}
