package dev.sluice.restd.v0038;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.common.slurm.SlurmVersion;

/**
 * The {@code meta} object slurmrestd 22.05 opens every answer of its v0.0.38 and dbv0.0.38
 * plugins with: the plugin, and Slurm's version as numbers and as text.
 */
public final class Meta38 {
    private Meta38() {}

    /** Writes {@code meta} into {@code body} for the plugin {@code type} ({@code openapi/v0.0.38}) called {@code name}. */
    public static void write(ObjectNode body, String type, String name) {
        ObjectNode meta = body.putObject("meta");
        ObjectNode plugin = meta.putObject("plugin");
        plugin.put("type", type);
        plugin.put("name", name);
        ObjectNode slurm = meta.putObject("Slurm");
        String[] v = SlurmVersion.RELEASE.split("\\.");
        ObjectNode version = slurm.putObject("version");
        version.put("major", Integer.parseInt(v[0]));
        version.put("micro", Integer.parseInt(v[2]));
        version.put("minor", Integer.parseInt(v[1]));
        slurm.put("release", SlurmVersion.RELEASE);
    }
}
