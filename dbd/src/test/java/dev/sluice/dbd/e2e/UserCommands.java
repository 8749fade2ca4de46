package dev.sluice.dbd.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.cli.Caller;
import dev.sluice.cli.Commands;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * The user commands (sacct, sacctmgr, sreport, sprio, ...) run in-process against the daemons a
 * test started, as from a shell whose {@code SLURM_CONF} names {@code conf} and whose working
 * directory is the folder holding it. Each test picks who runs them and the clock they read.
 */
final class UserCommands {
    static final Caller ROOT = new Caller(0, 0, "root", "localhost");
    static final Caller ALICE = new Caller(1000, 1000, "alice", "localhost");

    /** What a command returned and printed. */
    record Run(int rc, String out, String err) {}

    private final Path conf;
    private final Clock clock;
    private final UserDirectory users;

    private UserCommands(Path conf, Clock clock, UserDirectory users) {
        this.conf = conf;
        this.clock = clock;
        this.users = users;
    }

    /** Commands reading {@code conf}, on the system clock, on a machine with no local accounts. */
    static UserCommands reading(Path conf) {
        return new UserCommands(conf, Clock.systemUTC(), UserDirectory.fromLines(List.of(), List.of()));
    }

    /** The same commands with their clock at {@code newClock} (sreport's "now", sacct's states). */
    UserCommands at(Clock newClock) {
        return new UserCommands(conf, newClock, users);
    }

    /** The same commands on a machine whose passwd file has {@code passwdLines}. */
    UserCommands withPasswd(String... passwdLines) {
        return new UserCommands(conf, clock, UserDirectory.fromLines(List.of(passwdLines), List.of()));
    }

    Run run(Caller who, String command, String... args) {
        return runWithInput(who, "", command, args);
    }

    /** Runs a command with {@code stdin} as its standard input (answers to its questions). */
    Run runWithInput(Caller who, String stdin, String command, String... args) {
        Invocation inv = new Invocation(
                List.of(args),
                Map.of("SLURM_CONF", conf.toString()),
                conf.getParent(),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                who,
                clock,
                users);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            rc = Commands.byName(command).orElseThrow().run(inv, o, e);
        }
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A command expected to succeed: its standard output, the test failing on an error or rc. */
    String output(Caller who, String command, String... args) {
        Run r = run(who, command, args);
        assertThat(r.err()).isEmpty();
        assertThat(r.rc()).isZero();
        return r.out();
    }
}
