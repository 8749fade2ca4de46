package dev.sluice.ctld.state;

/** Slurm's {@code --array} value: tasks and an optional {@code %throttle}. */
public final class ArraySpec {
    /** Slurm's default MaxArraySize: task ids 0..1000. */
    public static final int DEFAULT_MAX_ARRAY_SIZE = 1001;

    private ArraySpec() {}

    /**
     * @throws IllegalArgumentException for a specification Slurm rejects
     */
    public static ArrayPart parse(int jobId, String spec, int maxArraySize) {
        String tasks = spec.strip();
        int throttle = 0;
        int percent = tasks.indexOf('%');
        if (percent >= 0) {
            throttle = Integer.parseInt(tasks.substring(percent + 1));
            tasks = tasks.substring(0, percent);
            if (throttle < 0) {
                throw new IllegalArgumentException("negative throttle");
            }
        }
        return new ArrayPart(jobId, -1, TaskSet.parse(tasks, maxArraySize), throttle);
    }

    /** The array part of a job submitted with this specification (validated at submission). */
    static ArrayPart partOf(int jobId, String spec) {
        return spec.isBlank() ? ArrayPart.NONE : parse(jobId, spec, Integer.MAX_VALUE);
    }
}
