package dev.sluice.ctld.state;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Slurm's {@code --array} value, parsed once where the request arrives: the task ids, the
 * {@code %throttle}, and the facts every task's launch reports of the whole array
 * ({@code SLURM_ARRAY_TASK_COUNT/MIN/MAX/STEP}), with the text as typed for what Slurm echoes
 * ({@code ArrayTaskId=} of a pending array). A value that does not parse is kept marked invalid
 * and refused by the submission's checks, at the point where Slurm refuses it
 * ({@code Invalid job array specification}).
 *
 * @param step the common difference of the task ids, 1 when they have none
 */
public record ArrayRequest(String text, TaskSet tasks, int throttle, int step, boolean valid) {
    /** No {@code --array}: a plain job. */
    public static final ArrayRequest NONE = new ArrayRequest("", TaskSet.EMPTY, 0, 1, true);

    /** Slurm's default MaxArraySize: task ids 0..1000. */
    public static final int DEFAULT_MAX_ARRAY_SIZE = 1001;

    /**
     * The largest MaxArraySize Slurm accepts (slurm.conf(5)): ids beyond it are refused before
     * anything is allocated for them, whatever the configuration says.
     */
    public static final int LARGEST_MAX_ARRAY_SIZE = 4_000_001;

    public ArrayRequest {
        requireNonNull(text, "text is null");
        requireNonNull(tasks, "tasks is null");
    }

    /** {@code --array} as it arrived; blank: none. Never throws: see {@link #valid()}. */
    public static ArrayRequest read(String text) {
        if (text.isBlank()) {
            return NONE;
        }
        String tasks = text.strip();
        try {
            int throttle = 0;
            int percent = tasks.indexOf('%');
            if (percent >= 0) {
                throttle = Integer.parseInt(tasks.substring(percent + 1));
                tasks = tasks.substring(0, percent);
                if (throttle < 0) {
                    return invalid(text);
                }
            }
            TaskSet ids = TaskSet.parse(tasks, LARGEST_MAX_ARRAY_SIZE);
            return new ArrayRequest(text, ids, throttle, stepOf(ids.ids()), true);
        } catch (IllegalArgumentException e) {
            return invalid(text);
        }
    }

    public boolean isArray() {
        return !text.isBlank();
    }

    /** Whether the submission may have it under {@code MaxArraySize}. */
    public boolean allowedUnder(int maxArraySize) {
        return valid && (!isArray() || tasks.last() < maxArraySize);
    }

    /** The array part of job {@code jobId} submitted with it (validated then). */
    public ArrayPart partOf(int jobId) {
        return isArray() ? new ArrayPart(jobId, -1, tasks, throttle) : ArrayPart.NONE;
    }

    private static ArrayRequest invalid(String text) {
        return new ArrayRequest(text, TaskSet.EMPTY, 0, 1, false);
    }

    private static int stepOf(List<Integer> ids) {
        int step = ids.size() > 1 ? ids.get(1) - ids.get(0) : 1;
        for (int i = 2; i < ids.size(); i++) {
            if (ids.get(i) - ids.get(i - 1) != step) {
                return 1;
            }
        }
        return step;
    }
}
