package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.OptionalLong;

/**
 * Slurm's {@code *_no_val_struct}: a number with flags, {@code {set, infinite, number}}, which
 * data_parser uses wherever the C field can hold NO_VAL or INFINITE.
 */
public final class Numbers {
    /** Slurm's INFINITE for 32-bit fields (minutes of a time limit, node counts). */
    static final long INFINITE32 = dev.sluice.common.slurm.SlurmLimits.INFINITE;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Numbers() {}

    public static ObjectNode set(long n) {
        return F.objectNode().put("set", true).put("infinite", false).put("number", n);
    }

    public static ObjectNode unset() {
        return F.objectNode().put("set", false).put("infinite", false).put("number", 0);
    }

    public static ObjectNode infinite() {
        return F.objectNode().put("set", false).put("infinite", true).put("number", 0);
    }

    /** Zero is "not given" in the controller's messages. */
    public static ObjectNode setIfPositive(long n) {
        return n > 0 ? set(n) : unset();
    }

    /**
     * A uint32 field (Java int, so INFINITE arrives as -1) where Slurm's INFINITE means
     * unlimited and zero means not set.
     */
    public static ObjectNode limit32(int value) {
        long n = Integer.toUnsignedLong(value);
        if (n == INFINITE32) {
            return infinite();
        }
        return setIfPositive(n);
    }

    /**
     * Reads a request's number: a plain integer, or the struct. Empty for an absent, unset or
     * null value; {@link #INFINITE32} for {@code infinite: true}.
     *
     * @throws IllegalArgumentException when it is neither
     */
    public static OptionalLong read(JsonNode node, String field) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return OptionalLong.empty();
        }
        if (node.isIntegralNumber()) {
            return OptionalLong.of(node.asLong());
        }
        if (node.isObject()) {
            if (node.path("infinite").asBoolean(false)) {
                return OptionalLong.of(INFINITE32);
            }
            JsonNode set = node.get("set");
            JsonNode number = node.get("number");
            if (number != null && !number.isIntegralNumber()) {
                throw new IllegalArgumentException(field + ".number is not an integer");
            }
            if ((set == null || set.asBoolean(false)) && number != null) {
                return OptionalLong.of(number.asLong());
            }
            return OptionalLong.empty();
        }
        throw new IllegalArgumentException(field + " is neither an integer nor a {set, infinite, number} object");
    }
}
