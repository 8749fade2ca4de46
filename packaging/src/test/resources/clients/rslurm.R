# rslurm: slurm_apply over four parameter sets as an array of two tasks, results read with
# get_slurm_out (which waits), the tasks' logs with get_job_status; then an array of two long
# tasks, cancelled with cancel_slurm.
library(rslurm)
sjob = slurm_apply(function(x) { cat("task", x, "on", Sys.getenv("SLURM_JOB_ID"), "\n"); x * 10 },
                   data.frame(x = 1:4), jobname = "squares", nodes = 2, cpus_per_node = 1, submit = TRUE)
cat("JOBID", sjob$jobid, "\n")
out = get_slurm_out(sjob, outtype = "table", wait = TRUE)
cat("RESULTS", unlist(out), "\n")
st = get_job_status(sjob)
cat("COMPLETED", st$completed, "\n")
for (f in names(st$log)) cat("LOG", basename(f), gsub("\n", " | ", st$log[[f]]), "\n")

sj2 = slurm_apply(function(x) { Sys.sleep(300); x }, data.frame(x = 1:2), jobname = "sleepers",
                  nodes = 2, cpus_per_node = 1, submit = TRUE)
cat("CANCEL_JOBID", sj2$jobid, "\n")
for (i in 1:120) { q = get_job_status(sj2)$queue; if (nrow(q) == 2L && all(q$ST == "R")) break; Sys.sleep(0.5) }
cat("QUEUED", nrow(get_job_status(sj2)$queue), "\n")
cancel_slurm(sj2)
for (i in 1:60) { if (get_job_status(sj2)$completed) break; Sys.sleep(0.5) }
cat("CANCELLED", get_job_status(sj2)$completed, "\n")
