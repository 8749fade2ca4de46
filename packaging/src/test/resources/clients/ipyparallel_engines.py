"""ipyparallel: a local controller, two engines through its Slurm launcher (sbatch, then srun)."""
import subprocess
import time

import ipyparallel as ipp


def where():
    import os

    return "%s.%s/%s" % (os.environ.get("SLURM_JOB_ID"), os.environ.get("SLURM_STEP_ID"), os.environ.get("SLURM_PROCID"))


cluster = ipp.Cluster(engine_launcher_class="slurm", n=2)
rc = cluster.start_and_connect_sync()
print("ENGINES", len(rc.ids))
print("WHERE", " ".join(sorted(rc[:].apply_sync(where))))
print("SQUARES", " ".join(str(x) for x in rc[:].map_sync(lambda x: x * x, range(6))))
jobs = [es.job_id for es in cluster.engines.values()]
print("JOBS", " ".join(jobs))
# Engines asked to stop end their srun step, so the job ends by itself (COMPLETED) before
# the cluster is stopped (which would scancel it).
rc.shutdown(targets="all", block=True)
rc.close()
for _ in range(120):
    if not subprocess.run(["squeue", "-h", "-j", ",".join(jobs)], capture_output=True, text=True).stdout.strip():
        break
    time.sleep(0.5)
cluster.stop_cluster_sync()
