package dev.sluice.common.slurm;

/**
 * {@code --gres-flags} as Slurm 22.05 takes it: whether a job's CPUs must be the ones its GRES
 * (GPUs) are bound to ({@code enforce-binding}) or may be any ({@code disable-binding}).
 */
public enum GresBinding {
    /** Not named: the cluster's default, which does not enforce binding. */
    NOT_GIVEN(""),
    DISABLE("disable-binding"),
    ENFORCE("enforce-binding");

    private final String wireName;

    GresBinding(String wireName) {
        this.wireName = wireName;
    }

    /** The word the submission carries, lower case as sbatch sends it; empty when not given. */
    public String wireName() {
        return wireName;
    }

    /**
     * {@code --gres-flags} as sbatch takes it: one of the two words, in any case.
     *
     * @throws IllegalArgumentException for anything else, the empty word included
     */
    public static GresBinding parse(String text) {
        return SlurmWords.read(values(), GresBinding::wireName, text, SlurmWords.Match.WHOLE)
                .orElseThrow(() -> new IllegalArgumentException("Invalid --gres-flags specification: " + text));
    }

    /**
     * The word a submission carried, where empty means not given.
     *
     * @throws IllegalArgumentException for a word {@link #parse} refuses
     */
    public static GresBinding fromWire(String text) {
        return text.isEmpty() ? NOT_GIVEN : parse(text);
    }
}
