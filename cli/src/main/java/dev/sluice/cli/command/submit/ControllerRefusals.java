package dev.sluice.cli.command.submit;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Options the controller would refuse for a new job on this cluster, refused by the command
 * with the controller's words (sbatch: {@code Batch job submission failed: …}, salloc: {@code Job
 * submit/allocate failed: …}, srun: {@code Unable to allocate resources: …}).
 */
public final class ControllerRefusals {
    private ControllerRefusals() {}

    /**
     * What the controller refuses for a new allocation because this cluster has no such thing,
     * as Slurm's slurmctld words it: no X11 forwarding
     * (PrologFlags=X11) are configured in Sluice; sbatch's {@code --batch} must name features of
     * {@code --constraint}.
     */
    public static Optional<String> of(SubmitOptions o) {
        if (o.has("x11")) {
            return Optional.of("X11 forwarding not available");
        }
        if (o.has("batch") && !batchFeaturesWithinConstraint(o.get("batch"), o.get("constraint"))) {
            return Optional.of("Job --batch option is invalid or not a subset of --constraints");
        }
        return Optional.empty();
    }

    /**
     * sbatch(1): "The --batch argument must be a subset of the job's --constraint=<list>
     * argument". Whether the features exist is then the constraint's business (the controller).
     */
    private static boolean batchFeaturesWithinConstraint(String batch, String constraint) {
        Set<String> wanted = features(batch);
        return !wanted.isEmpty() && constraint != null && features(constraint).containsAll(wanted);
    }

    private static Set<String> features(String expression) {
        return Arrays.stream(expression.split("[&|,\\[\\]()]"))
                .map(f -> f.replaceAll("\\*[0-9]*$", "").strip())
                .filter(f -> !f.isEmpty())
                .collect(Collectors.toSet());
    }
}
