package dev.sluice.cli.command.submit;

import dev.sluice.cli.command.scancel.Signals;
import dev.sluice.common.time.TimeLimit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Values as {@code -v}'s "defined options" lists them where Slurm keeps them in its own form
 * rather than as given: read off real sbatch 22.05 (for instance {@code --mem=2048} lists as
 * {@code 2G}, {@code --cpu-freq=low-high:performance} as {@code Low-High:Performance},
 * {@code --signal=BR:9@5} as {@code RB:KILL@5}).
 */
final class ShownValues {
    private ShownValues() {}

    private static final Map<String, String> CPU_FREQ_WORDS = Map.of(
            "low", "Low",
            "medium", "Medium",
            "highm1", "Highm1",
            "high", "High",
            "conservative", "Conservative",
            "ondemand", "OnDemand",
            "performance", "Performance",
            "powersave", "PowerSave",
            "userspace", "UserSpace",
            "schedutil", "SchedUtil");

    private static final List<String> PROFILES = List.of("energy", "lustre", "network", "task");

    /** Megabytes with the largest unit that divides them ({@code 1500}, {@code 2G}, {@code 1T}; 0 is {@code 0?}). */
    static String megabytes(long mb) {
        String units = "MGTP?";
        int i = 0;
        long v = mb;
        for (; units.charAt(i) != '?'; i++) {
            if (v != 0 && v % 1024 != 0) {
                break;
            }
            v /= 1024;
        }
        return units.charAt(i) == 'M' ? Long.toString(v) : v + String.valueOf(units.charAt(i));
    }

    /** {@code min[-max][:governor]}, each word in Slurm's spelling; numbers as given. */
    static String cpuFreq(String value) {
        StringBuilder out = new StringBuilder();
        for (String part : value.split("((?<=[-:])|(?=[-:]))")) {
            out.append(CPU_FREQ_WORDS.getOrDefault(part.toLowerCase(Locale.ROOT), part));
        }
        return out.toString();
    }

    /** {@code None} if named, else the types in Slurm's order ({@code all} is every one). */
    static String profile(String value) {
        List<String> given = List.of(value.toLowerCase(Locale.ROOT).split(","));
        if (given.contains("none")) {
            return "None";
        }
        List<String> out = new ArrayList<>();
        for (String p : PROFILES) {
            if (given.contains(p) || given.contains("all")) {
                out.add(Character.toUpperCase(p.charAt(0)) + p.substring(1));
            }
        }
        return String.join(",", out);
    }

    /** {@code [R][B]:NAME[@secs]}: flags in that order, the signal by name, the time unless the default 60. */
    static String signal(String value) {
        return WarnSignalOption.parse(value)
                .map(s -> {
                    int colon = value.indexOf(':');
                    String flags = colon < 0 ? "" : value.substring(0, colon).toUpperCase(Locale.ROOT);
                    String prefix = (flags.contains("R") ? "R" : "") + (flags.contains("B") ? "B" : "");
                    String name = Signals.name(s.signal()).orElse(Integer.toString(s.signal()));
                    return (prefix.isEmpty() ? "" : prefix + ":")
                            + name
                            + (s.seconds() == WarnSignalOption.DEFAULT_SECONDS ? "" : "@" + s.seconds());
                })
                .orElse(value);
    }

    /** {@code count[@max-time]}, the time as Slurm prints seconds ({@code 00:10:00}, {@code 1-00:00:00}). */
    static String switches(String value) {
        int at = value.indexOf('@');
        if (at < 0) {
            return value;
        }
        long secs = TimeLimit.parseSeconds(value.substring(at + 1));
        long days = secs / 86400;
        String hms = String.format("%02d:%02d:%02d", (secs / 3600) % 24, (secs / 60) % 60, secs % 60);
        return value.substring(0, at) + "@" + (days > 0 ? days + "-" + hms : hms);
    }
}
