package dev.sluice.ctld.config;

import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.GresConfReader;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.common.conf.SlurmConfReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** A controller's configuration from the text of its files, read as the controller reads them. */
public final class ConfigText {
    private ConfigText() {}

    /** {@code text} written to {@code dir}/slurm.conf and read from there (includes resolve beside it). */
    public static SlurmConf slurmConf(Path dir, String text) throws IOException, ConfigException {
        return SlurmConfReader.read(Files.writeString(dir.resolve("slurm.conf"), text));
    }

    /** The controller's configuration for slurm.conf {@code text} and gres.conf {@code gresConf}. */
    public static CtldConfig ctldConfig(Path dir, String text, String gresConf) throws IOException, ConfigException {
        return CtldConfigs.from(slurmConf(dir, text), GresConfReader.parse(gresConf, "gres.conf"), 0, Map.of());
    }

    /** {@link #ctldConfig(Path, String, String)} without a gres.conf. */
    public static CtldConfig ctldConfig(Path dir, String text) throws IOException, ConfigException {
        return ctldConfig(dir, text, "");
    }
}
