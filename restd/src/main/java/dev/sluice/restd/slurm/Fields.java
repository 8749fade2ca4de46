package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** Reading one field of a request body, with the refusal the daemon answers a wrong type with. */
final class Fields {
    private Fields() {}

    static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) {
            return "";
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException(field + " must be a string");
        }
        return v.asText();
    }

    /** {@code csv_string}: an array of names, or (as older clients send) one comma list. */
    static String csv(JsonNode o, String field) {
        JsonNode v = o.get(field);
        if (v != null && v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(i -> items.add(i.asText()));
            return String.join(",", items);
        }
        return text(o, field);
    }

    static OptionalLong intField(JsonNode o, String field) {
        OptionalLong n = Numbers.read(o.get(field), field);
        if (n.isPresent() && (n.getAsLong() < 0 && !field.equals("nice"))) {
            throw new IllegalArgumentException(field + " must not be negative");
        }
        return n;
    }
}
