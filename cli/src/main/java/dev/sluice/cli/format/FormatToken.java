package dev.sluice.cli.format;

import static java.util.Objects.requireNonNull;

/** One piece of a parsed format string: literal text, or a field letter with its layout. */
public sealed interface FormatToken {
    record Literal(String text) implements FormatToken {
        public Literal {
            requireNonNull(text, "text is null");
        }
    }

    /**
     * {@code %[.]WIDTHletter}: {@code width} 0 means "as wide as the value"; {@code rightJustify}
     * is the {@code .} flag (Slurm's reading of it, not printf's precision).
     */
    record Field(char letter, int width, boolean rightJustify) implements FormatToken {}
}
