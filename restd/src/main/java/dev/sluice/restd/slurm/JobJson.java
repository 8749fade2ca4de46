package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.command.scancel.Signals;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;

/**
 * A job as v0.0.44's {@code job_info}: only the fields the controller knows; the rest are left
 * out rather than invented (the schema requires none of them).
 */
public final class JobJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private JobJson() {}

    static ObjectNode of(JobInfo job) {
        JobSpec spec = job.getSpec();
        ObjectNode o = F.objectNode();
        o.put("account", spec.getAccount());
        o.set("accrue_time", Numbers.set(job.getAccrueTime()));
        o.put("allocating_node", job.getAllocNode());
        o.set("array_job_id", Numbers.set(job.getArrayJobId()));
        o.set("array_task_id", job.getArrayJobId() == 0 ? Numbers.unset() : Numbers.set(job.getArrayTaskId()));
        o.put("array_task_string", job.getArrayTaskStr());
        o.put("batch_flag", !spec.getScript().isEmpty());
        o.put("batch_host", job.getBatchHost());
        o.put("command", spec.getCommand());
        o.put("comment", spec.getComment());
        o.set("cpus_per_task", Numbers.setIfPositive(spec.getCpusPerTask()));
        o.put("dependency", job.getDependency());
        o.set("derived_exit_code", exitCode(job.getState(), 0));
        o.set("eligible_time", Numbers.set(job.getEligibleTime()));
        o.set("end_time", Numbers.set(job.getEndTime()));
        o.put("excluded_nodes", spec.getExcludeNodes());
        o.set("exit_code", exitCode(job.getState(), job.getExitStatus()));
        o.put("features", spec.getConstraint());
        o.put("group_id", spec.getOwner().getGid());
        o.put("job_id", job.getJobId());
        o.set("job_state", states(job));
        o.set("last_sched_evaluation", Numbers.set(job.getLastSchedEval()));
        o.put("mail_user", spec.getMailUser());
        o.set("max_nodes", Numbers.setIfPositive(spec.getMaxNodes()));
        o.put("name", spec.getName());
        o.put("nodes", job.getNodeList());
        o.put("nice", spec.getNice());
        o.set("cpus", Numbers.setIfPositive(job.getNumCpus()));
        o.set("node_count", Numbers.setIfPositive(job.getNumNodes()));
        o.set("tasks", Numbers.setIfPositive(spec.getNumTasks()));
        o.put("partition", job.getPartition());
        o.set("memory_per_cpu", Numbers.setIfPositive(spec.getMemPerCpuMb()));
        o.set("memory_per_node", Numbers.setIfPositive(job.getMemPerNodeMb()));
        o.set("pre_sus_time", Numbers.set(job.getPreSuspendSeconds()));
        o.put("hold", !job.getHold().isEmpty());
        o.set("priority", Numbers.set(job.getPriority()));
        o.put("qos", spec.getQos());
        o.put("required_nodes", spec.getReqNodes());
        o.put("requeue", job.getRequeue());
        o.put("restart_cnt", job.getRestartCount());
        o.put("state_description", job.getReasonDetail());
        o.put("state_reason", job.getReason().isEmpty() ? "None" : job.getReason());
        o.put("standard_input", job.getStdIn());
        o.put("standard_output", job.getStdOut());
        o.put("standard_error", job.getStdErr());
        o.set("start_time", Numbers.set(job.getStartTime()));
        o.set("submit_time", Numbers.set(job.getSubmitTime()));
        o.set("suspend_time", Numbers.set(job.getSuspendTime()));
        o.set("time_limit", Numbers.limit32(job.getTimeLimitMinutes()));
        o.put("tres_per_node", job.getTresPerNode());
        o.put("tres_req_str", job.getReqTres());
        o.put("tres_alloc_str", job.getAllocTres());
        o.put("user_id", spec.getOwner().getUid());
        o.put("user_name", spec.getOwner().getUserName());
        o.put("current_working_directory", job.getWorkDir());
        return o;
    }

    /** {@code job_state}: the base state, and COMPLETING while its processes are still being killed. */
    static ArrayNode states(JobInfo job) {
        ArrayNode states = F.arrayNode().add(stateName(job.getState()));
        if (job.getCompleting()) {
            states.add("COMPLETING");
        }
        return states;
    }

    /** Slurm's base state names are the enum's names, JOB_STATE_UNSPECIFIED aside. */
    public static String stateName(JobState state) {
        return switch (state) {
            case JOB_STATE_UNSPECIFIED, UNRECOGNIZED -> "PENDING";
            default -> state.name();
        };
    }

    /**
     * {@code process_exit_code_verbose} from a wait(2) status: a pending or running job has
     * none yet (status PENDING), else SIGNALED with the signal or SUCCESS/ERROR with the code.
     */
    public static ObjectNode exitCode(JobState state, int waitStatus) {
        ObjectNode o = F.objectNode();
        ArrayNode status = o.putArray("status");
        int signal = waitStatus & 0x7f;
        int code = (waitStatus >> 8) & 0xff;
        if (state == JobState.PENDING || state == JobState.RUNNING || state == JobState.SUSPENDED) {
            status.add("PENDING");
            o.set("return_code", Numbers.unset());
        } else if (signal != 0) {
            status.add("SIGNALED");
            o.set("return_code", Numbers.set(code));
            ObjectNode sig = o.putObject("signal");
            sig.set("id", Numbers.set(signal));
            sig.put("name", Signals.name(signal).orElse(Integer.toString(signal)));
        } else {
            status.add(code == 0 ? "SUCCESS" : "ERROR");
            o.set("return_code", Numbers.set(code));
        }
        return o;
    }
}
