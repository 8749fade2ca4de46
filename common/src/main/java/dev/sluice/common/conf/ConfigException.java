package dev.sluice.common.conf;

import java.util.Optional;

/**
 * A configuration file was rejected. The message always starts with the location, compiler-style:
 * {@code slurm.conf:12: unknown key "NodeNmae" (did you mean "NodeName"?)}. The file is named as
 * it was given to the reader (for an included file, as the {@code Include} line resolved it), so
 * the message points at the file the operator has to edit.
 */
public final class ConfigException extends Exception {

    private final String file;
    private final int line;
    private final String key;
    private final String detail;

    /**
     * @param file the file name as given; never null
     * @param line 1-based line number, or 0 when the problem concerns the file as a whole
     * @param key the key at fault, or null
     * @param detail what is wrong and, where possible, how to fix it
     */
    public ConfigException(String file, int line, String key, String detail) {
        super(location(file, line) + detail);
        this.file = file;
        this.line = line;
        this.key = key;
        this.detail = detail;
    }

    private static String location(String file, int line) {
        return line > 0 ? file + ":" + line + ": " : file + ": ";
    }

    public String file() {
        return file;
    }

    /** The 1-based line, or 0 for whole-file problems (such as a missing {@code ClusterName}). */
    public int line() {
        return line;
    }

    public Optional<String> key() {
        return Optional.ofNullable(key);
    }

    /** The message without the location prefix. */
    public String detail() {
        return detail;
    }
}
