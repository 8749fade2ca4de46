package dev.sluice.common.conf;

import static java.util.Objects.requireNonNull;

/**
 * One {@code Key=Value} pair as written, with its location. {@code op} is Slurm's optional operator
 * before the {@code =} ({@code +}, {@code -}, {@code *}, {@code /}), or empty.
 */
public record ConfEntry(String key, String op, String value, String file, int line) {
    public ConfEntry {
        requireNonNull(key, "key is null");
        requireNonNull(op, "op is null");
        requireNonNull(value, "value is null");
        requireNonNull(file, "file is null");
    }

    ConfigException error(String detail) {
        return new ConfigException(file, line, key, detail);
    }
}
