package dev.sluice.cli.command.squeue;

import dev.sluice.cli.Invocation;
import java.util.Map;

/**
 * squeue's option values after environment and command line; {@code null} means not given.
 * As in Slurm, {@code SQUEUE_FORMAT}/{@code SQUEUE_FORMAT2} count only when no option chose a
 * layout ({@code -o}, {@code -O}, {@code -l}, {@code -s}, {@code --start}), and the list
 * variables only when the option is absent.
 */
final class SqueueSettings {
    String accounts;
    String format;
    String fieldNames;
    String jobs;
    String licenses;
    String names;
    String nodes;
    String partitions;
    String qos;
    String reservation;
    String sort;
    /** {@code -s}: null when not given, empty for every step. */
    String steps;

    String states;
    String users;
    String clusters;
    boolean jobFlag;
    boolean longFormat;
    boolean noHeader;
    boolean start;
    boolean oneLinePerTask;
    boolean json;
    boolean yaml;
    /** Recorded: Sluice has no hidden partitions, one partition per job and one cluster. */
    boolean all;

    boolean priority;
    boolean noConvert;
    boolean federation;
    boolean local;
    boolean sibling;
    int verbose;
    Long iterate;
    private boolean layoutChosen;

    void applyEnv(Map<String, String> env) {
        all = env.containsKey("SQUEUE_ALL");
        oneLinePerTask = env.containsKey("SQUEUE_ARRAY");
        sort = env.get("SQUEUE_SORT");
        clusters = env.get("SLURM_CLUSTERS");
        federation = env.containsKey("SQUEUE_FEDERATION");
        local = env.containsKey("SQUEUE_LOCAL") || clusters != null;
        priority = env.containsKey("SQUEUE_PRIORITY");
        sibling = env.containsKey("SQUEUE_SIB") || env.containsKey("SQUEUE_SIBLING");
    }

    /** After the command line: what the variables add when the options left it open. */
    void applyEnvDefaults(Map<String, String> env) {
        if (!layoutChosen) {
            if (env.containsKey("SQUEUE_FORMAT")) {
                format = env.get("SQUEUE_FORMAT");
            } else if (env.containsKey("SQUEUE_FORMAT2")) {
                fieldNames = env.get("SQUEUE_FORMAT2");
            }
        }
        accounts = accounts != null ? accounts : env.get("SQUEUE_ACCOUNT");
        names = names != null ? names : env.get("SQUEUE_NAMES");
        // Slurm reads SQUEUE_LICENSES only when no partition was given (its check tests -p).
        if (partitions == null && env.containsKey("SQUEUE_LICENSES")) {
            licenses = env.get("SQUEUE_LICENSES");
        }
        partitions = partitions != null ? partitions : env.get("SQUEUE_PARTITION");
        qos = qos != null ? qos : env.get("SQUEUE_QOS");
        states = states != null ? states : env.get("SQUEUE_STATES");
        users = users != null ? users : env.get("SQUEUE_USERS");
    }

    /** One option; the error text (Slurm's) when the line is refused, else null. */
    String apply(String key, String value, Invocation inv) {
        switch (key) {
            case "account" -> accounts = value;
            case "format" -> {
                if (fieldNames != null) {
                    return "-o (--format) is incompatible with -O (--Format)";
                }
                format = value;
                layoutChosen = true;
            }
            case "Format" -> {
                if (format != null) {
                    return "-O (--Format) is incompatible with -o (--format)";
                }
                fieldNames = value;
                layoutChosen = true;
            }
            case "jobs" -> {
                jobFlag = true;
                if (value != null) {
                    jobs = value;
                }
            }
            case "licenses" -> licenses = value;
            case "name" -> names = value;
            case "nodelist" -> nodes = value;
            case "partition" -> {
                partitions = value;
                all = true;
            }
            case "qos" -> qos = value;
            case "reservation" -> reservation = value;
            case "sort" -> sort = value;
            case "steps" -> {
                steps = value == null ? (steps == null ? "" : steps) : value;
                layoutChosen = true;
            }
            case "states" -> states = value;
            case "user" -> users = value;
            case "me" -> users = Long.toString(inv.caller().uid());
            case "long" -> {
                longFormat = true;
                layoutChosen = true;
            }
            case "noheader" -> noHeader = true;
            case "start" -> {
                start = true;
                layoutChosen = true;
            }
            case "array" -> oneLinePerTask = true;
            // Real squeue 22.05 printed a held array's pending tasks as one line with it, as
            // without it (compat 302): taken, no effect.
            case "array-unique" -> {}
            case "json" -> json = true;
            case "yaml" -> yaml = true;
            case "all" -> all = true;
            case "hide" -> all = false;
            case "priority" -> priority = true;
            case "noconvert" -> noConvert = true;
            case "federation" -> federation = true;
            case "local" -> local = true;
            case "sibling" -> sibling = true;
            case "verbose" -> verbose++;
            case "clusters" -> {
                clusters = value;
                local = true;
            }
            default -> throw new IllegalStateException("unhandled squeue option " + key);
        }
        return null;
    }
}
