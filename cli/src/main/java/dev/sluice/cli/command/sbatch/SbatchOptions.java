package dev.sluice.cli.command.sbatch;

import dev.sluice.cli.command.submit.HelpText;
import dev.sluice.cli.command.submit.OptionCatalog;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.OptionTable;
import java.util.Map;

/** sbatch's option table, the {@code SBATCH_*} variables that stand for options and its help texts. */
final class SbatchOptions {
    private SbatchOptions() {}

    /** sbatch's long options in the order of its getopt table (glibc lists ambiguities so). */
    private static final String ORDER = """
            account acctg-freq array batch begin bb bbf cluster-constraint chdir cluster clusters comment
            container context contiguous constraint core-spec cores-per-socket cpu-freq cpus-per-gpu
            cpus-per-task deadline delay-boot dependency distribution error exclude exclusive export
            export-file extra-node-info get-user-env gid gpu-bind gpu-freq gpus gpus-per-node
            gpus-per-socket gpus-per-task gres gres-flags help hint hold ignore-pbs input job-name
            kill-on-invalid-dep licenses mail-type mail-user mcs-label mem mem-bind mem-per-cpu mem-per-gpu
            mincpus network nice no-kill no-requeue nodefile nodelist nodes ntasks ntasks-per-core
            ntasks-per-gpu ntasks-per-node ntasks-per-socket ntasks-per-tres open-mode output overcommit
            oversubscribe parsable partition power prefer priority profile propagate qos quiet reboot
            requeue reservation signal sockets-per-node spread-job switches tasks-per-node test-only
            thread-spec threads-per-core time time-min tmp uid use-min-nodes usage verbose version wait
            wait-all-nodes wckey wrap
            """;

    // sbatch's -W waits for the job: no argument (srun's -W takes seconds). Every option sbatch
    // has is taken: honoured, warned about or recorded (docs/commands.md).
    static final OptionTable TABLE = OptionCatalog.table(ORDER, Map.of("wait", ArgKind.NONE));

    /**
     * sbatch(1) "INPUT ENVIRONMENT VARIABLES" that stand for one option each. SBATCH_DEBUG,
     * SBATCH_REQ_SWITCH and SBATCH_WAIT4SWITCH are not read: the first is a debug level, the
     * other two halves of {@code --switches}.
     */
    static final Map<String, String> ENV = Map.ofEntries(
            Map.entry("SBATCH_ACCOUNT", "account"),
            Map.entry("SBATCH_ACCTG_FREQ", "acctg-freq"),
            Map.entry("SBATCH_ARRAY_INX", "array"),
            Map.entry("SBATCH_BATCH", "batch"),
            Map.entry("SBATCH_CLUSTERS", "clusters"),
            Map.entry("SBATCH_CONSTRAINT", "constraint"),
            Map.entry("SBATCH_CONTAINER", "container"),
            Map.entry("SBATCH_CORE_SPEC", "core-spec"),
            Map.entry("SBATCH_CPUS_PER_GPU", "cpus-per-gpu"),
            Map.entry("SBATCH_DELAY_BOOT", "delay-boot"),
            Map.entry("SBATCH_DISTRIBUTION", "distribution"),
            Map.entry("SBATCH_ERROR", "error"),
            Map.entry("SBATCH_EXCLUSIVE", "exclusive"),
            Map.entry("SBATCH_EXPORT", "export"),
            Map.entry("SBATCH_GET_USER_ENV", "get-user-env"),
            Map.entry("SBATCH_GPU_BIND", "gpu-bind"),
            Map.entry("SBATCH_GPU_FREQ", "gpu-freq"),
            Map.entry("SBATCH_GPUS", "gpus"),
            Map.entry("SBATCH_GPUS_PER_NODE", "gpus-per-node"),
            Map.entry("SBATCH_GPUS_PER_TASK", "gpus-per-task"),
            Map.entry("SBATCH_GRES", "gres"),
            Map.entry("SBATCH_GRES_FLAGS", "gres-flags"),
            Map.entry("SBATCH_HINT", "hint"),
            Map.entry("SBATCH_IGNORE_PBS", "ignore-pbs"),
            Map.entry("SBATCH_INPUT", "input"),
            Map.entry("SBATCH_JOB_NAME", "job-name"),
            Map.entry("SBATCH_MEM_BIND", "mem-bind"),
            Map.entry("SBATCH_MEM_PER_CPU", "mem-per-cpu"),
            Map.entry("SBATCH_MEM_PER_GPU", "mem-per-gpu"),
            Map.entry("SBATCH_MEM_PER_NODE", "mem"),
            Map.entry("SBATCH_NETWORK", "network"),
            Map.entry("SBATCH_NO_KILL", "no-kill"),
            Map.entry("SBATCH_NO_REQUEUE", "no-requeue"),
            Map.entry("SBATCH_OPEN_MODE", "open-mode"),
            Map.entry("SBATCH_OUTPUT", "output"),
            Map.entry("SBATCH_OVERCOMMIT", "overcommit"),
            Map.entry("SBATCH_PARTITION", "partition"),
            Map.entry("SBATCH_POWER", "power"),
            Map.entry("SBATCH_PROFILE", "profile"),
            Map.entry("SBATCH_QOS", "qos"),
            Map.entry("SBATCH_REQUEUE", "requeue"),
            Map.entry("SBATCH_RESERVATION", "reservation"),
            Map.entry("SBATCH_SIGNAL", "signal"),
            Map.entry("SBATCH_SPREAD_JOB", "spread-job"),
            Map.entry("SBATCH_THREAD_SPEC", "thread-spec"),
            Map.entry("SBATCH_THREADS_PER_CORE", "threads-per-core"),
            Map.entry("SBATCH_TIMELIMIT", "time"),
            Map.entry("SBATCH_USE_MIN_NODES", "use-min-nodes"),
            Map.entry("SBATCH_WAIT", "wait"),
            Map.entry("SBATCH_WAIT_ALL_NODES", "wait-all-nodes"),
            Map.entry("SBATCH_WCKEY", "wckey"));

    /** Real sbatch 22.05's texts (TaskPlugin=task/none), unedited. */
    static final String HELP = HelpText.read(SbatchOptions.class, "help.txt");

    static final String USAGE = HelpText.read(SbatchOptions.class, "usage.txt");
}
