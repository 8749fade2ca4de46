package dev.sluice.ctld.control;

import dev.sluice.ctld.gres.GresInventory;
import dev.sluice.ctld.state.NodeHardware;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Does a registering node have what it is configured to have? The first shortfall becomes the
 * reason the node is drained, worded as slurmctld words it ({@code Low CPUs},
 * {@code Low RealMemory (...)}, {@code gres/gpu count reported lower than configured (2 < 3)}).
 */
public final class RegistrationCheck {
    private RegistrationCheck() {}

    /**
     * @param configured what slurm.conf (or a dynamic node's {@code --conf}) promises
     * @param configuredGres the GRES built from it
     * @param found what the node daemon detected; its GRES map holds only names it could check
     */
    public static Optional<String> shortfall(
            NodeHardware configured, GresInventory configuredGres, NodeControl.Found found, NodePolicy policy) {
        NodeHardware hw = found.hardware();
        if (!policy.configOverrides()) {
            if (hw.cpus() < configured.cpus()) {
                return Optional.of("Low CPUs");
            }
            if (hw.realMemoryMb() < configured.realMemoryMb()) {
                return Optional.of(String.format(
                        Locale.ROOT,
                        "Low RealMemory (reported:%d < 100.00%% of configured:%d)",
                        hw.realMemoryMb(),
                        configured.realMemoryMb()));
            }
            // A daemon that cannot measure its TmpFS reports 0: no evidence, no verdict.
            if (hw.tmpDiskMb() > 0 && hw.tmpDiskMb() < configured.tmpDiskMb()) {
                return Optional.of("Low TmpDisk");
            }
        }
        for (Map.Entry<String, Long> e : found.gres().entrySet()) {
            long want = configuredGres.total(e.getKey());
            if (e.getValue() < want) {
                return Optional.of("gres/" + e.getKey() + " count reported lower than configured (" + e.getValue()
                        + " < " + want + ")");
            }
        }
        return Optional.empty();
    }
}
