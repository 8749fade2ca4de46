package dev.sluice.ctld.gres;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.gres.GresRequest;
import dev.sluice.ctld.state.GpuCount;
import dev.sluice.ctld.state.JobRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Turns a job's GRES options into a {@link GresDemand}, with Slurm's rejections. */
public final class GresDemands {
    private GresDemands() {}

    /**
     * @param known GRES names this cluster has ({@code GresTypes} and every node's inventory)
     * @throws SlurmException {@code Invalid generic resource (gres) specification} for bad
     *     syntax, unknown names, or GPUs requested together with their MPS or shards
     */
    public static GresDemand of(JobRequest request, Set<String> known) {
        JobRequest.GpuOptions gpu = request.gpuOptions();
        List<GresDemand.Item> perNode = new ArrayList<>();
        try {
            for (GresRequest r : request.gres().items()) {
                perNode.add(new GresDemand.Item(r.name(), r.type().orElse(""), r.count()));
            }
            GpuCount perNodeGpus = gpu.gpusPerNode();
            if (perNodeGpus.count() > 0) {
                perNode.add(new GresDemand.Item("gpu", perNodeGpus.type(), perNodeGpus.count()));
            }
            GpuCount perTask = gpu.gpusPerTask();
            GpuCount perJob = gpu.gpus();
            boolean wantsGpus = perTask.count() > 0
                    || perJob.count() > 0
                    || perNode.stream().anyMatch(i -> i.name().equals("gpu"));
            boolean wantsShares = perNode.stream().anyMatch(i -> GresUnit.sharesGpu(i.name()));
            if (wantsGpus && wantsShares) {
                throw invalid();
            }
            for (GresDemand.Item item : perNode) {
                if (!known.contains(item.name())) {
                    throw invalid();
                }
            }
            if ((perTask.count() > 0 || perJob.count() > 0) && !known.contains("gpu")) {
                throw invalid();
            }
            return new GresDemand(
                    perNode,
                    perTask.count(),
                    perTask.type(),
                    perJob.count(),
                    perJob.type(),
                    gpu.cpusPerGpu(),
                    gpu.memPerGpuMb());
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
    }

    private static SlurmException invalid() {
        return new SlurmException(ErrorCode.INVALID_GRES);
    }
}
