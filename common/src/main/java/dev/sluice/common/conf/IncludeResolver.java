package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds the files an {@code Include} line names. slurm.conf(5): a relative name is relative to the
 * directory holding {@code slurm.conf}; {@code %c} (the cluster name) is substituted by the reader
 * before the resolver is asked. A name with {@code *}, {@code ?} or {@code [} in its last component
 * is a glob; matches are read in name order.
 */
public interface IncludeResolver {

    /** One included file: the name used in messages, and its text. */
    record Source(String name, String text) {
        public Source {
            requireNonNull(name, "name is null");
            requireNonNull(text, "text is null");
        }
    }

    /**
     * @param name the name after {@code Include}, {@code %c} already substituted
     * @param at the {@code Include} line, for error locations
     * @throws ConfigException when the file does not exist, cannot be read, or a glob matches nothing
     */
    List<Source> resolve(String name, LogicalLine at) throws ConfigException;

    /** Rejects every {@code Include}: for text that must be self-contained. */
    static IncludeResolver none() {
        return (name, at) -> {
            throw new ConfigException(
                    at.file(), at.line(), "Include", "Include of \"" + name + "\" is not allowed here");
        };
    }

    /** Resolves names from a map, for tests and for configs received over the network. */
    static IncludeResolver of(Map<String, String> files) {
        Map<String, String> copy = Map.copyOf(files);
        return (name, at) -> {
            String text = copy.get(name);
            if (text == null) {
                throw new ConfigException(at.file(), at.line(), "Include", "included file \"" + name + "\" not found");
            }
            return List.of(new Source(name, text));
        };
    }

    /** Resolves names on the file system, relative names against {@code baseDir}. */
    static IncludeResolver filesystem(Path baseDir) {
        requireNonNull(baseDir, "baseDir is null");
        return (name, at) -> {
            Path p = baseDir.resolve(name);
            String last = p.getFileName() == null ? "" : p.getFileName().toString();
            List<Path> files = new ArrayList<>();
            if (last.chars().anyMatch(c -> c == '*' || c == '?' || c == '[')) {
                Path dir = p.getParent() == null ? baseDir : p.getParent();
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, last)) {
                    ds.forEach(files::add);
                } catch (IOException | RuntimeException e) {
                    throw new ConfigException(
                            at.file(), at.line(), "Include", "cannot list \"" + dir + "\": " + e.getMessage());
                }
                if (files.isEmpty()) {
                    throw new ConfigException(at.file(), at.line(), "Include", "no file matches \"" + name + "\"");
                }
                files.sort(null);
            } else {
                files.add(p);
            }
            List<Source> out = new ArrayList<>();
            for (Path f : files) {
                try {
                    out.add(new Source(f.toString(), Files.readString(f, StandardCharsets.UTF_8)));
                } catch (IOException e) {
                    throw new ConfigException(
                            at.file(), at.line(), "Include", "cannot read included file \"" + f + "\": " + describe(e));
                }
            }
            return out;
        };
    }

    private static String describe(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "No such file or directory";
        }
        return e instanceof java.nio.file.AccessDeniedException ? "Permission denied" : String.valueOf(e.getMessage());
    }
}
