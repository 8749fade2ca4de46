package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code slurm.conf} into a {@link SlurmConf}.
 *
 * <p>Two passes: the first walks the lines (following {@code Include}), checks every key against
 * {@link SlurmConfKeys} and every value against its type, and groups the lines; the second ({@link
 * NodeLines}, {@link PartitionLines}, {@link SlurmConf}) applies defaults and cross-checks. The
 * first problem found stops the read. Stateless; each call builds its own state.
 */
public final class SlurmConfReader {

    private static final Pattern INCLUDE = Pattern.compile("(?i)include\\s+(.+)");
    private static final int MAX_INCLUDE_DEPTH = 16;

    private SlurmConfReader() {}

    /**
     * Reads a file; {@code Include} names are resolved relative to its directory. Messages name the
     * file as {@code path} was given.
     */
    public static SlurmConf read(Path path) throws ConfigException {
        requireNonNull(path, "path is null");
        Path dir = path.toAbsolutePath().getParent();
        return read(path, IncludeResolver.filesystem(dir));
    }

    /** Reads a file with {@code includes} answering its {@code Include} lines. */
    public static SlurmConf read(Path path, IncludeResolver includes) throws ConfigException {
        requireNonNull(path, "path is null");
        return parse(readText(path), path.toString(), includes);
    }

    static String readText(Path path) throws ConfigException {
        try {
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(path.toString(), 0, null, "No such file or directory");
        } catch (MalformedInputException e) {
            try {
                return Files.readString(path, StandardCharsets.ISO_8859_1);
            } catch (IOException e2) {
                throw new ConfigException(path.toString(), 0, null, "cannot read: " + e2.getMessage());
            }
        } catch (java.nio.file.AccessDeniedException e) {
            // Never the file's text: a caller who may not read it learns only that.
            throw new ConfigException(path.toString(), 0, null, "cannot read: Permission denied");
        } catch (IOException e) {
            throw new ConfigException(path.toString(), 0, null, "cannot read: " + e.getMessage());
        }
    }

    /** Parses text; {@code fileName} is used in messages, {@code includes} answers {@code Include} lines. */
    public static SlurmConf parse(String text, String fileName, IncludeResolver includes) throws ConfigException {
        requireNonNull(text, "text is null");
        requireNonNull(fileName, "fileName is null");
        requireNonNull(includes, "includes is null");
        Collected c = new Collected(fileName);
        collect(text, fileName, includes, c, 0);
        return SlurmConfAssembly.build(c);
    }

    /** What the first pass gathered, in file order. */
    static final class Collected {
        final String mainFile;
        final Map<String, ConfEntry> simple = new LinkedHashMap<>();
        final Map<String, List<ConfEntry>> repeated = new LinkedHashMap<>();
        final List<ConfEntry> controlHosts = new ArrayList<>();
        final Map<String, List<List<ConfEntry>>> lines = new LinkedHashMap<>();
        final List<IgnoredKey> ignored = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();

        Collected(String mainFile) {
            this.mainFile = mainFile;
        }

        List<List<ConfEntry>> linesOf(String lineKey) {
            return lines.getOrDefault(lineKey, List.of());
        }

        Optional<ConfEntry> entry(String key) {
            return Optional.ofNullable(simple.get(key));
        }
    }

    private static void collect(String text, String file, IncludeResolver includes, Collected c, int depth)
            throws ConfigException {
        for (LogicalLine line : ConfLexer.logicalLines(text, file)) {
            Matcher inc = INCLUDE.matcher(line.text());
            if (inc.matches() && !line.text().contains("=")) {
                if (depth >= MAX_INCLUDE_DEPTH) {
                    throw new ConfigException(file, line.line(), "Include", "Include nested too deeply");
                }
                String name = inc.group(1).strip();
                String cluster = c.entry("ClusterName").map(ConfEntry::value).orElse("");
                name = name.replace("%c", cluster);
                for (IncludeResolver.Source src : includes.resolve(name, line)) {
                    collect(src.text(), src.name(), includes, c, depth + 1);
                }
                continue;
            }
            List<ConfEntry> pairs = ConfLexer.pairs(line);
            ConfEntry first = pairs.getFirst();
            Optional<Set<String>> sub = SlurmConfKeys.subKeys(first.key());
            if (sub.isPresent()) {
                lineKey(c, first, pairs);
            } else {
                simpleKey(c, first);
                if (pairs.size() > 1) {
                    // Slurm reads one key per line except on NodeName, PartitionName, ... lines.
                    ConfEntry extra = pairs.get(1);
                    throw extra.error("Parse error: \"" + extra.key() + "=" + extra.value()
                            + "\" (only one Key=Value per line, except on NodeName, PartitionName, NodeSet,"
                            + " DownNodes and SlurmctldHost lines)");
                }
            }
        }
    }

    private static void lineKey(Collected c, ConfEntry first, List<ConfEntry> pairs) throws ConfigException {
        String lineKey = SlurmConfKeys.lookup(first.key()).orElseThrow().name();
        List<ConfEntry> canon = new ArrayList<>();
        canon.add(rename(first, lineKey));
        Set<String> allowed = SlurmConfKeys.subKeys(lineKey).orElseThrow();
        for (ConfEntry e : pairs.subList(1, pairs.size())) {
            if (!allowed.contains(e.key())) {
                String hint = SlurmConfKeys.suggest(e.key(), allowed)
                        .map(s -> " (did you mean \"" + s + "\"?)")
                        .orElse("");
                throw e.error("unknown key \"" + e.key() + "\" in a " + lineKey + " line" + hint);
            }
            ConfEntry r = rename(e, SlurmConfKeys.canonicalSubKey(lineKey, e.key()));
            Values.check(r, SubKeyTypes.type(lineKey, r.key()));
            canon.add(r);
        }
        if (lineKey.equals("SlurmctldHost")) {
            c.controlHosts.add(canon.getFirst());
            return;
        }
        c.lines.computeIfAbsent(lineKey, k -> new ArrayList<>()).add(List.copyOf(canon));
        if (lineKey.equals("FrontendName") || lineKey.equals("PowerAction")) {
            c.ignored.add(new IgnoredKey(lineKey, first.value(), first.file(), first.line(), "line ignored"));
        }
    }

    private static void simpleKey(Collected c, ConfEntry e) throws ConfigException {
        Optional<String> removal = SlurmConfKeys.removal(e.key());
        if (removal.isPresent()) {
            throw e.error(removal.get());
        }
        if (e.key().equalsIgnoreCase("FastSchedule")) {
            fastSchedule(c, e);
            return;
        }
        Optional<SlurmConfKeys.Key> known = SlurmConfKeys.lookup(e.key());
        if (known.isEmpty()) {
            String hint = SlurmConfKeys.suggest(e.key(), SlurmConfKeys.allKeys())
                    .map(s -> " (did you mean \"" + s + "\"?)")
                    .orElse("");
            throw e.error("unknown key \"" + e.key() + "\"" + hint);
        }
        SlurmConfKeys.Key k = known.get();
        if (SlurmConfKeys.subKeys(k.name()).isPresent()) {
            throw e.error(k.name() + " must start its own line");
        }
        ConfEntry r = rename(e, k.name());
        Values.check(r, k.type());
        if (k.name().equals("SlurmctldPort")) {
            ControlHosts.checkPortRange(r);
        }
        if (k.type() == SlurmConfKeys.Type.ARRAY) {
            c.repeated.computeIfAbsent(k.name(), x -> new ArrayList<>()).add(r);
        }
        c.simple.put(k.name(), r);
        if (!k.used()) {
            c.ignored.add(new IgnoredKey(
                    k.name(), r.value(), r.file(), r.line(), k.defunct() ? "defunct in current Slurm" : ""));
        }
    }

    private static void fastSchedule(Collected c, ConfEntry e) throws ConfigException {
        // Slurm 22.05: FastSchedule=1 is only logged; any other value stops slurmctld.
        long v = Values.unsigned(e, 0xFFFF);
        if (v == 1) {
            c.ignored.add(new IgnoredKey(
                    "FastSchedule", e.value(), e.file(), e.line(), "obsolete; Slurm ignores FastSchedule=1"));
            return;
        }
        if (v == 2) {
            throw e.error("The FastSchedule option has been removed. The FastSchedule=2 functionality is available"
                    + " through the SlurmdParameters=config_overrides option.");
        }
        throw e.error("The FastSchedule option has been removed. Please update your configuration.");
    }

    private static ConfEntry rename(ConfEntry e, String canonical) {
        return new ConfEntry(canonical, e.op(), e.value(), e.file(), e.line());
    }

    static String upper(String s) {
        return s.toUpperCase(Locale.ROOT);
    }
}
