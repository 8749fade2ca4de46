package dev.sluice.cli.command.scancel;

import dev.sluice.cli.Invocation;
import dev.sluice.protocol.v1.SignalJobRequest;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What scancel was asked to select and how, from {@code SCANCEL_*} and then the command line. */
final class Filters {
    String account;
    String name;
    String nodes;
    String partition;
    String qos;
    String reservation;
    String state;
    boolean stateFromEnv;
    String user;
    String wckey;
    String signal;
    String sibling;
    boolean batch;
    boolean full;
    boolean interactive;
    boolean quiet;
    int verbose;

    static Filters fromEnv(Invocation inv) {
        Map<String, String> env = inv.env();
        Filters f = new Filters();
        f.account = lower(env.get("SCANCEL_ACCOUNT"));
        f.batch = flag(env.get("SCANCEL_BATCH"));
        f.full = flag(env.get("SCANCEL_FULL"));
        f.interactive = flag(env.get("SCANCEL_INTERACTIVE"));
        f.name = env.get("SCANCEL_NAME");
        f.partition = env.get("SCANCEL_PARTITION");
        f.qos = lower(env.get("SCANCEL_QOS"));
        f.state = env.get("SCANCEL_STATE");
        f.stateFromEnv = f.state != null;
        f.user = env.get("SCANCEL_USER");
        f.verbose = flag(env.get("SCANCEL_VERBOSE")) ? 1 : 0;
        f.wckey = env.get("SCANCEL_WCKEY");
        return f;
    }

    /** Slurm's boolean variables: true/T set, false/F clear (any case); other values set nothing. */
    private static boolean flag(String value) {
        return value != null && (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("t"));
    }

    // Slurm lowercases account and QOS names before comparing them.
    private static String lower(String value) {
        return value == null ? null : value.toLowerCase(Locale.ROOT);
    }

    void apply(String key, String value) {
        switch (key) {
            case "account" -> account = lower(value);
            case "batch" -> batch = true;
            case "full" -> full = true;
            case "interactive" -> interactive = true;
            case "name" -> name = value;
            case "nodelist" -> nodes = value;
            case "partition" -> partition = value;
            case "qos" -> qos = lower(value);
            case "quiet" -> quiet = true;
            case "reservation" -> reservation = value;
            case "sibling" -> sibling = value;
            case "signal" -> signal = value;
            case "state" -> {
                state = value;
                stateFromEnv = false;
            }
            case "user" -> user = value;
            case "verbose" -> verbose++;
            case "wckey" -> wckey = value;
            // Sluice's scancel always asks the controller, which is what --ctld forces in Slurm;
            // Sluice has no burst buffers, so --hurry has no stage-out to skip.
            case "ctld", "hurry" -> {}
            default -> throw new IllegalStateException("unhandled scancel option " + key);
        }
    }

    /** Whether anything besides job ids selects jobs (Slurm's "job identification"). */
    boolean selects() {
        return account != null
                || name != null
                || nodes != null
                || partition != null
                || qos != null
                || reservation != null
                || state != null
                || user != null
                || wckey != null;
    }

    void addTo(SignalJobRequest.Builder req) {
        if (account != null) {
            req.setAccountFilter(account);
        }
        if (qos != null) {
            req.setQosFilter(qos);
        }
        if (reservation != null) {
            req.setReservationFilter(reservation);
        }
        if (wckey != null) {
            req.setWckeyFilter(wckey);
        }
    }

    /** The filter summary of scancel -v, in the order 22.05 prints it, each followed by a space. */
    String describe(List<String> states) {
        StringBuilder s = new StringBuilder();
        append(s, "account", account);
        append(s, "job_name", name);
        append(s, "nodelist", nodes);
        append(s, "partition", partition);
        append(s, "qos", qos);
        append(s, "reservation", reservation);
        append(s, "state", states.isEmpty() ? null : String.join(",", states));
        append(s, "user_name", user);
        append(s, "wckey", wckey);
        return s.toString();
    }

    private static void append(StringBuilder s, String key, String value) {
        if (value != null) {
            s.append(key).append('=').append(value).append(' ');
        }
    }
}
