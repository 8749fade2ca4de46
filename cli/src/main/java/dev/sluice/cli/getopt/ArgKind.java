package dev.sluice.cli.getopt;

/** Whether an option takes an argument, as getopt's {@code no_argument} and friends. */
public enum ArgKind {
    NONE,
    REQUIRED,
    /** Only attached: {@code -sVALUE} or {@code --opt=VALUE}, never the next word. */
    OPTIONAL
}
