package dev.sluice.noded.probe.gres;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * NVML through JNA. Only the calls slurmd's gpu/nvml plugin relies on for discovery, bound by
 * their documented C signatures (nvml.h of the CUDA toolkit). The library is loaded on first use,
 * so a machine without the NVIDIA driver never touches it beyond one failed load.
 */
public final class JnaNvml implements Nvml {
    private static final int SUCCESS = 0;
    private static final int ERROR_NOT_FOUND = 6;
    private static final int MAX_NVLINKS = 18;
    // nvmlPciInfo_t: busIdLegacy[16], 5 unsigned ints, then busId[32].
    private static final int PCI_INFO_SIZE = 68;
    private static final int PCI_BUS_ID_OFFSET = 36;
    private static final int CPU_SET_LONGS = 16;

    /** The C entry points, by name. */
    public interface Lib extends Library {
        int nvmlInit_v2();

        int nvmlShutdown();

        String nvmlErrorString(int result);

        int nvmlDeviceGetCount_v2(IntByReference count);

        int nvmlDeviceGetHandleByIndex_v2(int index, PointerByReference device);

        int nvmlDeviceGetName(Pointer device, byte[] name, int length);

        int nvmlDeviceGetUUID(Pointer device, byte[] uuid, int length);

        int nvmlDeviceGetMinorNumber(Pointer device, IntByReference minor);

        int nvmlDeviceGetPciInfo_v3(Pointer device, Pointer pci);

        int nvmlDeviceGetCpuAffinity(Pointer device, int cpuSetSize, long[] cpuSet);

        int nvmlDeviceGetNvLinkState(Pointer device, int link, IntByReference isActive);

        int nvmlDeviceGetNvLinkRemotePciInfo_v2(Pointer device, int link, Pointer pci);

        int nvmlDeviceGetMigMode(Pointer device, IntByReference current, IntByReference pending);

        int nvmlDeviceGetMaxMigDeviceCount(Pointer device, IntByReference count);

        int nvmlDeviceGetMigDeviceHandleByIndex(Pointer device, int index, PointerByReference mig);
    }

    @Override
    public List<NvmlDevice> devices() throws NvmlUnavailableException {
        Lib lib = load();
        check(lib, lib.nvmlInit_v2(), "nvmlInit");
        try {
            IntByReference count = new IntByReference();
            check(lib, lib.nvmlDeviceGetCount_v2(count), "nvmlDeviceGetCount");
            List<NvmlDevice> out = new ArrayList<>();
            for (int i = 0; i < count.getValue(); i++) {
                PointerByReference handle = new PointerByReference();
                check(lib, lib.nvmlDeviceGetHandleByIndex_v2(i, handle), "nvmlDeviceGetHandleByIndex");
                out.add(device(lib, i, handle.getValue()));
            }
            return out;
        } finally {
            lib.nvmlShutdown();
        }
    }

    private static Lib load() throws NvmlUnavailableException {
        UnsatisfiedLinkError last = null;
        // Drivers install libnvidia-ml.so.1; the unversioned name exists only with dev packages.
        for (String name : new String[] {"nvidia-ml", "libnvidia-ml.so.1"}) {
            try {
                return Native.load(name, Lib.class);
            } catch (UnsatisfiedLinkError e) {
                last = e;
            }
        }
        throw new NvmlUnavailableException(
                "NVML library not found (libnvidia-ml.so.1): " + loaderReason(last.getMessage()));
    }

    /**
     * What the dynamic loader said, once. JNA's message repeats it per attempt and ends with every
     * place it looked, the whole class path included: a log line an admin cannot read.
     */
    static String loaderReason(String message) {
        if (message == null) {
            return "";
        }
        List<String> said = message.lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("Unable to load library") && !l.startsWith("Native library"))
                .distinct()
                .toList();
        return said.isEmpty() ? message.lines().findFirst().orElse("").strip() : String.join("; ", said);
    }

    private static void check(Lib lib, int result, String call) throws NvmlUnavailableException {
        if (result != SUCCESS) {
            throw new NvmlUnavailableException(call + " failed: " + lib.nvmlErrorString(result));
        }
    }

    private static NvmlDevice device(Lib lib, int index, Pointer dev) throws NvmlUnavailableException {
        byte[] buf = new byte[96];
        check(lib, lib.nvmlDeviceGetName(dev, buf, buf.length), "nvmlDeviceGetName");
        String name = cString(buf);
        buf = new byte[96];
        check(lib, lib.nvmlDeviceGetUUID(dev, buf, buf.length), "nvmlDeviceGetUUID");
        String uuid = cString(buf);
        IntByReference minor = new IntByReference();
        check(lib, lib.nvmlDeviceGetMinorNumber(dev, minor), "nvmlDeviceGetMinorNumber");
        Memory pci = new Memory(128);
        pci.clear();
        check(lib, lib.nvmlDeviceGetPciInfo_v3(dev, pci), "nvmlDeviceGetPciInfo");
        String busId = pci.getString(PCI_BUS_ID_OFFSET, StandardCharsets.US_ASCII.name());
        List<Integer> cpus = new ArrayList<>();
        long[] set = new long[CPU_SET_LONGS];
        if (lib.nvmlDeviceGetCpuAffinity(dev, set.length, set) == SUCCESS) {
            cpus.addAll(NvmlRecording.cpusOfMask(set));
        }
        List<String> peers = new ArrayList<>();
        for (int link = 0; link < MAX_NVLINKS; link++) {
            IntByReference active = new IntByReference();
            // Devices without NVLink answer NOT_SUPPORTED for link 0: no links.
            if (lib.nvmlDeviceGetNvLinkState(dev, link, active) != SUCCESS) {
                break;
            }
            Memory remote = new Memory(128);
            remote.clear();
            if (active.getValue() == 1 && lib.nvmlDeviceGetNvLinkRemotePciInfo_v2(dev, link, remote) == SUCCESS) {
                peers.add(remote.getString(PCI_BUS_ID_OFFSET, StandardCharsets.US_ASCII.name()));
            }
        }
        return new NvmlDevice(index, name, uuid, busId, minor.getValue(), cpus, peers, migs(lib, dev));
    }

    private static List<NvmlDevice.Mig> migs(Lib lib, Pointer dev) throws NvmlUnavailableException {
        IntByReference current = new IntByReference();
        IntByReference pending = new IntByReference();
        if (lib.nvmlDeviceGetMigMode(dev, current, pending) != SUCCESS || current.getValue() != 1) {
            return List.of();
        }
        IntByReference max = new IntByReference();
        check(lib, lib.nvmlDeviceGetMaxMigDeviceCount(dev, max), "nvmlDeviceGetMaxMigDeviceCount");
        List<NvmlDevice.Mig> out = new ArrayList<>();
        for (int i = 0; i < max.getValue(); i++) {
            PointerByReference mig = new PointerByReference();
            int r = lib.nvmlDeviceGetMigDeviceHandleByIndex(dev, i, mig);
            if (r == ERROR_NOT_FOUND) {
                continue;
            }
            check(lib, r, "nvmlDeviceGetMigDeviceHandleByIndex");
            byte[] buf = new byte[96];
            check(lib, lib.nvmlDeviceGetName(mig.getValue(), buf, buf.length), "nvmlDeviceGetName");
            String name = cString(buf);
            buf = new byte[96];
            check(lib, lib.nvmlDeviceGetUUID(mig.getValue(), buf, buf.length), "nvmlDeviceGetUUID");
            out.add(new NvmlDevice.Mig(i, name, cString(buf)));
        }
        return out;
    }

    private static String cString(byte[] buf) {
        int n = 0;
        while (n < buf.length && buf[n] != 0) {
            n++;
        }
        return new String(buf, 0, n, StandardCharsets.US_ASCII);
    }
}
