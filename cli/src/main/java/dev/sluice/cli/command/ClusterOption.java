package dev.sluice.cli.command;

import dev.sluice.cli.Invocation;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code -M/--clusters} of the query commands. Slurm asks slurmdbd which clusters exist; a
 * Sluice installation is one cluster, so the names Slurm's database would know are its own
 * ClusterName (and {@code all}). Observed with 22.05: each unknown name is reported, and the
 * command stops (exit 1) only when no name is known.
 */
public final class ClusterOption {
    private ClusterOption() {}

    /** The known clusters named in {@code value}; empty after printing Slurm's refusal. */
    public static Optional<List<String>> resolve(Invocation inv, String program, String value, PrintStream err) {
        String own = CommandSupport.clusterName(inv);
        List<String> known = new ArrayList<>();
        for (String name : CommandSupport.commaList(value)) {
            if (name.equalsIgnoreCase("all") || (!own.isEmpty() && name.equals(own))) {
                if (!known.contains(own)) {
                    known.add(own);
                }
            } else {
                err.println(program + ": error: No cluster '" + name + "' known by database.");
            }
        }
        if (known.isEmpty()) {
            err.println(program + ": error: '" + value + "' can't be reached now, or it is an invalid entry for"
                    + " --cluster.  Use 'sacctmgr list clusters' to see available clusters.");
            return Optional.empty();
        }
        return Optional.of(known);
    }
}
