package dev.sluice.common.conf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The simple {@code Key=Value} settings of a file, case-insensitive, with typed reads. Values were
 * checked against their key's type when read, so a failing conversion here is a bug, not bad input.
 */
final class ConfValues {

    private final Map<String, ConfEntry> entries;

    ConfValues(Map<String, ConfEntry> entries) {
        Map<String, ConfEntry> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        m.putAll(entries);
        this.entries = Collections.unmodifiableMap(m);
    }

    static long num(ConfEntry e) {
        try {
            return Values.unsigned(e, Long.MAX_VALUE);
        } catch (ConfigException ex) {
            throw new IllegalStateException("value was checked by the first pass", ex);
        }
    }

    Optional<ConfEntry> entry(String key) {
        return Optional.ofNullable(entries.get(key));
    }

    Map<String, String> asMap() {
        Map<String, String> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        entries.forEach((k, e) -> out.put(k, e.value()));
        return Collections.unmodifiableMap(out);
    }

    long longValue(String key, long dflt) {
        ConfEntry e = entries.get(key);
        return e == null ? dflt : num(e);
    }

    int intValue(String key, int dflt) {
        return (int) Math.min(Integer.MAX_VALUE, longValue(key, dflt));
    }

    String string(String key, String dflt) {
        ConfEntry e = entries.get(key);
        return e == null ? dflt : e.value();
    }

    /** A comma-separated value split into trimmed, non-empty items; empty when unset. */
    List<String> commaList(String key) {
        ConfEntry e = entries.get(key);
        if (e == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String s : e.value().split(",")) {
            if (!s.isBlank()) {
                out.add(s.strip());
            }
        }
        return List.copyOf(out);
    }
}
