package dev.sluice.cli.command.submit;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.caller.CallerFileException;
import dev.sluice.common.text.RawText;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --export-file=FILE|FD} (sbatch(1)): {@code NAME=value} definitions separated by NUL
 * bytes (a newline is part of a value, as Slurm 22.05 reads them), from a file or from a
 * descriptor 3 or above the caller passed in. Read with the caller's rights: through
 * sluice-agent the front end opens it, so {@code /dev/fd/N} is the caller's own descriptor.
 * The definitions are set over {@code --export}'s, except with {@code --export=NONE}, where
 * Slurm 22.05 drops them too.
 */
final class ExportFile {
    /** A job environment can be no larger (Slurm's and the controller's limit). */
    private static final int LIMIT = 4 << 20;

    private ExportFile() {}

    static Map<String, String> read(Invocation inv, String argument) throws SubmitException {
        String path = argument.matches("[0-9]{1,9}") && Integer.parseInt(argument) >= 3
                ? "/dev/fd/" + Integer.parseInt(argument)
                : argument;
        byte[] bytes;
        try {
            bytes = inv.callerSide().read(path, LIMIT);
        } catch (CallerFileException e) {
            throw new SubmitException(1, "error: Could not open user environment file " + RawText.toText(argument));
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String definition : RawText.decode(bytes).split("\0")) {
            int eq = definition.indexOf('=');
            if (eq > 0) {
                out.put(definition.substring(0, eq), definition.substring(eq + 1));
            }
        }
        return out;
    }

    /** Whether {@code --export}'s value leaves the file's definitions out. */
    static boolean droppedBy(String export) {
        return export.strip().equalsIgnoreCase("NONE") || export.strip().equalsIgnoreCase("NIL");
    }
}
