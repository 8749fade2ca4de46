package dev.sluice.cli.command.salloc;

import dev.sluice.common.conf.SlurmConf;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What salloc runs when given no command, as Slurm 22.05's salloc decides it: the user's shell
 * on this host, or, with {@code LaunchParameters=use_interactive_step}, an srun on the first node
 * of the allocation with {@code InteractiveStepOptions} (Slurm's default {@code --interactive
 * --preserve-env --pty $SHELL}). Slurm's salloc hands that line to {@code /bin/sh -c}, so the
 * options are split and {@code $SHELL} expanded by a shell, as here.
 */
final class DefaultCommand {
    /** Slurm's DEFAULT_INTERACTIVE_STEP_OPTS. */
    static final String INTERACTIVE_STEP_OPTIONS = "--interactive --preserve-env --pty $SHELL";

    private DefaultCommand() {}

    static List<String> of(SlurmConf conf, Map<String, String> env) {
        if (usesInteractiveStep(conf)) {
            String options = conf.value("InteractiveStepOptions").orElse(INTERACTIVE_STEP_OPTIONS);
            return List.of("/bin/sh", "-c", "srun " + options);
        }
        return List.of(env.getOrDefault("SHELL", "/bin/sh"));
    }

    private static boolean usesInteractiveStep(SlurmConf conf) {
        return conf.value("LaunchParameters")
                .map(v -> List.of(v.toLowerCase(Locale.ROOT).split(",")).stream()
                        .anyMatch(p -> p.strip().equals("use_interactive_step")))
                .orElse(false);
    }
}
