package dev.sluice.cli.json;

/**
 * The {@code meta} and {@code errors} members every 22.05 {@code --json} document starts with.
 * Sluice prints the output of data_parser v0.0.38, so it names that plugin and the Slurm release
 * whose output it follows; tools that check the version see what they would on 22.05.
 */
public final class SlurmEnvelope {
    private SlurmEnvelope() {}

    /** Opens the document and writes {@code meta} and an empty {@code errors}. */
    public static JsonWriter open() {
        return open("openapi/v0.0.38", "Slurm OpenAPI v0.0.38");
    }

    /**
     * The same for the accounting commands ({@code sacct --json}), which 22.05 dumps with the
     * slurmdbd plugin: {@code openapi/dbv0.0.38}, "Slurm OpenAPI DB v0.0.38".
     */
    public static JsonWriter openDb() {
        return open("openapi/dbv0.0.38", "Slurm OpenAPI DB v0.0.38");
    }

    private static JsonWriter open(String type, String name) {
        JsonWriter w = new JsonWriter().beginObject();
        w.name("meta").beginObject();
        w.name("plugin").beginObject();
        w.field("type", type);
        w.field("name", name);
        w.endObject();
        w.name("Slurm").beginObject();
        w.name("version").beginObject();
        w.field("major", 22).field("micro", 8).field("minor", 5);
        w.endObject();
        w.field("release", "22.05.8");
        w.endObject();
        w.endObject();
        w.name("errors").beginArray().endArray();
        return w;
    }
}
