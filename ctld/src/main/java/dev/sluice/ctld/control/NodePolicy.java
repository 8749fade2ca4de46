package dev.sluice.ctld.control;

/**
 * How the controller treats nodes that come and go, from slurm.conf.
 *
 * @param returnToService {@code ReturnToService}: 0 = a DOWN node stays DOWN until an
 *     administrator resumes it; 1 = a node DOWN only for not responding returns when it
 *     registers with a valid configuration; 2 = any DOWN node returns then
 * @param configOverrides {@code SlurmdParameters=config_overrides}: CPUs, memory and disk of
 *     slurm.conf are believed even when the node has fewer. GRES are still checked, as Slurm
 *     22.05 does (observed: "gres/gpu count reported lower than configured (2 < 3)" with
 *     config_overrides set)
 * @param slurmUser {@code SlurmUser} (default root): the user of the controller's own reasons
 */
public record NodePolicy(int returnToService, boolean configOverrides, String slurmUser) {
    public static final NodePolicy DEFAULT = new NodePolicy(0, false, "root");

    public NodePolicy {
        if (returnToService < 0 || returnToService > 2) {
            throw new IllegalArgumentException("ReturnToService must be 0, 1 or 2: " + returnToService);
        }
        java.util.Objects.requireNonNull(slurmUser, "slurmUser is null");
    }
}
