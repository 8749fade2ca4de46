package dev.sluice.common.conf;

import dev.sluice.common.time.TimeLimit;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Checks of keys whose values Slurm 22.05 validates while reading {@code slurm.conf} (beyond their
 * basic type), with Slurm's messages; those Slurm refuses are errors, those it logs and ignores
 * are warnings. Allowed words are those slurm.conf(5) lists.
 */
final class ValueRules {

    private static final Set<String> ENFORCE = Set.of(
            "1", "2", "associations", "limits", "safe", "wckeys", "qos", "all", "nojobs", "nosteps", "0", "none");
    private static final Set<String> PART_LIMITS =
            Set.of("yes", "up", "true", "1", "any", "no", "down", "false", "0", "all");
    private static final Set<String> PREEMPT_MODE =
            Set.of("off", "cancel", "gang", "requeue", "suspend", "priority", "within");
    private static final Set<String> RLIMITS =
            Set.of("all", "none", "as", "core", "cpu", "data", "fsize", "memlock", "nofile", "nproc", "rss", "stack");
    private static final Set<String> DEBUG = Set.of(
            "quiet", "fatal", "error", "info", "verbose", "debug", "debug2", "debug3", "debug4", "debug5", "0", "1",
            "2", "3", "4", "5", "6", "7", "8", "9");
    private static final Set<String> TASK_PARAM = Set.of(
            "none",
            "boards",
            "sockets",
            "cores",
            "threads",
            "slurmdoffspec",
            "slurmdspecoverride",
            "oomkillstep",
            "verbose",
            "autobind=boards",
            "autobind=sockets",
            "autobind=cores",
            "autobind=threads");
    private static final Set<String> RESET_PERIOD =
            Set.of("none", "now", "daily", "weekly", "monthly", "quarterly", "yearly");

    private ValueRules() {}

    static void check(SlurmConfReader.Collected c) throws ConfigException {
        words(c, "AccountingStorageEnforce", ENFORCE, "Invalid parameter for AccountingStorageEnforce: %s");
        word(c, "EnforcePartLimits", PART_LIMITS, "Bad EnforcePartLimits: %s");
        words(c, "PreemptMode", PREEMPT_MODE, "PreemptMode=%s invalid");
        preempt(c);
        words(c, "PropagateResourceLimits", RLIMITS, "Bad PropagateResourceLimits: %s");
        words(c, "PropagateResourceLimitsExcept", RLIMITS, "Bad PropagateResourceLimitsExcept: %s");
        for (String k : new String[] {"SlurmctldDebug", "SlurmdDebug", "SlurmctldSyslogDebug", "SlurmdSyslogDebug"}) {
            word(c, k, DEBUG, "Invalid " + k + " %s");
        }
        words(c, "TaskPluginParam", TASK_PARAM, "Bad TaskPluginParam: %s");
        word(c, "PriorityUsageResetPeriod", RESET_PERIOD, "Bad value \"%s\" for PriorityUsageResetPeriod");
        for (String k : new String[] {"PriorityDecayHalfLife", "PriorityCalcPeriod", "PriorityMaxAge"}) {
            time(c, k, "Bad value \"%s\" for " + k);
        }
        time(c, "PreemptExemptTime", "PreemptExemptTime=%s invalid");
        requires(c, "MCSParameters", "MCSPlugin", "MCSParameters=%s used and no MCSPlugin");
        requires(c, "SlurmSchedLogLevel", "SlurmSchedLogFile", "SlurmSchedLogLevel requires SlurmSchedLogFile value");
        jobIds(c);
        exclusive(c, "DefMemPerCPU", "DefMemPerNode");
        exclusive(c, "MaxMemPerCPU", "MaxMemPerNode");
        licenses(c);
    }

    /** slurmctld will not start on a license list it cannot read. */
    private static void licenses(SlurmConfReader.Collected c) throws ConfigException {
        Optional<ConfEntry> e = c.entry("Licenses");
        if (e.isPresent()) {
            try {
                dev.sluice.common.slurm.Licenses.configured(e.get().value());
            } catch (IllegalArgumentException bad) {
                throw e.get().error("Invalid configured licenses: " + e.get().value());
            }
        }
    }

    private static void word(SlurmConfReader.Collected c, String key, Set<String> allowed, String message)
            throws ConfigException {
        Optional<ConfEntry> e = c.entry(key);
        if (e.isPresent() && !allowed.contains(e.get().value().toLowerCase(Locale.ROOT))) {
            throw e.get().error(String.format(message, e.get().value()));
        }
    }

    private static void words(SlurmConfReader.Collected c, String key, Set<String> allowed, String message)
            throws ConfigException {
        Optional<ConfEntry> e = c.entry(key);
        if (e.isEmpty()) {
            return;
        }
        for (String w : e.get().value().split(",")) {
            if (!allowed.contains(w.strip().toLowerCase(Locale.ROOT))) {
                throw e.get()
                        .error(String.format(
                                message, w.strip().isEmpty() ? e.get().value() : w.strip()));
            }
        }
    }

    /** PreemptMode must suit PreemptType (slurm.conf(5) PreemptMode; Slurm's wording). */
    private static void preempt(SlurmConfReader.Collected c) throws ConfigException {
        Optional<ConfEntry> mode = c.entry("PreemptMode");
        Set<String> modes = new java.util.HashSet<>();
        mode.ifPresent(e -> {
            for (String w : e.value().split(",")) {
                modes.add(w.strip().toLowerCase(Locale.ROOT));
            }
        });
        modes.remove("off");
        if (modes.equals(Set.of("suspend"))) {
            throw mode.get().error("PreemptMode=SUSPEND requires GANG too");
        }
        String type = c.entry("PreemptType").map(ConfEntry::value).orElse("preempt/none");
        Set<String> effective = new java.util.HashSet<>(modes);
        effective.remove("gang");
        boolean incompatible;
        if (type.equals("preempt/qos") || type.equals("preempt/partition_prio")) {
            effective.remove("within");
            incompatible = effective.isEmpty();
        } else {
            incompatible = type.equals("preempt/none") && !effective.isEmpty();
        }
        if (incompatible) {
            ConfEntry at = mode.orElseGet(() -> c.entry("PreemptType").orElseThrow());
            throw at.error("PreemptType and PreemptMode values incompatible");
        }
    }

    private static void time(SlurmConfReader.Collected c, String key, String message) throws ConfigException {
        Optional<ConfEntry> e = c.entry(key);
        if (e.isPresent()) {
            try {
                TimeLimit.parseMinutes(e.get().value());
            } catch (IllegalArgumentException ex) {
                throw e.get().error(String.format(message, e.get().value()));
            }
        }
    }

    private static void requires(SlurmConfReader.Collected c, String key, String needed, String message)
            throws ConfigException {
        Optional<ConfEntry> e = c.entry(key);
        if (e.isPresent() && c.entry(needed).isEmpty()) {
            throw e.get().error(String.format(message, e.get().value()));
        }
    }

    private static void jobIds(SlurmConfReader.Collected c) throws ConfigException {
        Optional<ConfEntry> first = c.entry("FirstJobId");
        if (first.isPresent() && ConfValues.num(first.get()) == 0) {
            throw first.get().error("FirstJobId cannot be zero");
        }
        long firstId = first.map(ConfValues::num).orElse(1L);
        Optional<ConfEntry> max = c.entry("MaxJobId");
        if (max.isPresent() && firstId > ConfValues.num(max.get())) {
            throw max.get().error("FirstJobId > MaxJobId");
        }
    }

    /** Slurm keeps the per-node form and logs that the per-CPU one is ignored. */
    private static void exclusive(SlurmConfReader.Collected c, String perCpu, String perNode) {
        Optional<ConfEntry> cpu = c.entry(perCpu);
        if (cpu.isPresent() && c.entry(perNode).isPresent()) {
            c.warnings.add(cpu.get().file() + ":" + cpu.get().line() + ": " + perCpu
                    + " ignored, since it's mutually exclusive with " + perNode);
            c.simple.remove(perCpu);
        }
    }
}
