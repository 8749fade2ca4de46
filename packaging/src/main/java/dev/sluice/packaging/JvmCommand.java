package dev.sluice.packaging;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The command line of one daemon's JVM in a local cluster: its own options, then a site's (or a
 * benchmark's) from {@code SLUICE_<ROLE>_JAVA_OPTS}, as the systemd units take {@code
 * SLUICE_JAVA_OPTS} from each daemon's environment file. Later options win in HotSpot, so the
 * environment can override a default (a heap size, a compiler setting) without a rebuild.
 */
final class JvmCommand {
    private JvmCommand() {}

    /**
     * {@code java} with {@code options}, the environment's extra options for {@code role} (e.g.
     * {@code NODED} reads {@code SLUICE_NODED_JAVA_OPTS}, split on white space), then {@code main}.
     */
    static List<String> of(String java, String role, List<String> options, List<String> main) {
        return of(java, role, options, main, System.getenv());
    }

    static List<String> of(String java, String role, List<String> options, List<String> main, Map<String, String> env) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(options);
        String extra = env.getOrDefault("SLUICE_" + role + "_JAVA_OPTS", "").strip();
        if (!extra.isEmpty()) {
            command.addAll(Arrays.asList(extra.split("\\s+")));
        }
        command.addAll(main);
        return List.copyOf(command);
    }
}
