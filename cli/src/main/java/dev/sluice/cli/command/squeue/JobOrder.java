package dev.sluice.cli.command.squeue;

import dev.sluice.cli.view.JobView;
import java.util.Comparator;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * squeue's orderings. The default is Slurm's {@code P,t,-p}: partition, then state (by compact
 * name, so CA &lt; CD &lt; PD &lt; R &lt; RD, as squeue 22.05 lists them), then
 * priority high to low. Remaining ties keep the order Slurm's squeue sorted the controller's
 * list into before (its sorts are stable): jobs that started (or wait for a {@code --begin}
 * time, which Slurm takes as their start), the latest first, and among those
 * started in the same second the controller's order; then jobs not started, in the reverse of
 * the controller's order (an artefact of that first sort's comparator under glibc's merge
 * sort: it never calls two unstarted jobs equal). The controller's order comes with each job
 * ({@code position}).
 *
 * <p>{@code -S} takes field letters, each optionally prefixed by {@code +} or {@code -} and
 * separated by commas or nothing ({@code -t,i} or {@code -ti}); an unknown letter is an error
 * naming that letter, as in Slurm.
 */
final class JobOrder {
    static final String DEFAULT = "P,t,-p";
    /**
     * {@code --start} sorts by expected start time alone (squeue(1): it implies {@code --sort=S});
     * see the {@code S} key for jobs without one (compat 261: a held job before a later one
     * waiting on a dependency, although the held job's priority is 0).
     */
    static final String START = "S";

    private JobOrder() {}

    /**
     * The comparator for {@code spec}, or the first letter squeue would reject.
     *
     * @param position a job's place in the controller's answer
     */
    static Result parse(String spec, ToIntFunction<JobView> position) {
        Comparator<JobView> order = null;
        boolean descending = false;
        for (char c : spec.toCharArray()) {
            if (c == ',' || c == ' ') {
                continue;
            }
            if (c == '-' || c == '+') {
                descending = c == '-';
                continue;
            }
            Optional<Comparator<JobView>> key = c == 'S' ? Optional.of(byStart(position)) : key(c);
            if (key.isEmpty()) {
                return new Result(null, c);
            }
            Comparator<JobView> k = descending ? key.get().reversed() : key.get();
            order = order == null ? k : order.thenComparing(k);
            descending = false;
        }
        Comparator<JobView> before = startedFirst(position);
        return new Result(order == null ? before : order.thenComparing(before), (char) 0);
    }

    private static Comparator<JobView> startedFirst(ToIntFunction<JobView> position) {
        return (a, b) -> {
            long sa = started(a);
            long sb = started(b);
            if (sa == 0 && sb == 0) {
                return Integer.compare(position.applyAsInt(b), position.applyAsInt(a));
            }
            if (sa == 0 || sb == 0) {
                return sa == 0 ? 1 : -1;
            }
            return sa != sb ? Long.compare(sb, sa) : Integer.compare(position.applyAsInt(a), position.applyAsInt(b));
        };
    }

    /**
     * When the job started, 0 if it has not. A pending job's {@code --begin} counts, as Slurm sets
     * a job's start time to it at submission (observed: held jobs of equal priority list those
     * with a begin time first, the latest first, before those without); a scheduler's expected
     * start does not, Slurm's backfill having set none yet when squeue looks.
     */
    private static long started(JobView j) {
        return j.stateName().equals("PENDING")
                ? j.spec().getBeginTime()
                : j.info().getStartTime();
    }

    /**
     * The {@code S} key: earliest start first, jobs without one (N/A) after every job with one and
     * among themselves in the controller's order. Slurm's start comparator never calls two jobs
     * without a start equal, so its first sort (see {@link #startedFirst}) reverses them and
     * sorting by {@code S} again puts them back (compat 261).
     */
    private static Comparator<JobView> byStart(ToIntFunction<JobView> position) {
        return (a, b) -> {
            long sa = a.info().getStartTime();
            long sb = b.info().getStartTime();
            if (sa == 0 && sb == 0) {
                return Integer.compare(position.applyAsInt(a), position.applyAsInt(b));
            }
            if (sa == 0 || sb == 0) {
                return sa == 0 ? 1 : -1;
            }
            return Long.compare(sa, sb);
        };
    }

    record Result(Comparator<JobView> comparator, char invalid) {
        boolean ok() {
            return comparator != null;
        }
    }

    private static Optional<Comparator<JobView>> key(char c) {
        Comparator<JobView> k = switch (c) {
            case 'i', 'A', 'F' ->
                Comparator.comparingLong(j -> Integer.toUnsignedLong(j.info().getJobId()));
            case 'P' -> Comparator.comparing(JobView::partition);
            case 'j' -> Comparator.comparing(JobView::name);
            case 'u' -> Comparator.comparing(JobView::userName);
            case 'U' -> Comparator.comparingLong(JobView::uid);
            case 'g' -> Comparator.comparing(JobView::groupName);
            case 'G' -> Comparator.comparingLong(JobView::gid);
            // Slurm's t compares compact names, T long ones: they differ only for a flag such as
            // RESV_DEL_HOLD, which t puts after RUNNING (RD after R; compat 255).
            case 't' -> Comparator.comparing(JobView::stateCompact);
            case 'T' -> Comparator.comparing(JobView::stateName);
            case 'p', 'Q' ->
                Comparator.comparingLong(j -> Integer.toUnsignedLong(j.info().getPriority()));
            case 'D' -> Comparator.comparingLong(JobView::nodeCount);
            case 'C' -> Comparator.comparingLong(JobView::cpuCount);
            case 'M' -> Comparator.comparingLong(JobView::elapsedSeconds);
            case 'l' -> Comparator.comparingLong(JobView::timeLimitMinutes);
            case 'e' -> Comparator.comparingLong(JobView::endTime);
            case 'V' -> Comparator.comparingLong(j -> j.info().getSubmitTime());
            case 'N' -> Comparator.comparing(JobView::nodeList);
            case 'r' -> Comparator.comparing(JobView::reason);
            case 'a' -> Comparator.comparing(j -> j.spec().getAccount());
            case 'q' -> Comparator.comparing(j -> j.spec().getQos());
            case 'y' -> Comparator.comparingInt(j -> j.spec().getNice());
            case 'Z' -> Comparator.comparing(JobView::workDir);
            case 'b' -> Comparator.comparing(JobView::tresPerNode);
            case 'o' -> Comparator.comparing(JobView::command);
            case 'B' -> Comparator.comparing(j -> j.info().getBatchHost());
            case 'c' -> Comparator.comparingLong(JobView::minCpusPerNode);
            case 'k' -> Comparator.comparing(j -> j.spec().getComment());
            case 'f' -> Comparator.comparing(j -> j.spec().getConstraint());
            case 'h' -> Comparator.comparing(j -> j.spec().getExclusive());
            case 'n' -> Comparator.comparing(j -> j.spec().getReqNodes());
            case 'x' -> Comparator.comparing(j -> j.spec().getExcludeNodes());
            case 'L' -> Comparator.comparing(JobView::timeLeft);
            default -> null;
        };
        return Optional.ofNullable(k);
    }
}
