package dev.sluice.cli.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** json-c's pretty layout as Slurm 22.05's squeue/sinfo --json print it (observed there). */
class TestJsonWriter {
    @Test
    void nestedObjectsArraysAndEmptyContainers() {
        JsonWriter w = new JsonWriter().beginObject();
        w.name("a").beginObject().field("n", 1).field("b", true).nullField("x").endObject();
        w.name("errors").beginArray().endArray();
        w.field("flags", List.of("SHOW_ALL", "SHOW_DETAIL"));
        w.name("d").value(2.0);
        w.name("e").value(0.5);
        assertThat(w.endObject().toString()).isEqualTo("""
                {
                  "a": {
                    "n": 1,
                    "b": true,
                    "x": null
                  },
                  "errors": [
                  ],
                  "flags": [
                    "SHOW_ALL",
                    "SHOW_DETAIL"
                  ],
                  "d": 2.0,
                  "e": 0.5
                }""");
    }

    @Test
    void stringsAreEscapedAsJsonCDoes() {
        // squeue --json printed "\/tmp" for /tmp and "quo\"te" for a job named quo"te.
        String doc = new JsonWriter()
                .beginArray()
                .value("/tmp \"q\" \\ \t\n\u0001é")
                .endArray()
                .toString();
        assertThat(doc).isEqualTo("[\n  \"\\/tmp \\\"q\\\" \\\\ \\t\\n\\u0001é\"\n]");
    }

    @Test
    void misuseIsRefused() {
        assertThatThrownBy(() -> new JsonWriter().beginObject().value("no name"))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new JsonWriter().beginArray().name("x")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new JsonWriter().beginArray().endObject()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new JsonWriter().beginArray().toString()).isInstanceOf(IllegalStateException.class);
    }
}
