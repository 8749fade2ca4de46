package dev.sluice.restd.v0038;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.view.GresText;
import dev.sluice.cli.view.JobView;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeGres;
import dev.sluice.protocol.v1.NodeInfo;
import java.util.Map;

/**
 * A job as slurmrestd 22.05 lists it (v0.0.38 {@code job_response_properties}): the values
 * scontrol show job prints, flat, NO_VAL as {@code null}. Fields of Slurm features Sluice does
 * not have (federation, heterogeneous jobs, burst buffers, containers) carry their unset values.
 */
final class Job38 {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Job38() {}

    /** @param nodes the cluster's nodes, for the sockets and cores of the job's CPUs */
    static ObjectNode of(JobView v, String cluster, Map<String, NodeInfo> nodes) {
        JobInfo job = v.info();
        JobSpec spec = v.spec();
        ObjectNode o = F.objectNode();
        o.put("account", spec.getAccount());
        o.put("accrue_time", job.getAccrueTime());
        o.put("admin_comment", "");
        o.put("array_job_id", job.getArrayJobId());
        if (job.getArrayJobId() == 0 || job.getArrayTaskId() < 0) {
            o.putNull("array_task_id");
        } else {
            o.put("array_task_id", job.getArrayTaskId());
        }
        o.put("array_max_tasks", v.arrayThrottle().orElse(0));
        o.put("array_task_string", job.getArrayTaskStr());
        o.put("association_id", 0);
        o.put("batch_features", "");
        o.put("batch_flag", job.getBatchFlag());
        o.put("batch_host", job.getBatchHost());
        ArrayNode flags = o.putArray("flags");
        if (job.getState() == JobState.RUNNING || job.getState() == JobState.SUSPENDED) {
            flags.add("JOB_WAS_RUNNING");
        }
        o.put("burst_buffer", "");
        o.put("burst_buffer_state", "");
        o.put("cluster", cluster);
        o.put("cluster_features", "");
        o.put("command", spec.getCommand());
        o.put("comment", spec.getComment());
        o.put("container", "");
        o.put("contiguous", false);
        o.putNull("core_spec");
        o.putNull("thread_spec");
        o.putNull("cores_per_socket");
        if (job.getAllocTres().isEmpty()) {
            o.putNull("billable_tres"); // computed when the job starts
        } else {
            o.put("billable_tres", billable(job));
        }
        positiveOrNull(o, "cpus_per_task", spec.getCpusPerTask());
        o.putNull("cpu_frequency_minimum");
        o.putNull("cpu_frequency_maximum");
        o.putNull("cpu_frequency_governor");
        o.put("cpus_per_tres", v.cpusPerTres());
        o.put("deadline", 0);
        o.put("delay_boot", 0);
        o.put("dependency", job.getDependency());
        o.put("derived_exit_code", job.getDerivedExitStatus());
        o.put("eligible_time", job.getEligibleTime());
        o.put("end_time", endTime(v));
        o.put("excluded_nodes", spec.getExcludeNodes());
        o.put("exit_code", job.getExitStatus());
        o.put("features", spec.getConstraint());
        o.put("federation_origin", "");
        o.put("federation_siblings_active", "");
        o.put("federation_siblings_viable", "");
        ArrayNode gres = o.putArray("gres_detail");
        if (job.getState() == JobState.RUNNING || job.getState() == JobState.SUSPENDED) {
            for (NodeGres held : job.getNodeGresList()) {
                if (held.getGrantsCount() > 0) {
                    gres.add(GresText.ofNode(held.getGrantsList()));
                }
            }
        }
        o.put("group_id", v.gid());
        o.put("group_name", v.groupName());
        o.put("job_id", job.getJobId());
        if (!job.getNodeList().isEmpty()) {
            o.set("job_resources", resources(job, nodes));
        }
        o.put("job_state", JobView.orNull(v.stateName()));
        o.put("last_sched_evaluation", job.getLastSchedEval());
        o.put("licenses", spec.getLicenses());
        o.put("max_cpus", 0);
        // A pending job shows the maximum it asked for; one that started, none (as 22.05 does).
        o.put("max_nodes", job.getState() == JobState.PENDING ? spec.getMaxNodes() : 0);
        o.put("mcs_label", "");
        o.put("memory_per_tres", v.memPerTres());
        o.put("name", spec.getName());
        o.put("nodes", job.getNodeList());
        if (spec.getNice() == 0) {
            o.putNull("nice");
        } else {
            o.put("nice", spec.getNice());
        }
        o.putNull("tasks_per_core");
        o.put("tasks_per_node", spec.getNtasksPerNode());
        o.putNull("tasks_per_socket");
        o.put("tasks_per_board", 0);
        o.put("cpus", v.cpuCount());
        o.put("node_count", v.nodeCount());
        o.put("tasks", Math.max(1, spec.getNumTasks()));
        o.put("het_job_id", 0);
        o.put("het_job_id_set", "");
        o.put("het_job_offset", 0);
        o.put("partition", v.partition());
        o.put("prefer", "");
        positiveOrNull(o, "memory_per_node", spec.getMemPerNodeMb());
        positiveOrNull(o, "memory_per_cpu", spec.getMemPerCpuMb());
        o.put("minimum_cpus_per_node", v.minCpusPerNode());
        o.put("minimum_tmp_disk_per_node", 0);
        o.put("preempt_time", 0);
        o.put("pre_sus_time", job.getPreSuspendSeconds());
        o.put("priority", Integer.toUnsignedLong(job.getPriority()));
        o.putNull("profile");
        o.put("qos", spec.getQos());
        o.put("reboot", false);
        o.put("required_nodes", spec.getReqNodes());
        o.put("requeue", job.getRequeue());
        o.put("resize_time", 0);
        o.put("restart_cnt", job.getRestartCount());
        o.put("resv_name", spec.getReservation());
        o.putNull("shared");
        o.putArray("show_flags").add("SHOW_ALL").add("SHOW_DETAIL").add("SHOW_LOCAL");
        o.put("sockets_per_board", 0);
        o.putNull("sockets_per_node");
        o.put("start_time", job.getStartTime());
        o.put("state_description", job.getReasonDetail());
        o.put("state_reason", v.reason());
        o.put("standard_error", spec.getStdErr());
        o.put("standard_input", spec.getStdIn());
        o.put("standard_output", spec.getStdOut());
        o.put("submit_time", job.getSubmitTime());
        o.put("suspend_time", job.getSuspendTime());
        o.put("system_comment", "");
        Cluster38.minutesOrNull(o, "time_limit", job.getTimeLimitMinutes());
        o.put("time_minimum", 0);
        o.putNull("threads_per_core");
        o.put("tres_bind", "");
        o.put("tres_freq", "");
        o.put("tres_per_job", v.tresPerJob());
        o.put("tres_per_node", v.tresPerNode().equals("N/A") ? "" : v.tresPerNode());
        o.put("tres_per_socket", "");
        o.put("tres_per_task", v.tresPerTask());
        o.put("tres_req_str", job.getReqTres());
        o.put("tres_alloc_str", job.getAllocTres());
        o.put("user_id", v.uid());
        o.put("user_name", v.userName());
        o.put("wckey", "");
        o.put("current_working_directory", v.workDir());
        return o;
    }

    /** A pending job with an expected start is expected to end one time limit later. */
    private static long endTime(JobView v) {
        long limit = v.timeLimitMinutes();
        if (v.state() == JobState.PENDING
                && v.info().getStartTime() > 0
                && limit != TimeLimit.INFINITE
                && limit != TimeLimit.NOT_SET) {
            return v.info().getStartTime() + limit * 60;
        }
        return v.endTime();
    }

    /** The job's billing TRES, of what it holds. */
    private static double billable(JobInfo job) {
        return Tres.parse(job.getAllocTres())
                .asMap()
                .getOrDefault("billing", 0L)
                .doubleValue();
    }

    /**
     * The CPUs held, node by node, as sockets and cores: CPU ids count threads within cores
     * within sockets, so the node's layout turns each into its socket and core.
     */
    private static ObjectNode resources(JobInfo job, Map<String, NodeInfo> nodes) {
        ObjectNode r = F.objectNode();
        r.put("nodes", job.getNodeList());
        r.put("allocated_cores", Integer.toUnsignedLong(job.getNumCpus()));
        r.put("allocated_hosts", Integer.toUnsignedLong(job.getNumNodes()));
        ArrayNode list = r.putArray("allocated_nodes");
        for (NodeGres held : job.getNodeGresList()) {
            NodeInfo node = nodes.get(held.getNode());
            int threads = node == null ? 1 : Math.max(1, node.getThreadsPerCore());
            int cores = node == null ? Integer.MAX_VALUE : Math.max(1, node.getCoresPerSocket());
            ObjectNode one = list.addObject();
            ObjectNode sockets = one.putObject("sockets");
            for (int cpu : held.getCpuIdsList()) {
                int core = cpu / threads;
                ((ObjectNode) sockets.with(Integer.toString(core / cores)).with("cores"))
                        .put(Integer.toString(core % cores), "allocated");
            }
            one.put("nodename", held.getNode());
            one.put("cpus_used", 0);
            one.put("memory_used", 0);
            one.put("memory_allocated", held.getMemoryMb());
        }
        return r;
    }

    private static void positiveOrNull(ObjectNode o, String key, long value) {
        if (value > 0) {
            o.put(key, value);
        } else {
            o.putNull(key);
        }
    }
}
