package dev.sluice.cli.command.submit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A command's {@code --help}/{@code --usage} text, kept as a resource file next to its class:
 * real Slurm's text byte for byte, which a Java text block would not keep (it strips trailing
 * blanks and re-indents).
 */
public final class HelpText {
    private HelpText() {}

    public static String read(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + name + " beside " + owner.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
