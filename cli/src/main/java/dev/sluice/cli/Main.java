package dev.sluice.cli;

import com.sun.security.auth.module.UnixSystem;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Process entry point: {@code java -cp ... dev.sluice.cli.Main sbatch ARGS...}. The only class
 * that reads the real environment, streams, user and clock, and that calls {@code System.exit}.
 */
public final class Main {
    /**
     * Arguments keep every byte ({@link RawProcess}); one that is not UTF-8 and ends up in a text
     * field of a request is sent with '?' for that byte, and protobuf would log a warning about
     * it that no user should see. Held here: a logger only referenced weakly forgets its level.
     */
    private static final java.util.logging.Logger PROTOBUF_LOG =
            java.util.logging.Logger.getLogger("com.google.protobuf");

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        PrintStream out = stream(FileDescriptor.out);
        PrintStream err = stream(FileDescriptor.err);
        try {
            if (args.length == 0) {
                err.println("usage: sluice-cli COMMAND [ARGS...]; commands: " + String.join(" ", Commands.names()));
                return 1;
            }
            Optional<Command> command = Commands.byName(args[0]);
            if (command.isEmpty()) {
                err.println("sluice-cli: unknown command '" + args[0] + "'; commands: "
                        + String.join(" ", Commands.names()));
                return 1;
            }
            quietProtobuf();
            List<String> raw = RawProcess.arguments(args);
            Invocation inv = new Invocation(
                    raw.subList(1, raw.size()),
                    withUmask(args[0], RawProcess.environment(System.getenv())),
                    Path.of("").toAbsolutePath(),
                    System.in,
                    caller(),
                    new SystemClock(),
                    UserDirectory.system());
            return command.get().run(inv, out, err);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /**
     * For sbatch and srun, {@code SLURM_UMASK} and {@code SLURM_PRIO_PROCESS} added as Slurm's do
     * when they are not set, so that the job creates files with the submitter's umask (salloc's
     * command runs here, with the caller's own).
     */
    private static Map<String, String> withUmask(String command, Map<String, String> env) {
        if (!List.of("sbatch", "srun").contains(command)) {
            return env;
        }
        Map<String, String> with = new HashMap<>(env);
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Umask:")) {
                    with.putIfAbsent(
                            "SLURM_UMASK", line.substring("Umask:".length()).strip());
                }
            }
            // The submitter's nice value, as Slurm's SLURM_PRIO_PROCESS (field 19 of stat).
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            with.putIfAbsent("SLURM_PRIO_PROCESS", fields[16]);
        } catch (IOException | RuntimeException e) {
            // not Linux: the job keeps the node's defaults
        }
        return with;
    }

    /** Silences protobuf's warning about a text field that held a byte that is not UTF-8. */
    public static void quietProtobuf() {
        PROTOBUF_LOG.setLevel(java.util.logging.Level.OFF);
    }

    private static PrintStream stream(FileDescriptor fd) {
        return new PrintStream(
                new BufferedOutputStream(new FileOutputStream(fd), 1 << 16), false, StandardCharsets.UTF_8);
    }

    private static Caller caller() {
        UnixSystem unix = new UnixSystem();
        return new Caller(unix.getUid(), unix.getGid(), unix.getUsername(), hostName());
    }

    // gethostname(2), as Slurm records the submit host; a DNS lookup could stall a command.
    private static String hostName() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
            if (!h.isEmpty()) {
                return h;
            }
        } catch (IOException e) {
            // not Linux: fall through
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
