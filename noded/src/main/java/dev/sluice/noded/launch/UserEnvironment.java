package dev.sluice.noded.launch;

import dev.sluice.common.text.RawText;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How a job's environment reaches the job without ever being the environment of a program that
 * runs as root. The daemon runs a job through programs of its own as root (the cgroup joiner,
 * {@code setsid}, the supervisor, the job runner, {@code taskset}, {@code setpriv}); given the
 * user's environment, the user's {@code PATH} would choose which {@code setpriv} root runs, and
 * {@code LD_PRELOAD}, {@code LD_LIBRARY_PATH} or {@code BASH_ENV} would load the user's code into
 * them. So those programs get {@link #ROOT} alone, the job's variables are written to a file the
 * user owns in the job's spool directory, and the last program of the chain, already the user
 * ({@code setpriv} has run), loads the file into its environment and becomes the job.
 *
 * <p>The loader is Perl where {@code /usr/bin/perl} runs (the job runner needs it too): it reads
 * {@code NAME=VALUE} records separated by NUL bytes, exactly as submitted, whatever the bytes and
 * whatever the names (bash's exported functions, {@code BASH_FUNC_f%%}, included). Without Perl
 * a POSIX shell sources {@code export NAME='value'} lines: names no shell can assign are left out.
 * Either way SIGINT and SIGQUIT are reset to their defaults, since a non-interactive shell starts
 * background commands with them ignored and a job must receive them (scancel -s INT, srun's
 * Ctrl-C). Pure: {@code JobSpool} writes the file.
 */
final class UserEnvironment {
    /** The whole environment of every program run as root on a job's behalf. */
    static final Map<String, String> ROOT =
            Map.of("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");

    private static final Pattern SHELL_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    // Run as the job's user. `<:raw`: values are bytes, never decoded. A record without '=' or
    // with an empty name cannot come from us and is skipped.
    private static final String PERL_LOADER = """
            $SIG{__WARN__} = sub {};
            my $file = shift @ARGV;
            open(my $f, '<:raw', $file) or die "slurmstepd: error: cannot read the job's environment: $!\\n";
            local $/ = "\\0";
            my %env;
            while (defined(my $e = <$f>)) {
              chomp $e;
              my $i = index($e, '=');
              $env{substr($e, 0, $i)} = substr($e, $i + 1) if $i > 0;
            }
            close($f);
            %ENV = %env;
            $SIG{INT} = 'DEFAULT';
            $SIG{QUIT} = 'DEFAULT';
            exec { $ARGV[0] } @ARGV;
            die "slurmstepd: error: execve(): $ARGV[0]: $!\\n";
            """;

    private static final String SHELL_LOADER = ". \"$1\" || exit 1; shift; exec /usr/bin/env --default-signal \"$@\"";

    private final boolean perl;

    /** @param perl whether {@code /usr/bin/perl} runs here (see {@link Supervisor#perlRuns}) */
    UserEnvironment(boolean perl) {
        this.perl = perl;
    }

    /**
     * The {@code NAME=VALUE} records of {@code env}, as the supervisor's job process loads them
     * (given in its request, or from the file {@link #encode} writes): a NUL within a name or value
     * ends its record there, as it would in the file, so a record never holds one.
     */
    static List<String> records(Map<String, String> env) {
        List<String> out = new ArrayList<>(env.size());
        env.forEach((name, value) -> {
            String record = name + "=" + value;
            int from = 0;
            for (int nul = record.indexOf(0); nul >= 0; nul = record.indexOf(0, from)) {
                out.add(record.substring(from, nul));
                from = nul + 1;
            }
            out.add(record.substring(from));
        });
        return out;
    }

    /** The file's bytes for {@code env} (values as {@link RawText}: escapes stand for their bytes). */
    byte[] encode(Map<String, String> env) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (perl) {
            for (String record : records(env)) {
                out.writeBytes(RawText.encode(record));
                out.write(0);
            }
            return out.toByteArray();
        }
        env.forEach((name, value) -> {
            if (SHELL_NAME.matcher(name).matches()) {
                out.writeBytes(("export " + name + "='").getBytes(StandardCharsets.US_ASCII));
                // Within single quotes only the quote itself is special: end, escaped quote, reopen.
                for (byte b : RawText.encode(value)) {
                    if (b == '\'') {
                        out.writeBytes(new byte[] {'\'', '\\', '\'', '\''});
                    } else {
                        out.write(b);
                    }
                }
                out.writeBytes(new byte[] {'\'', '\n'});
            }
        });
        return out.toByteArray();
    }

    /** Names {@link #encode} leaves out (without Perl: names no shell can assign). */
    List<String> dropped(Map<String, String> env) {
        return perl
                ? List.of()
                : env.keySet().stream()
                        .filter(n -> !SHELL_NAME.matcher(n).matches())
                        .toList();
    }

    /** Run as the user: loads {@code file} into the environment, then becomes {@code command}. */
    List<String> loading(Path file, List<String> command) {
        List<String> out = new ArrayList<>(
                perl
                        ? List.of(Supervisor.PERL, "-e", PERL_LOADER, file.toString())
                        : List.of("/usr/bin/env", "-i", "/bin/sh", "-c", SHELL_LOADER, "sluice-env", file.toString()));
        out.addAll(command);
        return out;
    }
}
