package dev.sluice.cli.command.submit;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.OptionSpec;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.common.slurm.MailType;
import dev.sluice.common.slurm.OpenMode;
import dev.sluice.common.time.BeginTime;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.common.units.MemorySize;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What {@code sbatch -v}, {@code srun -v} and {@code salloc -v} print first: every option given (command line and
 * input variables) and its value as Slurm keeps it, between Slurm's two rulers. This is where an
 * option Sluice only records shows that it was taken. Values follow real srun 22.05's listing
 * (flags read {@code set}, {@code --open-mode=append} reads {@code a}, times {@code 00:05:00});
 * options are listed in the command's table order, where Slurm's own order differs in a few
 * places.
 */
public final class DefinedOptions {
    private static final String RULER = "-------------------- --------------------";

    private DefinedOptions() {}

    public static List<String> lines(OptionTable table, SubmitOptions o, int verbosity, Invocation inv) {
        return lines(table, o, verbosity, inv, Map.of());
    }

    /** @param asKept values the command keeps in a form of its own (sbatch's absolute paths), by key */
    public static List<String> lines(
            OptionTable table, SubmitOptions o, int verbosity, Invocation inv, Map<String, String> asKept) {
        List<String> out = new ArrayList<>();
        // Slurm drops --hint when an option it would set is given too, and says so at -v.
        boolean hintIgnored = o.has("hint")
                && (o.has("ntasks-per-core")
                        || o.has("threads-per-core")
                        || o.has("extra-node-info")
                        || (o.has("cpu-bind") && !o.get("cpu-bind").equalsIgnoreCase("verbose")));
        if (hintIgnored) {
            out.add("Following options are mutually exclusive with --hint: --ntasks-per-core,"
                    + " --threads-per-core, -B and --cpu-bind (other then --cpu-bind=verbose). Ignoring --hint.");
        }
        out.add("defined options");
        out.add(RULER);
        Set<String> seen = new LinkedHashSet<>();
        for (OptionSpec spec : table.specs()) {
            String key = spec.key();
            // --requeue and --no-requeue share one slot: the one given last is listed.
            boolean requeueFlag = key.equals("requeue") || key.equals("no-requeue");
            if (requeueFlag) {
                if (o.has("requeue") && o.get("requeue").equals(key.equals("requeue") ? "1" : "0")) {
                    out.add(String.format("%-20s: %s", key, key));
                }
                continue;
            }
            if (!o.has(key)
                    || (hintIgnored && key.equals("hint"))
                    || !seen.add(key)
                    || spec.longName() == null
                    || !spec.longName().equals(key)) {
                continue;
            }
            String value = key.equals("verbose")
                    ? Integer.toString(verbosity)
                    : asKept.containsKey(key)
                            ? asKept.get(key)
                            : shown(key, spec.arg(), o.get(key), inv.clock(), inv.users());
            out.add(String.format("%-20s: %s", key, value));
        }
        out.add(RULER);
        out.add("end of defined options");
        return out;
    }

    private static String shown(String key, ArgKind arg, String value, Clock clock, UserDirectory users) {
        switch (key) {
            case "kill-on-bad-exit":
                return value.isEmpty() ? "1" : value;
            case "open-mode":
                return OpenMode.option(value).orElse(null) == OpenMode.APPEND ? "a" : "t";
            case "nice":
                return value.isEmpty() ? "100" : value;
            case "exclusive":
                return value.isEmpty() ? "exclusive" : value;
            case "oversubscribe":
                return "oversubscribe";
            case "propagate":
                return value.isEmpty() ? "ALL" : value;
            case "compress":
                return value.isEmpty() ? "lz4" : value;
            case "get-user-env":
                return ValueChecks.getUserEnv(value).orElse(value);
            case "kill-command":
                return value.isEmpty() ? "TERM" : value;
            case "mail-type":
                return orAsGiven(value, () -> MailType.text(MailType.parseList(value)));
            case "kill-on-invalid-dep":
                return value.toLowerCase(Locale.ROOT);
            case "bell":
                return "bell-always";
            case "no-bell":
                return "bell-never";
            case "resv-ports":
                return value.isEmpty() ? "0" : value;
            case "power":
                return value.toUpperCase(Locale.ROOT);
            case "priority":
                return ValueChecks.shownPriority(value);
            case "uid":
                return ValueChecks.uid(value, users).map(String::valueOf).orElse(value);
            case "gid":
                return ValueChecks.gid(value, users).map(String::valueOf).orElse(value);
            case "cpu-freq":
                return ShownValues.cpuFreq(value);
            case "profile":
                return ShownValues.profile(value);
            case "signal":
                return ShownValues.signal(value);
            case "switches":
                return orAsGiven(value, () -> ShownValues.switches(value));
            case "gres":
                return Arrays.stream(value.split(",")).map(g -> "gres:" + g).collect(Collectors.joining(","));
            case "time", "time-min", "delay-boot":
                return orAsGiven(value, () -> TimeLimit.format(TimeLimit.parseMinutes(value)));
            case "mem", "mem-per-cpu", "mem-per-gpu", "tmp":
                return orAsGiven(value, () -> ShownValues.megabytes(MemorySize.parseMegabytes(value)));
            case "begin", "deadline":
                return orAsGiven(
                        value,
                        () -> SlurmTimestamp.format(
                                BeginTime.parse(value, ZonedDateTime.ofInstant(clock.instant(), clock.getZone())),
                                clock.getZone()));
            default:
                return arg == ArgKind.NONE || (arg == ArgKind.OPTIONAL && value.isEmpty()) ? "set" : value;
        }
    }

    private interface Conversion {
        String get();
    }

    private static String orAsGiven(String value, Conversion c) {
        try {
            return c.get();
        } catch (IllegalArgumentException e) {
            return value;
        }
    }
}
