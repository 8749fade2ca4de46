# batchtools with its own Slurm cluster functions and the package's slurm-simple template:
# three jobs submitted as one array job, waited for, results and logs read; then a second
# array of two long jobs, killed.
library(batchtools)
template = system.file("templates", "slurm-simple.tmpl", package = "batchtools")
res = list(walltime = 120, memory = 100, ncpus = 1, chunks.as.arrayjobs = TRUE)

reg = makeRegistry(file.dir = "done-reg", seed = 1)
reg$cluster.functions = makeClusterFunctionsSlurm(template = template)
ids = batchMap(function(x) { cat("task", x, "on", Sys.getenv("SLURM_JOB_ID"), "\n"); x * x }, x = 1:3)
ids$chunk = 1L
submitJobs(ids, resources = res)
cat("BATCH_IDS", getJobTable()$batch.id, "\n")
stopifnot(waitForJobs(timeout = 90))
cat("RESULTS", unlist(reduceResultsList()), "\n")
for (i in 1:3) cat("LOG", i, grep("^task", getLog(i), value = TRUE), "\n")

reg2 = makeRegistry(file.dir = "killed-reg", seed = 1)
reg2$cluster.functions = makeClusterFunctionsSlurm(template = template)
ids2 = batchMap(function(x) { Sys.sleep(300); x }, x = 1:2, reg = reg2)
ids2$chunk = 1L
submitJobs(ids2, resources = res, reg = reg2)
cat("KILL_IDS", getJobTable(reg = reg2)$batch.id, "\n")
for (i in 1:120) { if (nrow(findRunning(reg = reg2)) == 2L) break; Sys.sleep(0.5) }
cat("RUNNING", nrow(findRunning(reg = reg2)), "\n")
killed = killJobs(reg = reg2)
cat("KILLED", killed$killed, "\n")
cat("STILL_RUNNING", nrow(findRunning(reg = reg2)), "\n")
