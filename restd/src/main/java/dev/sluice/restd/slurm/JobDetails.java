package dev.sluice.restd.slurm;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.hostlist.IndexRanges;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetJobsRequest;
import dev.sluice.protocol.v1.GetJobsResponse;
import dev.sluice.protocol.v1.GetNodesRequest;
import dev.sluice.protocol.v1.GresGrant;
import dev.sluice.protocol.v1.JobInfo;
import dev.sluice.protocol.v1.JobState;
import dev.sluice.protocol.v1.NodeGres;
import dev.sluice.protocol.v1.NodeInfo;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import dev.sluice.restd.http.RestErrors;
import dev.sluice.restd.slurm.SlurmApi.Call;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/** GET jobs/state/ and GET resources/{job_id}: what squeue and scontrol show job -d ask the controller. */
final class JobDetails {
    private JobDetails() {}

    /** One {@code job_id} entry: a job (and its array tasks), or one task {@code N_T}. */
    private record Wanted(int jobId, Integer taskId) {
        boolean matches(JobInfo j) {
            if (taskId == null) {
                return j.getJobId() == jobId || j.getArrayJobId() == jobId;
            }
            return j.getArrayJobId() == jobId && j.getArrayTaskId() == taskId;
        }
    }

    /**
     * GET jobs/state/[?job_id=CSV]: each job's id and state only (the compact list pollers ask
     * for), every job the controller still holds when no id is given. The ids travel as
     * GetJobsRequest family ids, so an unknown one matches nothing, as it does for squeue -j.
     */
    static Reply states(Call call, Envelope out) throws ControllerException, BadRequest {
        List<Wanted> wanted = wanted(call.query().getOrDefault("job_id", ""));
        GetJobsRequest.Builder req = GetJobsRequest.newBuilder();
        wanted.forEach(w -> req.addFamilyIds(w.jobId()));
        GetJobsResponse answer = call.controller()
                .call(ClientRequest.newBuilder().setGetJobs(req))
                .getGetJobs();
        ArrayNode jobs = out.body().putArray("jobs");
        for (JobInfo j : answer.getJobsList()) {
            if (wanted.isEmpty() || wanted.stream().anyMatch(w -> w.matches(j))) {
                ObjectNode o = jobs.addObject().put("job_id", j.getJobId());
                o.set("array_job_id", Numbers.set(j.getArrayJobId()));
                o.set("array_task_id", j.getArrayJobId() == 0 ? Numbers.unset() : Numbers.set(j.getArrayTaskId()));
                o.set("job_state", JobJson.states(j));
            }
        }
        out.body().set("last_backfill", Numbers.unset());
        out.body().set("last_update", Numbers.set(answer.getUpdateTime()));
        return out.reply(200);
    }

    private static List<Wanted> wanted(String csv) throws BadRequest {
        List<Wanted> out = new ArrayList<>();
        for (String one : csv.split(",")) {
            String id = one.strip();
            if (id.isEmpty()) {
                continue;
            }
            String[] parts = id.split("_", 2);
            try {
                int job = Integer.parseInt(parts[0]);
                Integer task = parts.length > 1 ? Integer.valueOf(parts[1]) : null;
                if (job <= 0 || (task != null && task < 0)) {
                    throw new NumberFormatException(id);
                }
                out.add(new Wanted(job, task));
            } catch (NumberFormatException e) {
                throw new BadRequest(RestErrors.INVALID_QUERY, "invalid job id " + id);
            }
        }
        return out;
    }

    /**
     * GET resources/{job_id}: per node the job holds, its cores (as a core index list), memory
     * and GRES, as {@code scontrol show job -d} prints them; the nodes' socket and core counts
     * from the controller's node list. A job that holds no nodes is Slurm's pending or not
     * running error.
     */
    static Reply resources(Call call, Envelope out, String id) throws ControllerException, BadRequest {
        int jobId = JobEndpoints.jobId(id);
        ArrayNode nodes = out.body().putArray("nodes");
        JobInfo job = call
                .controller()
                .call(ClientRequest.newBuilder()
                        .setGetJobs(GetJobsRequest.newBuilder().addJobIds(jobId)))
                .getGetJobs()
                .getJobsList()
                .stream()
                .filter(j -> j.getJobId() == jobId)
                .findFirst()
                .orElse(null);
        if (job == null || job.getNodeGresCount() == 0) {
            ErrorCode why = job == null
                    ? ErrorCode.INVALID_JOB_ID
                    : job.getState() == JobState.PENDING ? ErrorCode.JOB_PENDING : ErrorCode.JOB_NOT_RUNNING;
            out.error(why.number(), why.text(), "Unable to query resource layout of job " + id, "slurmctld");
            return out.reply(500);
        }
        Map<String, NodeInfo> hardware = call
                .controller()
                .call(ClientRequest.newBuilder()
                        .setGetNodes(GetNodesRequest.newBuilder()
                                .addAllNames(job.getNodeGresList().stream()
                                        .map(NodeGres::getNode)
                                        .toList())))
                .getGetNodes()
                .getNodesList()
                .stream()
                .collect(Collectors.toMap(NodeInfo::getName, Function.identity(), (a, b) -> a));
        for (NodeGres held : job.getNodeGresList()) {
            nodes.add(layout(held, hardware.get(held.getNode())));
        }
        return out.reply(200);
    }

    private static ObjectNode layout(NodeGres held, NodeInfo node) {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("node", held.getNode());
        int threads = 1;
        if (node != null) {
            o.put("sockets_per_node", node.getSockets()).put("cores_per_socket", node.getCoresPerSocket());
            threads = Math.max(1, node.getThreadsPerCore());
        }
        o.put("mem_alloc", held.getMemoryMb());
        // CPU ids number each core's threads (core * ThreadsPerCore + thread): the core bitmap is
        // the cores they lie on.
        TreeSet<Integer> cores = new TreeSet<>();
        for (int cpu : held.getCpuIdsList()) {
            cores.add(cpu / threads);
        }
        o.put("core_bitmap", IndexRanges.format(cores));
        ArrayNode gres = o.putArray("gres");
        for (GresGrant g : held.getGrantsList()) {
            ObjectNode one = gres.addObject().put("name", g.getName());
            if (!g.getType().isEmpty()) {
                one.put("type", g.getType());
            }
            one.put("count", g.getCount());
            if (g.getIndicesCount() > 0) {
                one.put("index", IndexRanges.format(g.getIndicesList()));
            }
        }
        return o;
    }
}
