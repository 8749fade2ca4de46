package dev.sluice.noded.probe.gres;

import dev.sluice.common.hostlist.IndexRanges;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A text form of what NVML said, one device or MIG instance per line of tab-separated
 * {@code key=value} fields. {@code sluice-noded --nvml-dump} writes it from the real library;
 * {@link #replay} reads it back as an {@link Nvml}, so discovery is tested on recorded machines.
 *
 * <pre>
 * gpu	index=0	name=NVIDIA A100-SXM4-40GB	uuid=GPU-…	pci=00000000:07:00.0	minor=0	cpus=0-15	nvlinks=00000000:0F:00.0
 * mig	gpu=0	index=0	name=NVIDIA A100-SXM4-40GB MIG 3g.20gb	uuid=MIG-…
 * </pre>
 */
public final class NvmlRecording {
    private NvmlRecording() {}

    public static String format(List<NvmlDevice> devices) {
        StringBuilder s = new StringBuilder();
        for (NvmlDevice d : devices) {
            s.append("gpu\tindex=")
                    .append(d.index())
                    .append("\tname=")
                    .append(d.name())
                    .append("\tuuid=")
                    .append(d.uuid())
                    .append("\tpci=")
                    .append(d.pciBusId())
                    .append("\tminor=")
                    .append(d.minor())
                    .append("\tcpus=")
                    .append(IndexRanges.format(d.cpuAffinity()))
                    .append("\tnvlinks=")
                    .append(String.join(",", d.nvlinkPeers()))
                    .append('\n');
            for (NvmlDevice.Mig m : d.migs()) {
                s.append("mig\tgpu=")
                        .append(d.index())
                        .append("\tindex=")
                        .append(m.index())
                        .append("\tname=")
                        .append(m.name())
                        .append("\tuuid=")
                        .append(m.uuid())
                        .append('\n');
            }
        }
        return s.toString();
    }

    /** @throws IllegalArgumentException naming the line that is not a recording */
    public static List<NvmlDevice> parse(String text) {
        List<NvmlDevice> out = new ArrayList<>();
        int lineNo = 0;
        for (String line : text.split("\n")) {
            lineNo++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\t");
            Map<String, String> kv = new LinkedHashMap<>();
            for (int i = 1; i < fields.length; i++) {
                int eq = fields[i].indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("line " + lineNo + ": not key=value: " + fields[i]);
                }
                kv.put(fields[i].substring(0, eq), fields[i].substring(eq + 1));
            }
            try {
                switch (fields[0]) {
                    case "gpu" ->
                        out.add(new NvmlDevice(
                                Integer.parseInt(req(kv, "index")),
                                req(kv, "name"),
                                req(kv, "uuid"),
                                req(kv, "pci"),
                                Integer.parseInt(req(kv, "minor")),
                                IndexRanges.parse(kv.getOrDefault("cpus", "")),
                                list(kv.getOrDefault("nvlinks", "")),
                                List.of()));
                    case "mig" -> {
                        int gpu = Integer.parseInt(req(kv, "gpu"));
                        NvmlDevice parent = out.stream()
                                .filter(d -> d.index() == gpu)
                                .findFirst()
                                .orElseThrow(() -> new IllegalArgumentException("mig of unknown gpu " + gpu));
                        List<NvmlDevice.Mig> migs = new ArrayList<>(parent.migs());
                        migs.add(new NvmlDevice.Mig(
                                Integer.parseInt(req(kv, "index")), req(kv, "name"), req(kv, "uuid")));
                        out.set(
                                out.indexOf(parent),
                                new NvmlDevice(
                                        parent.index(),
                                        parent.name(),
                                        parent.uuid(),
                                        parent.pciBusId(),
                                        parent.minor(),
                                        parent.cpuAffinity(),
                                        parent.nvlinkPeers(),
                                        migs));
                    }
                    default -> throw new IllegalArgumentException("unknown record " + fields[0]);
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + lineNo + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    /** An {@link Nvml} that answers with recorded devices. */
    public static Nvml replay(String text) {
        List<NvmlDevice> devices = parse(text);
        return () -> devices;
    }

    private static String req(Map<String, String> kv, String key) {
        String v = kv.get(key);
        if (v == null) {
            throw new IllegalArgumentException("missing " + key);
        }
        return v;
    }

    private static List<String> list(String value) {
        return value.isEmpty() ? List.of() : List.of(value.split(","));
    }

    /** NVML's CPU set: bit i of word w is CPU {@code 64 w + i}. */
    static List<Integer> cpusOfMask(long[] words) {
        List<Integer> cpus = new ArrayList<>();
        for (int w = 0; w < words.length; w++) {
            for (int b = 0; b < 64; b++) {
                if ((words[w] >>> b & 1L) != 0) {
                    cpus.add(w * 64 + b);
                }
            }
        }
        return cpus;
    }
}
