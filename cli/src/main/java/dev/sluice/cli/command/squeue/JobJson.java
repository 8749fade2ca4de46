package dev.sluice.cli.command.squeue;

import dev.sluice.cli.json.JsonWriter;
import dev.sluice.cli.json.SlurmEnvelope;
import dev.sluice.cli.view.JobStates;
import dev.sluice.cli.view.JobView;
import dev.sluice.common.hostlist.IndexRanges;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.v1.GresGrant;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeGres;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code squeue --json}: Slurm 22.05's data_parser v0.0.38 job records, members in the order
 * 22.05.8 prints them (observed: {@code squeue --json} on the real-slurm cluster, 2026-11-29).
 * Members for things Sluice does not have (federation, burst buffers, heterogeneous jobs, ...)
 * carry the value 22.05 prints when they are unset: {@code ""}, {@code 0} or {@code null}.
 * Times are epoch seconds, 0 when not reached; {@code exit_code} is the raw wait status
 * (exit 3 prints 768), as in 22.05. Pure.
 */
final class JobJson {
    private JobJson() {}

    static String document(List<JobView> jobs, String clusterName) {
        JsonWriter w = SlurmEnvelope.open();
        w.name("jobs").beginArray();
        for (JobView j : jobs) {
            job(w, j, clusterName);
        }
        w.endArray();
        return w.endObject().toString();
    }

    private static void job(JsonWriter w, JobView j, String cluster) {
        JobInfo info = j.info();
        JobSpec spec = j.spec();
        boolean started = info.getStartTime() > 0 && info.getState() != JobState.PENDING;
        w.beginObject();
        w.field("account", spec.getAccount());
        w.field("accrue_time", info.getAccrueTime());
        w.field("admin_comment", "");
        w.field("array_job_id", Integer.toUnsignedLong(info.getArrayJobId()));
        if (j.isArray() && info.getArrayTaskId() >= 0) {
            w.field("array_task_id", info.getArrayTaskId());
        } else {
            w.nullField("array_task_id");
        }
        w.field("array_max_tasks", j.arrayThrottle().orElse(0));
        w.field("array_task_string", j.isArray() && info.getArrayTaskId() < 0 ? info.getArrayTaskStr() : "");
        w.field("association_id", 0);
        w.field("batch_features", "");
        w.field("batch_flag", true);
        w.field("batch_host", info.getBatchHost());
        w.field("flags", started ? List.of("JOB_WAS_RUNNING") : List.of());
        w.field("burst_buffer", "");
        w.field("burst_buffer_state", "");
        w.field("cluster", cluster);
        w.field("cluster_features", "");
        w.field("command", spec.getCommand());
        w.field("comment", spec.getComment());
        w.field("container", "");
        w.field("contiguous", false);
        w.nullField("core_spec");
        w.nullField("thread_spec");
        w.nullField("cores_per_socket");
        if (started) {
            w.name("billable_tres").value((double) j.cpuCount());
        } else {
            w.nullField("billable_tres");
        }
        unsetIfZero(w, "cpus_per_task", spec.getCpusPerTask());
        w.nullField("cpu_frequency_minimum");
        w.nullField("cpu_frequency_maximum");
        w.nullField("cpu_frequency_governor");
        w.field("cpus_per_tres", j.cpusPerTres());
        w.field("deadline", 0);
        w.field("delay_boot", 0);
        w.field("dependency", spec.getDependency());
        w.field("derived_exit_code", 0);
        w.field("eligible_time", info.getEligibleTime());
        w.field("end_time", j.endTime());
        w.field("excluded_nodes", spec.getExcludeNodes());
        w.field("exit_code", info.getExitStatus());
        w.field("features", spec.getConstraint());
        w.field("federation_origin", "");
        w.field("federation_siblings_active", "");
        w.field("federation_siblings_viable", "");
        w.field("gres_detail", gresDetail(info.getNodeGresList()));
        w.field("group_id", j.gid());
        w.field("group_name", j.groupName());
        w.field("job_id", Integer.toUnsignedLong(info.getJobId()));
        if (!info.getNodeList().isEmpty() && JobStates.isActive(info.getState()) && started) {
            w.name("job_resources").beginObject();
            w.field("nodes", j.nodeList());
            w.field("allocated_cores", j.cpuCount());
            w.field("allocated_hosts", j.nodeCount());
            w.endObject();
        }
        w.field("job_state", JobStates.longName(info.getState()));
        w.field("last_sched_evaluation", info.getLastSchedEval());
        w.field("licenses", spec.getLicenses());
        w.field("max_cpus", 0);
        w.field("max_nodes", Integer.toUnsignedLong(spec.getMaxNodes()));
        w.field("mcs_label", "");
        w.field("memory_per_tres", j.memPerTres());
        w.field("name", j.name());
        w.field("nodes", info.getNodeList().isEmpty() ? "" : j.nodeList());
        if (spec.getNice() != 0) {
            w.field("nice", spec.getNice());
        } else {
            w.nullField("nice");
        }
        w.nullField("tasks_per_core");
        w.field("tasks_per_node", Integer.toUnsignedLong(spec.getNtasksPerNode()));
        w.nullField("tasks_per_socket");
        w.field("tasks_per_board", 0);
        if (started || info.getState() == JobState.PENDING) {
            w.field("cpus", j.cpuCount());
        } else {
            w.nullField("cpus");
        }
        w.field("node_count", j.nodeCount());
        w.field("tasks", Math.max(1, Integer.toUnsignedLong(spec.getNumTasks())));
        w.field("het_job_id", 0);
        w.field("het_job_id_set", "");
        w.field("het_job_offset", 0);
        w.field("partition", j.partition());
        w.field("prefer", "");
        unsetIfZero(w, "memory_per_node", spec.getMemPerNodeMb());
        unsetIfZero(w, "memory_per_cpu", spec.getMemPerCpuMb());
        w.field("minimum_cpus_per_node", j.minCpusPerNode());
        w.field("minimum_tmp_disk_per_node", 0);
        w.field("preempt_time", 0);
        w.field("pre_sus_time", 0);
        w.field("priority", Integer.toUnsignedLong(info.getPriority()));
        w.nullField("profile");
        w.field("qos", spec.getQos());
        w.field("reboot", false);
        w.field("required_nodes", spec.getReqNodes());
        w.field("requeue", info.getRequeue());
        w.field("resize_time", 0);
        w.field("restart_cnt", Integer.toUnsignedLong(info.getRestartCount()));
        w.field("resv_name", "");
        if (spec.getExclusive()) {
            w.field("shared", "none");
        } else {
            w.nullField("shared");
        }
        w.field("show_flags", List.of("SHOW_ALL", "SHOW_DETAIL", "SHOW_LOCAL"));
        w.field("sockets_per_board", 0);
        w.nullField("sockets_per_node");
        w.field("start_time", info.getStartTime());
        w.field("state_description", info.getReasonDetail());
        w.field("state_reason", j.reason());
        // 22.05 shows the paths as given to sbatch, "" when the default slurm-%j.out applies.
        w.field("standard_error", spec.getStdErr());
        w.field("standard_input", spec.getStdIn().isEmpty() ? "/dev/null" : spec.getStdIn());
        w.field("standard_output", spec.getStdOut());
        w.field("submit_time", info.getSubmitTime());
        w.field("suspend_time", info.getSuspendTime());
        w.field("system_comment", "");
        long limit = j.timeLimitMinutes();
        w.field("time_limit", limit == TimeLimit.NOT_SET || limit < 0 ? SlurmLimits.INFINITE : limit);
        w.field("time_minimum", 0);
        w.nullField("threads_per_core");
        w.field("tres_bind", "");
        w.field("tres_freq", "");
        w.field("tres_per_job", j.tresPerJob());
        String perNode = j.tresPerNode();
        w.field("tres_per_node", perNode.equals("N/A") ? "" : perNode);
        w.field("tres_per_socket", "");
        w.field("tres_per_task", j.tresPerTask());
        w.field("tres_req_str", info.getReqTres());
        w.field("tres_alloc_str", info.getAllocTres());
        w.field("user_id", j.uid());
        w.field("user_name", j.userName());
        w.field("wckey", "");
        w.field("current_working_directory", j.workDir());
        w.endObject();
    }

    // 22.05 prints "unset" numbers (NO_VAL and friends) as null.
    private static void unsetIfZero(JsonWriter w, String name, long value) {
        if (value == 0) {
            w.nullField(name);
        } else {
            w.field(name, value);
        }
    }

    /** One string per allocated node: {@code gpu:1(IDX:0)}, {@code gpu:a100:2(IDX:0-1)}. */
    static List<String> gresDetail(List<NodeGres> nodes) {
        List<String> out = new ArrayList<>();
        for (NodeGres n : nodes) {
            List<String> parts = new ArrayList<>();
            for (GresGrant g : n.getGrantsList()) {
                String name = g.getType().isEmpty() ? g.getName() : g.getName() + ":" + g.getType();
                String idx = g.getIndicesCount() == 0 ? "N/A" : IndexRanges.format(g.getIndicesList());
                parts.add(name + ":" + g.getCount() + "(IDX:" + idx + ")");
            }
            if (!parts.isEmpty()) {
                out.add(String.join(",", parts));
            }
        }
        return out;
    }
}
