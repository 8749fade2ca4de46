package dev.sluice.cli.json;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * A streaming writer in json-c's {@code JSON_C_TO_STRING_PRETTY} layout, the one Slurm 22.05's
 * commands print: two spaces per level, {@code "key": value}, an empty array as {@code [}, a
 * newline and {@code ]} at the parent's indentation, {@code /} escaped as {@code \/}, integral
 * doubles with {@code .0}. Not thread-safe; misuse (a value where a name is due) throws.
 */
public final class JsonWriter {
    private final StringBuilder out = new StringBuilder();
    // Per open container: how many members so far; an object also expects names.
    private final Deque<int[]> counts = new ArrayDeque<>();
    private final Deque<Boolean> isObject = new ArrayDeque<>();
    private boolean nameWritten;

    public JsonWriter beginObject() {
        beforeValue();
        out.append('{');
        counts.push(new int[1]);
        isObject.push(true);
        return this;
    }

    public JsonWriter endObject() {
        return end('}', true);
    }

    public JsonWriter beginArray() {
        beforeValue();
        out.append('[');
        counts.push(new int[1]);
        isObject.push(false);
        return this;
    }

    public JsonWriter endArray() {
        return end(']', false);
    }

    public JsonWriter name(String name) {
        if (isObject.isEmpty() || !isObject.peek() || nameWritten) {
            throw new IllegalStateException("a name is not expected here: " + name);
        }
        newMember();
        string(name);
        out.append(": ");
        nameWritten = true;
        return this;
    }

    public JsonWriter value(String s) {
        beforeValue();
        string(s);
        return this;
    }

    public JsonWriter value(long n) {
        beforeValue();
        out.append(n);
        return this;
    }

    public JsonWriter value(boolean b) {
        beforeValue();
        out.append(b);
        return this;
    }

    /** json-c prints doubles with {@code %.17g}, adding {@code .0} to integral ones. */
    public JsonWriter value(double d) {
        beforeValue();
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            out.append((long) d).append(".0");
        } else {
            out.append(d);
        }
        return this;
    }

    public JsonWriter nullValue() {
        beforeValue();
        out.append("null");
        return this;
    }

    /** Shorthands for one member of an object. */
    public JsonWriter field(String name, String s) {
        return name(name).value(s);
    }

    public JsonWriter field(String name, long n) {
        return name(name).value(n);
    }

    public JsonWriter field(String name, boolean b) {
        return name(name).value(b);
    }

    public JsonWriter nullField(String name) {
        return name(name).nullValue();
    }

    public JsonWriter field(String name, List<String> strings) {
        name(name).beginArray();
        strings.forEach(this::value);
        return endArray();
    }

    /** The document; json-c adds no newline after the last brace, and neither does this. */
    @Override
    public String toString() {
        if (!counts.isEmpty()) {
            throw new IllegalStateException("unclosed container");
        }
        return out.toString();
    }

    private void beforeValue() {
        if (isObject.isEmpty()) {
            if (!out.isEmpty()) {
                throw new IllegalStateException("one document per writer");
            }
            return;
        }
        if (isObject.peek()) {
            if (!nameWritten) {
                throw new IllegalStateException("a value needs a name inside an object");
            }
            nameWritten = false;
        } else {
            newMember();
        }
    }

    private void newMember() {
        int[] count = counts.peek();
        out.append(count[0]++ > 0 ? ",\n" : "\n");
        indent(counts.size());
    }

    private JsonWriter end(char close, boolean object) {
        if (isObject.isEmpty() || isObject.peek() != object || nameWritten) {
            throw new IllegalStateException("nothing to close with " + close);
        }
        counts.pop();
        isObject.pop();
        out.append('\n');
        indent(counts.size());
        out.append(close);
        return this;
    }

    private void indent(int level) {
        out.append("  ".repeat(level));
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '/' -> out.append("\\/");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
