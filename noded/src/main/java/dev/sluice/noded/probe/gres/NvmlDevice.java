package dev.sluice.noded.probe.gres;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One GPU (or one MIG instance of a GPU) as NVML describes it.
 *
 * @param index NVML's device index
 * @param name as NVML gives it ({@code NVIDIA A100-SXM4-40GB}, {@code NVIDIA H200})
 * @param minor the minor number: the device file is {@code /dev/nvidia<minor>}
 * @param cpuAffinity the CPU ids close to the device (from NVML's CPU affinity bitmask)
 * @param nvlinkPeers for each active NVLink, the PCI bus id of the device at its other end
 * @param migs MIG instances when MIG mode is on; then they, not the whole GPU, are the GRES
 */
public record NvmlDevice(
        int index,
        String name,
        String uuid,
        String pciBusId,
        int minor,
        List<Integer> cpuAffinity,
        List<String> nvlinkPeers,
        List<Mig> migs) {

    public NvmlDevice {
        requireNonNull(name, "name is null");
        requireNonNull(uuid, "uuid is null");
        requireNonNull(pciBusId, "pciBusId is null");
        cpuAffinity = List.copyOf(cpuAffinity);
        nvlinkPeers = List.copyOf(nvlinkPeers);
        migs = List.copyOf(migs);
    }

    /** A MIG instance: its name carries the profile ({@code NVIDIA A100-SXM4-40GB MIG 1g.5gb}). */
    public record Mig(int index, String name, String uuid) {
        public Mig {
            requireNonNull(name, "name is null");
            requireNonNull(uuid, "uuid is null");
        }
    }

    public String deviceFile() {
        return "/dev/nvidia" + minor;
    }
}
