package dev.sluice.noded.launch;

import dev.sluice.common.slurm.JobState;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the batch launcher remembers of runs outside their life here, so that the controller's
 * messages arriving late, early or twice act once: runs that ended before their launch arrived
 * (the controller's terminate can overtake the launch it sent first), and runs that ended here
 * after their report was delivered and the spool forgot them (a launch sent again because its
 * first answer came too late, from a busy node, must not run the job a second time). Both are
 * bounded, as slurmd's list of finished batch jobs is: the oldest go. Not thread-safe: the
 * launcher guards it with its monitor.
 */
final class LaunchMemory {
    private record EarlyEnd(int restartCount, JobState state) {}

    private final Map<Integer, EarlyEnd> endedBeforeLaunch = bounded(4096);
    private final Map<Integer, Integer> ranHere = bounded(16384);

    /** Whether this run of the job (or a later one) already ran here to its end. */
    boolean ran(int jobId, int restartCount) {
        Integer ran = ranHere.get(jobId);
        return ran != null && ran >= restartCount;
    }

    void ranHere(int jobId, int restartCount) {
        ranHere.put(jobId, restartCount);
    }

    void endedBeforeLaunch(int jobId, int restartCount, JobState state) {
        endedBeforeLaunch.put(jobId, new EarlyEnd(restartCount, state));
    }

    /** How this run was ended before its launch arrived, if it was; forgotten once asked. */
    Optional<JobState> takeEarlyEnd(int jobId, int restartCount) {
        EarlyEnd early = endedBeforeLaunch.remove(jobId);
        return early != null && early.restartCount() == restartCount ? Optional.of(early.state()) : Optional.empty();
    }

    private static <V> Map<Integer, V> bounded(int limit) {
        return new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, V> eldest) {
                return size() > limit;
            }
        };
    }
}
