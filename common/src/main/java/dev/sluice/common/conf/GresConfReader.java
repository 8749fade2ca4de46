package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.hostlist.HostList;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads {@code gres.conf} (gres.conf(5)). A line starts with {@code NodeName=} or {@code Name=}; a
 * line holding only {@code AutoDetect=} sets the global mode. Checks, with Slurm 22.05's wording
 * where it has one: known keys only; {@code Count} a number with an optional K/M/G/T/P suffix;
 * {@code File} and {@code MultipleFiles} exclusive; {@code MultipleFiles} naming several files;
 * {@code Count} equal to the number of files except for shared GRES ({@code mps}, {@code shard}),
 * where it is the number of shares; {@code Cores} a list of indices or ranges.
 */
public final class GresConfReader {

    private static final Set<String> KEYS =
            ci("AutoDetect Count Cores CPUs File Files Flags Link Links MultipleFiles" + " Name NodeName Type");
    private static final Set<String> AUTODETECT = Set.of("off", "nvml", "rsmi", "oneapi", "nrt", "nvidia", "full");
    private static final Set<String> FLAGS = ci("CountOnly explicit env_uuid nvidia_gpu_env amd_gpu_env intel_gpu_env"
            + " opencl_env no_gpu_env one_sharing all_sharing no_consume");
    private static final Set<String> SHARED = Set.of("mps", "shard");

    private GresConfReader() {}

    public static GresConf read(Path path) throws ConfigException {
        requireNonNull(path, "path is null");
        return parse(SlurmConfReader.readText(path), path.toString());
    }

    public static GresConf parse(String text, String fileName) throws ConfigException {
        requireNonNull(text, "text is null");
        requireNonNull(fileName, "fileName is null");
        List<GresConfLine> lines = new ArrayList<>();
        Optional<String> global = Optional.empty();
        Map<String, String> perNode = new HashMap<>();
        List<String> warnings = new ArrayList<>();
        for (LogicalLine ll : ConfLexer.logicalLines(text, fileName)) {
            Map<String, ConfEntry> kv = new LinkedHashMap<>();
            for (ConfEntry e : ConfLexer.pairs(ll)) {
                String canon = canonical(e);
                kv.put(canon, new ConfEntry(canon, e.op(), e.value(), e.file(), e.line()));
            }
            String firstKey = kv.keySet().iterator().next();
            if (!firstKey.equals("Name")
                    && !firstKey.equals("NodeName")
                    && !(firstKey.equals("AutoDetect") && kv.size() == 1)) {
                ConfEntry first = kv.get(firstKey);
                throw first.error("a gres.conf line starts with NodeName= or Name= (or is a lone AutoDetect=), not "
                        + firstKey + "=");
            }
            ConfEntry auto = kv.get("AutoDetect");
            if (auto != null) {
                String mode = auto.value().toLowerCase(Locale.ROOT);
                if (!AUTODETECT.contains(mode)) {
                    throw auto.error("Invalid AutoDetect \"" + auto.value() + "\" (expected one of "
                            + new TreeSet<>(AUTODETECT) + ")");
                }
                if (kv.size() == 1) {
                    global = Optional.of(mode);
                    continue;
                }
                if (!kv.containsKey("NodeName")) {
                    warnings.add(at(auto) + "In-line AutoDetect requires NodeName to take effect");
                }
            }
            List<String> nodes = kv.containsKey("NodeName") ? hosts(kv.get("NodeName")) : List.of();
            if (auto != null && !nodes.isEmpty()) {
                for (String n : nodes) {
                    String prev = perNode.put(n, auto.value().toLowerCase(Locale.ROOT));
                    if (prev != null && !prev.equals(auto.value().toLowerCase(Locale.ROOT))) {
                        throw auto.error(
                                "gres.conf: duplicate node-local AutoDetect specification does not match the first");
                    }
                }
            }
            if (!kv.containsKey("Name")) {
                if (auto == null) {
                    throw new ConfigException(
                            ll.file(), ll.line(), "Name", "Invalid GRES data, no type name (" + ll.text() + ")");
                }
                continue;
            }
            lines.add(line(kv, nodes, auto, ll, warnings));
        }
        return new GresConf(lines, global, perNode, warnings);
    }

    private static GresConfLine line(
            Map<String, ConfEntry> kv, List<String> nodes, ConfEntry auto, LogicalLine ll, List<String> warnings)
            throws ConfigException {
        String name = kv.get("Name").value();
        ConfEntry fileEntry = kv.containsKey("File") ? kv.get("File") : kv.get("Files");
        ConfEntry multi = kv.get("MultipleFiles");
        if (fileEntry != null && multi != null) {
            throw multi.error("File and MultipleFiles options are mutually exclusive");
        }
        List<String> files = fileEntry == null ? List.of() : hosts(fileEntry);
        List<String> multiple = multi == null ? List.of() : hosts(multi);
        if (multi != null && multiple.size() < 2) {
            throw multi.error("MultipleFiles does not contain multiple files. Use File instead");
        }
        long count = files.isEmpty() ? 1 : files.size();
        if (!multiple.isEmpty()) {
            count = 1;
        }
        ConfEntry countEntry = kv.get("Count");
        if (countEntry != null) {
            long given = count(countEntry, name);
            if (!files.isEmpty() && given != files.size() && !SHARED.contains(name.toLowerCase(Locale.ROOT))) {
                throw countEntry.error("Invalid GRES record for " + name + ", count does not match File value ("
                        + files.size() + " files, Count=" + countEntry.value() + ")");
            }
            count = given;
        }
        ConfEntry coresEntry = kv.containsKey("Cores") ? kv.get("Cores") : kv.get("CPUs");
        List<Integer> cores = coresEntry == null ? List.of() : cores(coresEntry, name);
        List<String> flags =
                kv.containsKey("Flags") ? Values.list(kv.get("Flags").value()) : List.of();
        for (String f : flags) {
            if (!FLAGS.contains(f)) {
                warnings.add(at(kv.get("Flags")) + "unknown GRES flag \"" + f + "\" ignored");
            }
        }
        ConfEntry links = kv.containsKey("Links") ? kv.get("Links") : kv.get("Link");
        return GresConfLine.builder(name)
                .nodeNames(nodes)
                .type(Optional.ofNullable(kv.get("Type")).map(ConfEntry::value))
                .count(count)
                .devices(new GresConfLine.Devices(files, multiple))
                .affinity(new GresConfLine.Affinity(cores, links == null ? "" : links.value()))
                .options(new GresConfLine.Options(
                        flags, Optional.ofNullable(auto).map(x -> x.value().toLowerCase(Locale.ROOT))))
                .source(new ConfSource(ll.file(), ll.line()))
                .build();
    }

    private static long count(ConfEntry e, String name) throws ConfigException {
        String v = e.value().strip();
        int i = 0;
        while (i < v.length() && Character.isDigit(v.charAt(i))) {
            i++;
        }
        String suffix = v.substring(i).toUpperCase(Locale.ROOT);
        int power = suffix.isEmpty() ? 0 : "KMGTP".indexOf(suffix.charAt(0)) + 1;
        if (i == 0 || i > 15 || suffix.length() > 1 || power < 0 || (!suffix.isEmpty() && power == 0)) {
            throw e.error("Invalid GRES record for " + name + ", invalid count " + e.value());
        }
        long n = Long.parseLong(v.substring(0, i));
        try {
            for (int p = 0; p < power; p++) {
                n = Math.multiplyExact(n, 1024L);
            }
        } catch (ArithmeticException ex) {
            throw e.error("GRES " + name + " has invalid count value " + e.value());
        }
        return n;
    }

    static List<Integer> cores(ConfEntry e, String name) throws ConfigException {
        String v = e.value().strip();
        if (v.startsWith("[") && v.endsWith("]")) {
            v = v.substring(1, v.length() - 1);
        }
        List<Integer> out = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            String[] r = part.strip().split("-", -1);
            if (r.length > 2 || !isIndex(r[0]) || (r.length == 2 && !isIndex(r[1]))) {
                throw e.error("Invalid GRES data for " + name + ", " + e.key() + "=" + e.value());
            }
            int lo = Integer.parseInt(r[0]);
            int hi = r.length == 2 ? Integer.parseInt(r[1]) : lo;
            if (hi < lo || hi - lo > 65536) {
                throw e.error("Invalid GRES data for " + name + ", " + e.key() + "=" + e.value());
            }
            for (int c = lo; c <= hi; c++) {
                out.add(c);
            }
        }
        return out;
    }

    private static boolean isIndex(String s) {
        return !s.isEmpty() && s.length() <= 6 && s.chars().allMatch(Character::isDigit);
    }

    private static List<String> hosts(ConfEntry e) throws ConfigException {
        try {
            List<String> h = HostList.expand(e.value());
            if (h.isEmpty()) {
                throw e.error(e.key() + " names nothing");
            }
            return h;
        } catch (IllegalArgumentException ex) {
            throw e.error("can't parse " + e.key() + "=" + e.value() + ": " + ex.getMessage());
        }
    }

    private static String canonical(ConfEntry e) throws ConfigException {
        for (String k : KEYS) {
            if (k.equalsIgnoreCase(e.key())) {
                return k;
            }
        }
        String hint = SlurmConfKeys.suggest(e.key(), KEYS)
                .map(s -> " (did you mean \"" + s + "\"?)")
                .orElse("");
        throw e.error("unknown key \"" + e.key() + "\"" + hint);
    }

    private static String at(ConfEntry e) {
        return e.file() + ":" + e.line() + ": ";
    }

    static Set<String> ci(String names) {
        Set<String> s = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        s.addAll(List.of(names.split(" ")));
        return s;
    }
}
