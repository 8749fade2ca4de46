package dev.sluice.cli.command.sacct;

import dev.sluice.cli.UserDirectory;
import dev.sluice.cli.json.JsonWriter;
import dev.sluice.cli.json.SlurmEnvelope;
import dev.sluice.cli.view.JobStates;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code sacct --json}: Slurm 22.05's openapi/dbv0.0.38 job records. Member order follows the
 * 22.05 dumper (SchedMD/slurm src/plugins/openapi/dbv0.0.38/parse.c, parse_job and
 * parse_job_step): a path such as {@code time/elapsed} creates its object where its first member
 * is dumped, later members of that object join it there. Unset numbers print {@code null}
 * (NO_VAL), unset strings {@code null}. Records Sluice does not keep (CPU usage, energy, MCS,
 * reservations, scheduling flags) carry the values 22.05 prints for a job without them. Pure.
 */
final class SacctJson {
    // The ids slurmdbd gives the built-in TRES (a fresh database); GRES follow from 1001.
    private static final Map<String, Integer> TRES_IDS =
            Map.of("cpu", 1, "mem", 2, "energy", 3, "node", 4, "billing", 5, "fs/disk", 6, "vmem", 7, "pages", 8);

    private SacctJson() {}

    static String document(List<AccountedJob> jobs, long now, UserDirectory users) {
        JsonWriter w = SlurmEnvelope.openDb();
        w.name("jobs").beginArray();
        for (AccountedJob j : jobs) {
            job(w, j, now, users);
        }
        w.endArray();
        return w.endObject().toString();
    }

    private static void job(JsonWriter w, AccountedJob j, long now, UserDirectory users) {
        boolean array = j.getArrayJobId() != 0;
        w.beginObject();
        string(w, "account", j.getAccount());
        // Set only by sacctmgr modify job; null until then.
        w.name("comment").beginObject();
        string(w, "administrator", j.getAdminComment());
        string(w, "job", j.getComment());
        string(w, "system", j.getSystemComment());
        w.endObject();
        w.field("allocation_nodes", j.getNumNodes());
        w.name("array").beginObject();
        w.field("job_id", Integer.toUnsignedLong(j.getArrayJobId()));
        w.name("limits").beginObject().name("max").beginObject().name("running").beginObject();
        w.field("tasks", 0);
        w.endObject().endObject().endObject();
        w.nullField("task");
        if (array && j.getArrayTaskId() >= 0) {
            w.field("task_id", j.getArrayTaskId());
        } else {
            w.nullField("task_id");
        }
        w.endObject();
        w.name("association").beginObject();
        string(w, "account", j.getAccount());
        string(w, "cluster", j.getCluster());
        w.nullField("partition");
        string(w, "user", j.getUserName());
        w.endObject();
        string(w, "cluster", j.getCluster());
        w.nullField("constraints");
        w.nullField("container");
        exitCode(w.name("derived_exit_code"), j.getDerivedExitStatus());
        w.name("time").beginObject();
        w.field("elapsed", elapsed(j.getStartTime(), j.getEndTime(), now));
        w.field("eligible", j.getEligibleTime());
        w.field("end", j.getEndTime());
        w.field("start", j.getStartTime());
        w.field("submission", j.getSubmitTime());
        w.field("suspended", j.getSuspendedSeconds());
        cpuTime(w, "system");
        if (j.getTimeLimitMinutes() == 0 || j.getTimeLimitMinutes() == SlurmLimits.INFINITE32) {
            w.nullField("limit");
        } else {
            w.field("limit", Integer.toUnsignedLong(j.getTimeLimitMinutes()));
        }
        cpuTime(w, "total");
        cpuTime(w, "user");
        w.endObject();
        exitCode(w.name("exit_code"), j.getExitStatus());
        w.field("flags", List.of());
        string(w, "group", SacctValues.group(j, users));
        w.name("het").beginObject().field("job_id", 0).nullField("job_offset").endObject();
        w.field("job_id", Integer.toUnsignedLong(j.getJobId()));
        string(w, "name", j.getName());
        w.name("mcs").beginObject().nullField("label").endObject();
        w.field("nodes", j.getNodeList().isEmpty() ? "None assigned" : j.getNodeList());
        string(w, "partition", j.getPartition());
        w.nullField("priority");
        string(w, "qos", j.getQos());
        w.name("required").beginObject();
        w.field("CPUs", count(j.getReqTres(), "cpu"));
        w.field("memory", count(j.getReqTres(), "mem"));
        w.endObject();
        w.nullField("kill_request_user");
        // 22.05 dumps the reservation name with its number parser: 0 when there is none.
        w.name("reservation").beginObject().field("id", 0).field("name", 0).endObject();
        w.name("state").beginObject();
        w.field("current", JobStates.longName(j.getState()));
        w.field("reason", "None");
        w.endObject();
        w.name("steps").beginArray();
        for (AccountedStep s : j.getStepsList()) {
            step(w, j, s, now);
        }
        w.endArray();
        w.name("tres").beginObject();
        tres(w.name("allocated"), j.getAllocTres());
        tres(w.name("requested"), j.getReqTres());
        w.endObject();
        string(w, "user", j.getUserName());
        w.name("wckey")
                .beginObject()
                .field("wckey", "")
                .field("flags", List.of())
                .endObject();
        string(w, "working_directory", j.getWorkDir());
        w.endObject();
    }

    private static void step(JsonWriter w, AccountedJob j, AccountedStep s, long now) {
        List<String> hosts =
                s.getNodeList().isEmpty() ? List.of() : dev.sluice.common.hostlist.HostList.expand(s.getNodeList());
        w.beginObject();
        // The dumper writes nodes/list and the tres statistics before the step's own members.
        if (!hosts.isEmpty()) {
            w.name("nodes").beginObject();
            w.field("list", hosts);
            nodeCounts(w, s);
            w.endObject();
        }
        w.name("tres").beginObject();
        for (String direction : List.of("requested", "consumed")) {
            w.name(direction).beginObject();
            for (String stat : List.of("max", "min", "average", "total")) {
                w.name(stat).beginArray().endArray();
            }
            w.endObject();
        }
        tres(w.name("allocated"), s.getAllocTres());
        w.endObject();
        w.name("time").beginObject();
        w.field("elapsed", elapsed(s.getStartTime(), s.getEndTime(), now));
        w.field("end", s.getEndTime());
        w.field("start", s.getStartTime());
        w.field("suspended", 0);
        cpuTime(w, "system");
        cpuTime(w, "total");
        cpuTime(w, "user");
        w.endObject();
        exitCode(w.name("exit_code"), s.getExitStatus());
        if (hosts.isEmpty()) {
            w.name("nodes").beginObject();
            nodeCounts(w, s);
            w.endObject();
        }
        w.name("tasks").beginObject().field("count", s.getNumTasks()).endObject();
        w.nullField("pid");
        w.name("CPU").beginObject();
        w.name("requested_frequency")
                .beginObject()
                .nullField("min")
                .nullField("max")
                .endObject();
        w.field("governor", List.of());
        w.endObject();
        w.nullField("kill_request_user");
        w.field("state", JobStates.longName(s.getState()));
        w.name("statistics").beginObject();
        w.name("CPU").beginObject().field("actual_frequency", 0).endObject();
        w.name("energy").beginObject().field("consumed", 0).endObject();
        w.endObject();
        w.name("step").beginObject();
        w.field("job_id", Integer.toUnsignedLong(j.getJobId()));
        w.name("het").beginObject().nullField("component").endObject();
        w.name("id");
        switch (s.getStepId()) {
            case SacctRow.BATCH -> w.value("batch");
            case SacctRow.EXTERN -> w.value("extern");
            default -> w.value(Integer.toUnsignedLong(s.getStepId()));
        }
        string(w, "name", s.getName());
        w.endObject();
        w.name("task").beginObject();
        w.field("distribution", s.getStepId() == SacctRow.BATCH ? "Unknown" : "Block");
        w.endObject();
        w.endObject();
    }

    private static void nodeCounts(JsonWriter w, AccountedStep s) {
        w.field("count", s.getNumNodes());
        string(w, "range", s.getNodeList());
    }

    private static void string(JsonWriter w, String name, String value) {
        if (value.isEmpty()) {
            w.nullField(name);
        } else {
            w.field(name, value);
        }
    }

    private static void cpuTime(JsonWriter w, String name) {
        w.name(name).beginObject().field("seconds", 0).field("microseconds", 0).endObject();
    }

    private static long elapsed(long start, long end, long now) {
        if (start <= 0) {
            return 0;
        }
        return Math.max(0, (end > 0 ? end : now) - start);
    }

    /**
     * 22.05's exit-code object for a wait(2) status: {@code PENDING} for none, {@code SUCCESS}
     * with return code 0 for a normal exit (its dumper reports 0 whatever the code; the code
     * itself is in sacct's ExitCode column), {@code SIGNALED} with the signal's number and
     * strsignal(3) name, as parse.c's _dump_job_exit_code does.
     */
    static void exitCode(JsonWriter w, int status) {
        w.beginObject();
        int signal = status & 0x7f;
        if (signal == 0) {
            w.field("status", "SUCCESS").field("return_code", 0);
        } else if (signal != 0x7f) {
            w.field("status", "SIGNALED").nullField("return_code");
            w.name("signal").beginObject();
            w.field("signal_id", signal);
            w.field("name", signalName(signal));
            w.endObject();
        } else {
            w.field("status", "ERROR").field("return_code", (status >> 8) & 0xff);
        }
        w.endObject();
    }

    /** glibc's strsignal(3) text for the usual signals. */
    static String signalName(int signal) {
        return switch (signal) {
            case 1 -> "Hangup";
            case 2 -> "Interrupt";
            case 3 -> "Quit";
            case 4 -> "Illegal instruction";
            case 5 -> "Trace/breakpoint trap";
            case 6 -> "Aborted";
            case 7 -> "Bus error";
            case 8 -> "Floating point exception";
            case 9 -> "Killed";
            case 10 -> "User defined signal 1";
            case 11 -> "Segmentation fault";
            case 12 -> "User defined signal 2";
            case 13 -> "Broken pipe";
            case 14 -> "Alarm clock";
            case 15 -> "Terminated";
            case 17 -> "Child exited";
            case 18 -> "Continued";
            case 19 -> "Stopped (signal)";
            case 20 -> "Stopped";
            case 24 -> "CPU time limit exceeded";
            default -> "Unknown signal " + signal;
        };
    }

    /** A TRES string ({@code cpu=2,mem=1G,gres/gpu=1}) as the dumper's list of {type, name, id, count}. */
    private static void tres(JsonWriter w, String tres) {
        w.beginArray();
        int gres = 1001;
        for (String item : tres.isEmpty() ? List.<String>of() : List.of(tres.split(","))) {
            int eq = item.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String key = item.substring(0, eq);
            int slash = key.indexOf('/');
            String type = slash < 0 ? key : key.substring(0, slash);
            w.beginObject();
            w.field("type", type);
            if (slash < 0 || key.equals("fs/disk")) {
                w.nullField("name");
            } else {
                w.field("name", key.substring(slash + 1));
            }
            Integer id = TRES_IDS.get(key);
            w.field("id", id != null ? id : gres++);
            w.field("count", amount(type, item.substring(eq + 1)));
            w.endObject();
        }
        w.endArray();
    }

    private static long count(String tres, String key) {
        for (String item : tres.split(",")) {
            if (item.startsWith(key + "=")) {
                return amount(key, item.substring(key.length() + 1));
            }
        }
        return 0;
    }

    /** A TRES count; memory in megabytes, as slurmdbd stores it ({@code 8000M}, {@code 1G}). */
    static long amount(String type, String value) {
        String v = value.toUpperCase(Locale.ROOT);
        long scale = 1;
        if (!v.isEmpty() && Character.isLetter(v.charAt(v.length() - 1))) {
            scale = switch (v.charAt(v.length() - 1)) {
                case 'K' -> -1024;
                case 'M' -> 1;
                case 'G' -> 1024;
                case 'T' -> 1024L * 1024;
                case 'P' -> 1024L * 1024 * 1024;
                default -> 1;
            };
            v = v.substring(0, v.length() - 1);
        }
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            return 0;
        }
        if (!type.equals("mem") && !type.equals("vmem")) {
            return n;
        }
        return scale < 0 ? n / -scale : n * scale;
    }
}
