package dev.sluice.cli;

import static java.util.Objects.requireNonNull;

import dev.sluice.cli.caller.CallerSide;
import dev.sluice.cli.caller.LocalCallerSide;
import dev.sluice.cli.client.ClientSetup;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Everything a command may know about the process that runs it. Commands read the
 * environment, working directory, standard input, the caller and the time only from here, so
 * a test (or a warm agent serving many callers) can hand in any of them.
 *
 * @param args the arguments after the command name
 * @param clock "now" for elapsed times and time stamps; its zone is the zone of printed dates
 * @param interrupts where Ctrl-C arrives (the process's SIGINT, or an agent's front end)
 * @param onBehalf run by sluice-agent for {@code caller}, whose identity the agent vouches for:
 *     the command must then sign for the caller and never use the controller's local socket,
 *     where the kernel would name the agent (root) instead
 * @param setup where the command finds slurm.conf's contents and connections to the
 *     controllers: read and opened per call, or kept by the agent between calls
 * @param callerSide where every file the caller names is opened and every local program is
 *     started: the command's own process, or, through sluice-agent, the caller's front end,
 *     never with the agent's rights
 */
public record Invocation(
        List<String> args,
        Map<String, String> env,
        Path cwd,
        InputStream stdin,
        Caller caller,
        Clock clock,
        UserDirectory users,
        Interrupts interrupts,
        boolean onBehalf,
        ClientSetup setup,
        CallerSide callerSide) {
    public Invocation {
        args = List.copyOf(args);
        env = Map.copyOf(env);
        requireNonNull(cwd, "cwd is null");
        requireNonNull(stdin, "stdin is null");
        requireNonNull(caller, "caller is null");
        requireNonNull(clock, "clock is null");
        requireNonNull(users, "users is null");
        requireNonNull(interrupts, "interrupts is null");
        requireNonNull(setup, "setup is null");
        requireNonNull(callerSide, "callerSide is null");
    }

    /** Reads and connects per call (no state kept between invocations). */
    public Invocation(
            List<String> args,
            Map<String, String> env,
            Path cwd,
            InputStream stdin,
            Caller caller,
            Clock clock,
            UserDirectory users,
            Interrupts interrupts,
            boolean onBehalf) {
        this(
                args,
                env,
                cwd,
                stdin,
                caller,
                clock,
                users,
                interrupts,
                onBehalf,
                ClientSetup.perCall(),
                new LocalCallerSide(cwd));
    }

    /** A standalone command's invocation: interrupts are the process's SIGINT. */
    public Invocation(
            List<String> args,
            Map<String, String> env,
            Path cwd,
            InputStream stdin,
            Caller caller,
            Clock clock,
            UserDirectory users) {
        this(args, env, cwd, stdin, caller, clock, users, Interrupts.PROCESS, false);
    }

    public Invocation withArgs(List<String> newArgs) {
        return new Invocation(newArgs, env, cwd, stdin, caller, clock, users, interrupts, onBehalf, setup, callerSide);
    }
}
