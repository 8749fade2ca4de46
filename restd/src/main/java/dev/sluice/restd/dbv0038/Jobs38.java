package dev.sluice.restd.dbv0038;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.UserDirectory;
import dev.sluice.common.hostlist.HostList;
import dev.sluice.common.slurm.StepIds;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.restd.slurm.JobJson;
import java.util.List;

/**
 * A job as accounting keeps it, in dbv0.0.38's shape (compat 154). What 22.05 prints whatever
 * the job did is printed so: no comment, container, het job, MCS label or wckey; a reservation
 * as {@code {id: 0, name: 0}}; exit codes as {@code SUCCESS} with 0 (22.05's parser prints a job
 * or step that exited 3 so, while sacct shows 3:0). CPU times are zero: sluice-dbd keeps none
 * (the suite masks slurmdbd's measured ones).
 */
final class Jobs38 {
    private Jobs38() {}

    static ObjectNode of(AccountedJob j, List<TresEntry> tres, UserDirectory users) {
        ObjectNode o = DbEnvelope38.F.objectNode();
        // A job whose user had no association in the database has no account or user here.
        boolean associated = j.getAssocId() != 0;
        Assoc38.nullable(o, "account", associated ? j.getAccount() : "");
        o.put("allocation_nodes", j.getNumNodes());
        ObjectNode array = o.putObject("array");
        array.put("job_id", j.getArrayJobId());
        array.putObject("limits").putObject("max").putObject("running").put("tasks", 0);
        boolean task = j.getArrayJobId() != 0 && j.getArrayTaskId() >= 0;
        if (task) {
            array.put("task", Integer.toString(j.getArrayTaskId()));
            array.put("task_id", j.getArrayTaskId());
        } else {
            array.putNull("task");
            array.putNull("task_id");
        }
        if (associated) {
            ObjectNode assoc = o.putObject("association");
            assoc.put("account", j.getAccount());
            assoc.put("cluster", j.getCluster());
            assoc.putNull("partition");
            assoc.put("user", j.getUserName());
        } else {
            o.putNull("association");
        }
        o.put("cluster", j.getCluster());
        ObjectNode comment = o.putObject("comment");
        // null until sacctmgr modify job sets one, as slurmrestd 22.05 prints an unset string.
        text(comment, "administrator", j.getAdminComment());
        text(comment, "job", j.getComment());
        text(comment, "system", j.getSystemComment());
        o.put("constraints", j.getConstraints());
        o.putNull("container");
        o.set("derived_exit_code", exitCode());
        o.set("exit_code", exitCode());
        ArrayNode flags = o.putArray("flags");
        flags.add("CLEAR_SCHEDULING");
        if (j.getStartTime() > 0) {
            flags.add("STARTED_ON_SCHEDULE");
        }
        o.put("group", group(j, users));
        ObjectNode het = o.putObject("het");
        het.put("job_id", 0);
        het.putNull("job_offset");
        o.put("job_id", j.getJobId());
        o.putNull("kill_request_user");
        o.putObject("mcs").put("label", "");
        o.put("name", j.getName());
        o.put("nodes", j.getNodeList().isEmpty() ? "None assigned" : j.getNodeList());
        o.put("partition", j.getPartition());
        o.put("priority", Integer.toUnsignedLong(j.getPriority()));
        o.put("qos", j.getQos());
        o.putObject("required").put("CPUs", j.getReqCpus()).put("memory", 0);
        o.putObject("reservation").put("id", 0).put("name", 0);
        ObjectNode state = o.putObject("state");
        state.put("current", JobJson.stateName(j.getState()));
        state.put("reason", j.getReason().isEmpty() ? "None" : j.getReason());
        ArrayNode steps = o.putArray("steps");
        j.getStepsList().forEach(s -> steps.add(step(j, s, tres)));
        ObjectNode time = o.putObject("time");
        time.put("elapsed", elapsed(j.getStartTime(), j.getEndTime()));
        time.put("eligible", j.getEligibleTime());
        time.put("end", j.getEndTime());
        time.put("limit", j.getTimeLimitMinutes());
        time.put("start", j.getStartTime());
        time.put("submission", j.getSubmitTime());
        time.put("suspended", 0);
        cpuTimes(time);
        ObjectNode jobTres = o.putObject("tres");
        ArrayNode allocated = Tres38.list(j.getAllocTres(), tres);
        if (j.getStartTime() > 0) {
            // slurmdbd keeps the energy a job used, unknown (null) where nothing measured it.
            tres.stream().filter(t -> t.getType().equals("energy")).findFirst().ifPresent(energy -> {
                allocated.insert(position(allocated, energy.getId()), Tres38.entry(energy, null));
            });
        }
        jobTres.set("allocated", allocated);
        jobTres.set("requested", Tres38.list(j.getReqTres(), tres));
        Assoc38.nullable(o, "user", associated ? j.getUserName() : "");
        // 22.05's parser shows a wckey taken by default (*NAME) as NAME, flagged (compat 218).
        ObjectNode wckey = o.putObject("wckey");
        boolean byDefault = j.getWckey().startsWith("*");
        var wckeyFlags = wckey.putArray("flags");
        if (byDefault) {
            wckeyFlags.add("ASSIGNED_DEFAULT");
        }
        wckey.put("wckey", byDefault ? j.getWckey().substring(1) : j.getWckey());
        o.put("working_directory", j.getWorkDir());
        return o;
    }

    private static ObjectNode step(AccountedJob j, AccountedStep s, List<TresEntry> tres) {
        ObjectNode o = DbEnvelope38.F.objectNode();
        ObjectNode cpu = o.putObject("CPU");
        cpu.putArray("governor");
        cpu.putObject("requested_frequency").put("max", 0).put("min", 0);
        o.set("exit_code", exitCode());
        o.putNull("kill_request_user");
        ObjectNode nodes = o.putObject("nodes");
        nodes.put("count", s.getNumNodes());
        ArrayNode list = nodes.putArray("list");
        if (!s.getNodeList().isEmpty()) {
            HostList.expand(s.getNodeList()).forEach(list::add);
        }
        nodes.put("range", s.getNodeList());
        o.putNull("pid");
        o.put("state", JobJson.stateName(s.getState()));
        ObjectNode statistics = o.putObject("statistics");
        statistics.putObject("CPU").put("actual_frequency", 0);
        statistics.putObject("energy").put("consumed", 0);
        ObjectNode step = o.putObject("step");
        step.putObject("het").putNull("component");
        step.put("id", StepIds.name(s.getStepId()));
        step.put("job_id", j.getJobId());
        step.put("name", s.getName());
        o.putObject("task").put("distribution", "Unknown");
        o.putObject("tasks").put("count", s.getNumTasks());
        ObjectNode time = o.putObject("time");
        time.put("elapsed", elapsed(s.getStartTime(), s.getEndTime()));
        time.put("end", s.getEndTime());
        time.put("start", s.getStartTime());
        time.put("suspended", 0);
        cpuTimes(time);
        ObjectNode stepTres = o.putObject("tres");
        stepTres.set("allocated", Tres38.list(s.getAllocTres(), tres));
        // Of what a step used, slurmdbd keeps the energy here (none measured: 0).
        stepTres.set("consumed", usage(tres));
        stepTres.set("requested", usage(tres));
        return o;
    }

    /** The group the job ran as, by name where the database kept none (as sacct names it). */
    private static String group(AccountedJob j, UserDirectory users) {
        if (!j.getGroupName().isEmpty()) {
            return j.getGroupName();
        }
        long gid = Integer.toUnsignedLong(j.getGid());
        return users.groupName(gid).orElse(Long.toString(gid));
    }

    private static ObjectNode usage(List<TresEntry> tres) {
        ObjectNode o = DbEnvelope38.F.objectNode();
        ArrayNode average = o.putArray("average");
        o.putArray("max");
        o.putArray("min");
        ArrayNode total = o.putArray("total");
        tres.stream().filter(t -> t.getType().equals("energy")).findFirst().ifPresent(energy -> {
            average.add(Tres38.entry(energy, 0L));
            total.add(Tres38.entry(energy, 0L));
        });
        return o;
    }

    private static int position(ArrayNode sorted, int id) {
        int i = 0;
        while (i < sorted.size() && sorted.get(i).get("id").asInt() < id) {
            i++;
        }
        return i;
    }

    private static void cpuTimes(ObjectNode time) {
        for (String k : List.of("system", "total", "user")) {
            time.putObject(k).put("microseconds", 0).put("seconds", 0);
        }
    }

    private static ObjectNode exitCode() {
        return DbEnvelope38.F.objectNode().put("return_code", 0).put("status", "SUCCESS");
    }

    private static long elapsed(long start, long end) {
        return start > 0 && end >= start ? end - start : 0;
    }

    private static void text(ObjectNode o, String name, String value) {
        if (value.isEmpty()) {
            o.putNull(name);
        } else {
            o.put(name, value);
        }
    }
}
