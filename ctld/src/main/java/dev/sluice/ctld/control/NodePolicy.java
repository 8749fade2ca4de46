package dev.sluice.ctld.control;

/**
 * How the controller treats nodes that come and go, from slurm.conf.
 *
 * @param returnToService {@code ReturnToService}: 0 = a DOWN node stays DOWN until an
 *     administrator resumes it; 1 = a node DOWN only for not responding returns when it
 *     registers with a valid configuration; 2 = any DOWN node returns then
 * @param configOverrides {@code SlurmdParameters=config_overrides}: CPUs, memory and disk of
 *     slurm.conf are believed even when the node has fewer. GRES are still checked: a missing
 *     GPU is never accepted silently (Sluice's choice; see docs/nodes.md)
 */
public record NodePolicy(int returnToService, boolean configOverrides) {
    public static final NodePolicy DEFAULT = new NodePolicy(0, false);

    public NodePolicy {
        if (returnToService < 0 || returnToService > 2) {
            throw new IllegalArgumentException("ReturnToService must be 0, 1 or 2: " + returnToService);
        }
    }
}
