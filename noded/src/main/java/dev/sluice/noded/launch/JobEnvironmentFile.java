package dev.sluice.noded.launch;

import dev.sluice.common.text.RawText;
import dev.sluice.noded.spool.JobSpool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a job's environment reaches it byte for byte, as Slurm's does. The JDK hands a child process
 * its environment encoded in {@code sun.jnu.encoding}, the daemon's locale (UTF-8, or ASCII when
 * the daemon runs under {@code LANG=C}), so a value that charset cannot carry exactly (a byte that
 * is not UTF-8; any non-ASCII byte under the C locale) would arrive altered. Those variables are
 * written instead to a file in the job's spool directory, as {@code export NAME='value'} lines that
 * the supervisor (a POSIX shell, which reads bytes as they are) sources just before it starts the
 * job. Everything else is inherited as before. {@link #split} is pure; {@link #prepare} writes.
 *
 * @param inherited the variables the process is started with
 * @param sourced the file's text, empty when every variable could be inherited
 * @param altered names whose value could go neither way (a name no shell can assign): inherited,
 *     altered by the JDK, and worth a warning
 */
record JobEnvironmentFile(Map<String, String> inherited, byte[] sourced, List<String> altered) {
    private static final Logger log = LoggerFactory.getLogger(JobEnvironmentFile.class);
    private static final Pattern SHELL_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** What the JDK encodes a child's environment in (ProcessEnvironment's JNU_CHARSET). */
    private static final Charset PROCESS_CHARSET = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));

    /** {@link #split} for processes this JVM starts. */
    static JobEnvironmentFile forThisProcess(Map<String, String> env) {
        return split(env, PROCESS_CHARSET);
    }

    /**
     * Writes the job's {@code environment} file (or removes a stale one) and returns the
     * variables to start the process with.
     */
    Map<String, String> prepare(JobSpool spool, int jobId) throws IOException {
        if (!altered.isEmpty()) {
            log.warn(
                    "job {}: environment variables {} have bytes this daemon's locale cannot pass and names no"
                            + " shell can set: passed altered",
                    jobId,
                    altered);
        }
        spool.writeEnvironment(jobId, sourced);
        return inherited;
    }

    /**
     * @param env the job's environment, values as {@link RawText} (escapes for bytes that are not
     *     UTF-8)
     * @param processCharset the charset the JDK encodes a child's environment in
     */
    static JobEnvironmentFile split(Map<String, String> env, Charset processCharset) {
        Map<String, String> inherited = new LinkedHashMap<>();
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        List<String> altered = new java.util.ArrayList<>();
        env.forEach((name, value) -> {
            if (carries(processCharset, name) && carries(processCharset, value)) {
                inherited.put(name, value);
            } else if (SHELL_NAME.matcher(name).matches()) {
                file.writeBytes(("export " + name + "='").getBytes(processCharset));
                // Within single quotes only the quote itself is special: end, escaped quote, reopen.
                for (byte b : RawText.encode(value)) {
                    if (b == '\'') {
                        file.writeBytes(new byte[] {'\'', '\\', '\'', '\''});
                    } else {
                        file.write(b);
                    }
                }
                file.writeBytes(new byte[] {'\'', '\n'});
            } else {
                inherited.put(name, value);
                altered.add(name);
            }
        });
        return new JobEnvironmentFile(inherited, file.toByteArray(), List.copyOf(altered));
    }

    /** Whether the JDK would pass {@code text} to a child as exactly the bytes it stands for. */
    private static boolean carries(Charset charset, String text) {
        boolean ascii = true;
        for (int i = 0; i < text.length() && ascii; i++) {
            ascii = text.charAt(i) < 0x80;
        }
        return ascii || Arrays.equals(text.getBytes(charset), RawText.encode(text));
    }
}
