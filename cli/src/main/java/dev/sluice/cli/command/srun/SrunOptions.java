package dev.sluice.cli.command.srun;

import dev.sluice.cli.command.submit.HelpText;
import dev.sluice.cli.command.submit.OptionCatalog;
import dev.sluice.cli.getopt.OptionTable;
import java.util.Map;

/** srun's option table, the input variables it reads and its help texts. */
final class SrunOptions {
    private SrunOptions() {}

    /** srun's long options in the order of its getopt table (glibc lists ambiguities so). */
    private static final String ORDER = """
            accel-bind account acctg-freq bcast bcast-exclude begin bb bbf cluster-constraint chdir cluster
            clusters comment compress container context contiguous constraint core-spec cores-per-socket
            cpu-bind cpu_bind cpu-freq cpus-per-gpu cpus-per-task deadline debugger-test delay-boot
            dependency disable-status distribution epilog error exact exclude exclusive export
            extra-node-info gid gpu-bind gpu-freq gpus gpus-per-node gpus-per-socket gpus-per-task gres
            gres-flags help het-group hint hold immediate input interactive jobid job-name kill-on-bad-exit
            label licenses mail-type mail-user mcs-label mem mem-bind mem-per-cpu mem-per-gpu mincpus mpi
            msg-timeout multi-prog network nice no-allocate no-kill nodefile nodelist nodes ntasks
            ntasks-per-core ntasks-per-gpu ntasks-per-node ntasks-per-socket ntasks-per-tres open-mode
            output overcommit overlap oversubscribe pack-group partition power prefer preserve-env priority
            profile prolog propagate pty qos quiet quit-on-interrupt reboot relative reservation resv-ports
            send-libs signal slurmd-debug sockets-per-node spread-job switches threads task-epilog
            task-prolog tasks-per-node test-only thread-spec threads-per-core time time-min tmp uid
            unbuffered use-min-nodes usage verbose version wait wckey whole x11
            """;

    /** Every option srun has is taken: honoured, warned about or recorded (docs/commands.md). */
    static final OptionTable TABLE = OptionCatalog.table(ORDER, Map.of());

    /**
     * srun(1) "INPUT ENVIRONMENT VARIABLES", less those a job's own environment sets in Sluice
     * (SLURM_NTASKS, SLURM_JOB_NAME, SLURM_CPUS_PER_TASK, SLURM_MEM_PER_*, SLURM_GPUS*,
     * SLURM_JOB_NUM_NODES...): read as options, they would turn every srun inside a job into a
     * request for the job's whole shape. SLURM_JOB_ID, SLURM_NTASKS, SLURM_JOB_NUM_NODES and
     * SLURM_GPUS_PER_TASK are read on their own, for a step's shape (StepGeometry, SrunCommand).
     */
    static final Map<String, String> ENV = Map.ofEntries(
            Map.entry("SLURM_ACCOUNT", "account"),
            Map.entry("SLURM_ACCTG_FREQ", "acctg-freq"),
            Map.entry("SLURM_BCAST", "bcast"),
            Map.entry("SLURM_BCAST_EXCLUDE", "bcast-exclude"),
            Map.entry("SLURM_BURST_BUFFER", "bb"),
            Map.entry("SLURM_CLUSTERS", "clusters"),
            Map.entry("SLURM_COMPRESS", "compress"),
            Map.entry("SLURM_CONSTRAINT", "constraint"),
            Map.entry("SLURM_CORE_SPEC", "core-spec"),
            Map.entry("SLURM_CPU_BIND", "cpu-bind"),
            Map.entry("SLURM_CPU_FREQ_REQ", "cpu-freq"),
            Map.entry("SRUN_CPUS_PER_TASK", "cpus-per-task"),
            Map.entry("SLURM_DELAY_BOOT", "delay-boot"),
            Map.entry("SLURM_DEPENDENCY", "dependency"),
            Map.entry("SLURM_DISABLE_STATUS", "disable-status"),
            Map.entry("SLURM_DISTRIBUTION", "distribution"),
            Map.entry("SLURM_EPILOG", "epilog"),
            Map.entry("SLURM_EXACT", "exact"),
            Map.entry("SLURM_EXCLUSIVE", "exclusive"),
            Map.entry("SLURM_EXPORT_ENV", "export"),
            Map.entry("SRUN_EXPORT_ENV", "export"),
            Map.entry("SLURM_GPU_BIND", "gpu-bind"),
            Map.entry("SLURM_GPU_FREQ", "gpu-freq"),
            Map.entry("SLURM_HINT", "hint"),
            Map.entry("SLURM_IMMEDIATE", "immediate"),
            Map.entry("SLURM_KILL_BAD_EXIT", "kill-on-bad-exit"),
            Map.entry("SLURM_LABELIO", "label"),
            Map.entry("SLURM_MEM_BIND", "mem-bind"),
            Map.entry("SLURM_MPI_TYPE", "mpi"),
            Map.entry("SLURM_NETWORK", "network"),
            Map.entry("SLURM_NO_KILL", "no-kill"),
            Map.entry("SLURM_OPEN_MODE", "open-mode"),
            Map.entry("SLURM_OVERCOMMIT", "overcommit"),
            Map.entry("SLURM_OVERLAP", "overlap"),
            Map.entry("SLURM_PARTITION", "partition"),
            Map.entry("SLURM_POWER", "power"),
            Map.entry("SLURM_PROFILE", "profile"),
            Map.entry("SLURM_PROLOG", "prolog"),
            Map.entry("SLURM_QOS", "qos"),
            Map.entry("SLURM_REMOTE_CWD", "chdir"),
            Map.entry("SLURM_RESERVATION", "reservation"),
            Map.entry("SLURM_RESV_PORTS", "resv-ports"),
            Map.entry("SLURM_SEND_LIBS", "send-libs"),
            Map.entry("SLURM_SIGNAL", "signal"),
            Map.entry("SLURM_SPREAD_JOB", "spread-job"),
            Map.entry("SLURM_STDERRMODE", "error"),
            Map.entry("SLURM_STDINMODE", "input"),
            Map.entry("SLURM_STDOUTMODE", "output"),
            Map.entry("SLURM_TASK_EPILOG", "task-epilog"),
            Map.entry("SLURM_TASK_PROLOG", "task-prolog"),
            Map.entry("SLURM_THREAD_SPEC", "thread-spec"),
            Map.entry("SLURM_THREADS", "threads"),
            Map.entry("SLURM_TIMELIMIT", "time"),
            Map.entry("SLURM_UNBUFFEREDIO", "unbuffered"),
            Map.entry("SLURM_USE_MIN_NODES", "use-min-nodes"),
            Map.entry("SLURM_WAIT", "wait"),
            Map.entry("SLURM_WCKEY", "wckey"),
            Map.entry("SLURM_WORKING_DIR", "chdir"),
            Map.entry("SRUN_CONTAINER", "container"));

    /** Real srun 22.05's texts (TaskPlugin=task/none: no binding section), unedited. */
    static final String HELP = HelpText.read(SrunOptions.class, "help.txt");

    static final String USAGE = HelpText.read(SrunOptions.class, "usage.txt");
}
