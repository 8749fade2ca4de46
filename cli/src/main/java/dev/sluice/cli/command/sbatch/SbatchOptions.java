package dev.sluice.cli.command.sbatch;

import dev.sluice.cli.command.submit.OptionCatalog;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.OptionTable;
import java.util.Map;
import java.util.Set;

/** sbatch's option table and the {@code SBATCH_*} variables that stand for options. */
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

    /** Slurm's options Sluice's sbatch does not implement: refused as unrecognized when used. */
    private static final Set<String> REFUSED = Set.of(
            "acctg-freq",
            "batch",
            "bb",
            "bbf",
            "cluster-constraint",
            "container",
            "context",
            "contiguous",
            "core-spec",
            "cores-per-socket",
            "cpu-freq",
            "deadline",
            "delay-boot",
            "distribution",
            "extra-node-info",
            "get-user-env",
            "gid",
            "gpu-bind",
            "gpu-freq",
            "gpus-per-socket",
            "hint",
            "ignore-pbs",
            "licenses",
            "mcs-label",
            "mem-bind",
            "mincpus",
            "network",
            "nodefile",
            "ntasks-per-core",
            "ntasks-per-gpu",
            "ntasks-per-socket",
            "ntasks-per-tres",
            "overcommit",
            "oversubscribe",
            "power",
            "prefer",
            "priority",
            "profile",
            "propagate",
            "reboot",
            "reservation",
            "sockets-per-node",
            "spread-job",
            "switches",
            "thread-spec",
            "threads-per-core",
            "time-min",
            "tmp",
            "uid",
            "use-min-nodes",
            "wait-all-nodes");

    // sbatch's -W waits for the job: no argument (srun's -W takes seconds).
    static final OptionTable TABLE = OptionCatalog.table(ORDER, REFUSED, Map.of("wait", ArgKind.NONE));

    /** Input variables (sbatch(1) "INPUT ENVIRONMENT VARIABLES") for implemented options. */
    static final Map<String, String> ENV = Map.ofEntries(
            Map.entry("SBATCH_ACCOUNT", "account"),
            Map.entry("SBATCH_ARRAY_INX", "array"),
            Map.entry("SBATCH_CPUS_PER_GPU", "cpus-per-gpu"),
            Map.entry("SBATCH_GPUS", "gpus"),
            Map.entry("SBATCH_GPUS_PER_NODE", "gpus-per-node"),
            Map.entry("SBATCH_GPUS_PER_TASK", "gpus-per-task"),
            Map.entry("SBATCH_GRES_FLAGS", "gres-flags"),
            Map.entry("SBATCH_MEM_PER_GPU", "mem-per-gpu"),
            Map.entry("SBATCH_CONSTRAINT", "constraint"),
            Map.entry("SBATCH_ERROR", "error"),
            Map.entry("SBATCH_EXCLUSIVE", "exclusive"),
            Map.entry("SBATCH_EXPORT", "export"),
            Map.entry("SBATCH_GRES", "gres"),
            Map.entry("SBATCH_INPUT", "input"),
            Map.entry("SBATCH_JOB_NAME", "job-name"),
            Map.entry("SBATCH_MEM_PER_CPU", "mem-per-cpu"),
            Map.entry("SBATCH_MEM_PER_NODE", "mem"),
            Map.entry("SBATCH_NO_KILL", "no-kill"),
            Map.entry("SBATCH_NO_REQUEUE", "no-requeue"),
            Map.entry("SBATCH_OPEN_MODE", "open-mode"),
            Map.entry("SBATCH_OUTPUT", "output"),
            Map.entry("SBATCH_PARTITION", "partition"),
            Map.entry("SBATCH_CLUSTERS", "clusters"),
            Map.entry("SBATCH_WCKEY", "wckey"),
            Map.entry("SBATCH_QOS", "qos"),
            Map.entry("SBATCH_REQUEUE", "requeue"),
            Map.entry("SBATCH_TIMELIMIT", "time"),
            Map.entry("SBATCH_WAIT", "wait"));

    static final String USAGE = """
            Usage: sbatch [-N nnodes] [-n ntasks] [-c ncpus] [-p partition] [-t minutes]
                          [-J jobname] [-o out] [-e err] [-i in] [-D path] [-A account]
                          [-w hosts] [-x hosts] [-C list] [-q qos] [--gres=list] [--mem=MB]
                          [--mem-per-cpu=MB] [--exclusive] [--export[=names]] [--hold]
                          [--comment=name] [--nice[=value]] [--requeue] [--no-requeue]
                          [--open-mode=append|truncate] [--parsable] [--quiet]
                          [--test-only] [-W|--wait]
                          [--wrap[=command string]] executable [args...]
            """;

    static final String HELP = """
            Usage: sbatch [OPTIONS...] executable [args...]

            Options implemented by Sluice:
              -a, --array=indexes         job array index values
              -A, --account=name          charge job to specified account
              -b, --begin=time            defer job until HH:MM MM/DD/YY
                  --cpus-per-gpu=n        number of CPUs required per allocated GPU
              -d, --dependency=type:jobid[:time] defer job until condition on jobid is satisfied
              -G, --gpus=n                count of GPUs required for the job
                  --gpus-per-node=n       number of GPUs required per allocated node
                  --gpus-per-task=n       number of GPUs required per spawned task
                  --gres-flags=opts       flags related to GRES management
                  --mem-per-gpu=n         real memory required per allocated GPU
                  --comment=name          arbitrary comment
              -c, --cpus-per-task=ncpus   number of cpus required per task
              -C, --constraint=list       specify a list of constraints
              -D, --chdir=directory       set working directory for batch script
              -e, --error=err             file for batch script's standard error
                  --exclusive             allocate nodes in exclusive mode
                  --export[=names]        specify environment variables to export
                  --gres=list             required generic resources
              -H, --hold                  submit job in held state
              -i, --input=in              file for batch script's standard input
              -J, --job-name=jobname      name of job
                  --kill-on-invalid-dep=<yes|no> kill job if its dependency can never be met
              -k, --no-kill               do not kill job on node failure
                  --mem=MB                minimum amount of real memory
                  --mem-per-cpu=MB        maximum amount of real memory per allocated cpu
                  --nice[=value]          decrease scheduling priority by value
              -N, --nodes=N               number of nodes on which to run (N = min[-max])
              -n, --ntasks=ntasks         number of tasks to run
                  --ntasks-per-node=n     number of tasks to invoke on each node
              -o, --output=out            file for batch script's standard output
                  --open-mode=append|truncate  how to open output files
                  --parsable              outputs only the jobid and cluster name (if present)
              -p, --partition=partition   partition requested
              -q, --qos=qos               quality of service
              -Q, --quiet                 quiet mode (suppress informational messages)
                  --requeue               if set, permit the job to be requeued
                  --no-requeue            if set, do not permit the job to be requeued
              -t, --time=minutes          time limit
                  --test-only             validate the job and report when it would start; submit nothing
              -W, --wait                  wait for completion of submitted job
              -w, --nodelist=hosts...     request a specific list of hosts
                  --wrap[=command string] wrap command string in a sh script and submit
              -x, --exclude=hosts...      exclude a specific list of hosts

            Help options:
              -h, --help                  show this help message
                  --usage                 display brief usage message
            """;
}
