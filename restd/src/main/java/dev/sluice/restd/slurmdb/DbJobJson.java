package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.common.slurm.StepIds;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AccountedStep;
import dev.sluice.restd.slurm.JobJson;
import dev.sluice.restd.slurm.Numbers;
import java.util.Map;

/**
 * An accounted job as the {@code job} of {@code /slurmdb/}: what sacct shows, grouped as the
 * data parser groups it ({@code time}, {@code state}, {@code tres}, {@code steps}). Fields the
 * database does not keep are left out rather than made up.
 */
final class DbJobJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private DbJobJson() {}

    /** @param tresIds the database's TRES ids by name ({@code cpu} 1, {@code gres/gpu} 1001, ...) */
    static ObjectNode of(AccountedJob j, Map<String, Integer> tresIds, long now) {
        ObjectNode o = F.objectNode();
        o.put("account", j.getAccount());
        o.put("allocation_nodes", j.getNumNodes());
        ObjectNode array = o.putObject("array");
        array.put("job_id", j.getArrayJobId());
        array.set(
                "task_id",
                j.getArrayJobId() == 0 || j.getArrayTaskId() < 0 ? Numbers.unset() : Numbers.set(j.getArrayTaskId()));
        array.put("task", arrayTask(j));
        ObjectNode assoc = o.putObject("association");
        assoc.put("account", j.getAccount());
        assoc.put("cluster", j.getCluster());
        assoc.put("partition", j.getPartition());
        assoc.put("user", j.getUserName());
        assoc.put("id", j.getAssocId());
        o.put("cluster", j.getCluster());
        // Set by sacctmgr modify job or POST job/{id}; empty until then.
        o.putObject("comment")
                .put("administrator", j.getAdminComment())
                .put("job", j.getComment())
                .put("system", j.getSystemComment());
        o.put("constraints", j.getConstraints());
        o.set("derived_exit_code", JobJson.exitCode(j.getState(), j.getDerivedExitStatus()));
        o.set("exit_code", JobJson.exitCode(j.getState(), j.getExitStatus()));
        ObjectNode time = o.putObject("time");
        time.put("elapsed", elapsed(j.getStartTime(), j.getEndTime(), now));
        time.put("eligible", j.getEligibleTime());
        time.put("end", j.getEndTime());
        time.put("start", j.getStartTime());
        time.put("submission", j.getSubmitTime());
        time.set("limit", Numbers.limit32(j.getTimeLimitMinutes()));
        o.put("group", j.getGroupName());
        o.put("job_id", j.getJobId());
        o.put("name", j.getName());
        o.put("nodes", j.getNodeList().isEmpty() ? "None assigned" : j.getNodeList());
        o.put("partition", j.getPartition());
        o.set("priority", Numbers.set(j.getPriority()));
        o.put("qos", j.getQos());
        o.putObject("required").put("CPUs", j.getReqCpus());
        if (j.hasCancelledBy()) {
            o.put("kill_request_user", Integer.toUnsignedString(j.getCancelledBy()));
        }
        ObjectNode state = o.putObject("state");
        state.putArray("current").add(JobJson.stateName(j.getState()));
        state.put("reason", j.getReason().isEmpty() ? "None" : j.getReason());
        ObjectNode tres = o.putObject("tres");
        tres.set("allocated", tresList(j.getAllocTres(), tresIds));
        tres.set("requested", tresList(j.getReqTres(), tresIds));
        o.put("user", j.getUserName());
        o.put("working_directory", j.getWorkDir());
        ArrayNode steps = o.putArray("steps");
        j.getStepsList().forEach(s -> steps.add(step(j, s, tresIds, now)));
        return o;
    }

    private static ObjectNode step(AccountedJob j, AccountedStep s, Map<String, Integer> tresIds, long now) {
        ObjectNode o = F.objectNode();
        ObjectNode time = o.putObject("time");
        time.put("elapsed", elapsed(s.getStartTime(), s.getEndTime(), now));
        time.set("end", Numbers.set(s.getEndTime()));
        time.set("start", Numbers.set(s.getStartTime()));
        o.set("exit_code", JobJson.exitCode(s.getState(), s.getExitStatus()));
        ObjectNode nodes = o.putObject("nodes");
        nodes.put("count", s.getNumNodes());
        nodes.put("range", s.getNodeList());
        o.putObject("tasks").put("count", s.getNumTasks());
        o.putArray("state").add(JobJson.stateName(s.getState()));
        ObjectNode step = o.putObject("step");
        step.put("id", Integer.toUnsignedString(j.getJobId()) + "." + StepIds.name(s.getStepId()));
        step.put("name", s.getName());
        o.putObject("tres").set("allocated", tresList(s.getAllocTres(), tresIds));
        return o;
    }

    /** {@code cpu=2,mem=1G,gres/gpu=1} as {@code [{type: cpu, name: "", id: 1, count: 2}, ...]}; memory in MB. */
    static ArrayNode tresList(String text, Map<String, Integer> tresIds) {
        ArrayNode list = F.arrayNode();
        Tres tres;
        try {
            tres = Tres.parse(text);
        } catch (IllegalArgumentException e) {
            return list;
        }
        for (String name : tres.orderedNames()) {
            int slash = name.indexOf('/');
            ObjectNode t = list.addObject();
            t.put("type", slash < 0 ? name : name.substring(0, slash));
            t.put("name", slash < 0 ? "" : name.substring(slash + 1));
            t.put("id", tresIds.getOrDefault(name, 0));
            t.put("count", tres.get(name));
        }
        return list;
    }

    /** Seconds run: to the end, or to now while running; 0 before the start. */
    private static long elapsed(long start, long end, long now) {
        if (start <= 0) {
            return 0;
        }
        return Math.max(0, (end > 0 ? end : now) - start);
    }

    private static String arrayTask(AccountedJob j) {
        if (j.getArrayJobId() == 0) {
            return "";
        }
        String display = j.getDisplayId();
        int underscore = display.indexOf('_');
        return underscore < 0 ? "" : display.substring(underscore + 1);
    }
}
