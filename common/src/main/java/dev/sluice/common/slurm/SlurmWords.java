package dev.sluice.common.slurm;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reading a user's word as one of an enum's Slurm words, the one way every such option is read:
 * case does not matter, and how much of the word must be typed is the option's own
 * ({@link Match}). A constant whose word is empty (the "not given" of an option) is never matched,
 * so an empty word is refused as Slurm refuses it.
 */
public final class SlurmWords {
    private SlurmWords() {}

    /** How much of a word the user must type, per option, as Slurm 22.05's commands read it. */
    public enum Match {
        /** The whole word ({@code --gres-flags=enforce-binding}). */
        WHOLE,
        /** Any non-empty start of it ({@code OpenMode=app} as the controller reads it). */
        PREFIX,
        /** Its first letter, whatever follows ({@code --open-mode=a...}: sbatch and srun). */
        INITIAL
    }

    /**
     * The first of {@code values} whose word ({@code word}, lower case) {@code text} stands for,
     * or empty when none.
     */
    public static <E extends Enum<E>> Optional<E> read(E[] values, Function<E, String> word, String text, Match match) {
        if (text == null || text.isEmpty()) {
            return Optional.empty();
        }
        String typed = text.toLowerCase(Locale.ROOT);
        for (E value : values) {
            String w = word.apply(value);
            if (!w.isEmpty() && matches(w, typed, match)) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }

    private static boolean matches(String word, String typed, Match match) {
        return switch (match) {
            case WHOLE -> word.equals(typed);
            case PREFIX -> word.startsWith(typed);
            case INITIAL -> typed.charAt(0) == word.charAt(0);
        };
    }
}
