package dev.sluice.cli.command.sbatch;

import static dev.sluice.cli.getopt.ArgKind.NONE;
import static dev.sluice.cli.getopt.ArgKind.OPTIONAL;
import static dev.sluice.cli.getopt.ArgKind.REQUIRED;

import dev.sluice.cli.getopt.OptionTable;
import java.util.Map;

/** sbatch's option table and the {@code SBATCH_*} variables that stand for options. */
final class SbatchOptions {
    private SbatchOptions() {}

    private static final char NO = 0;

    static final OptionTable TABLE = OptionTable.builder()
            .stopAtFirstOperand()
            // implemented
            .add('A', "account", REQUIRED)
            .add('D', "chdir", REQUIRED)
            .add(NO, "comment", REQUIRED)
            .add('C', "constraint", REQUIRED)
            .add('c', "cpus-per-task", REQUIRED)
            .add('e', "error", REQUIRED)
            .add('x', "exclude", REQUIRED)
            .add(NO, "exclusive", OPTIONAL)
            .add(NO, "export", REQUIRED)
            .add(NO, "gres", REQUIRED)
            .add('h', "help", NONE)
            .add('H', "hold", NONE)
            .add('i', "input", REQUIRED)
            .add('J', "job-name", REQUIRED)
            .add(NO, "mem", REQUIRED)
            .add(NO, "mem-per-cpu", REQUIRED)
            .add(NO, "nice", OPTIONAL)
            .add('k', "no-kill", OPTIONAL)
            .add(NO, "no-requeue", NONE)
            .add('w', "nodelist", REQUIRED)
            .add('N', "nodes", REQUIRED)
            .add('n', "ntasks", REQUIRED)
            .add(NO, "mail-type", REQUIRED)
            .add(NO, "mail-user", REQUIRED)
            .add(NO, "ntasks-per-node", REQUIRED)
            .add(NO, "open-mode", REQUIRED)
            .add('o', "output", REQUIRED)
            .add(NO, "parsable", NONE)
            .add('p', "partition", REQUIRED)
            .add('q', "qos", REQUIRED)
            .add('Q', "quiet", NONE)
            .add(NO, "requeue", NONE)
            .add('t', "time", REQUIRED)
            .add(NO, "usage", NONE)
            .add('v', "verbose", NONE)
            .add('V', "version", NONE)
            .add(NO, "wrap", REQUIRED)
            // Slurm's other options: present so prefixes resolve as in Slurm, refused when used.
            .unsupported(NO, "acctg-freq", REQUIRED)
            .add('a', "array", REQUIRED)
            .unsupported(NO, "batch", REQUIRED)
            .unsupported(NO, "bb", REQUIRED)
            .unsupported(NO, "bbf", REQUIRED)
            .add('b', "begin", REQUIRED)
            .unsupported(NO, "cluster-constraint", REQUIRED)
            .unsupported('M', "clusters", REQUIRED)
            .unsupported(NO, "container", REQUIRED)
            .unsupported(NO, "contiguous", NONE)
            .unsupported('S', "core-spec", REQUIRED)
            .unsupported(NO, "cores-per-socket", REQUIRED)
            .unsupported(NO, "cpu-freq", REQUIRED)
            .add(NO, "cpus-per-gpu", REQUIRED)
            .unsupported(NO, "deadline", REQUIRED)
            .unsupported(NO, "delay-boot", REQUIRED)
            .add('d', "dependency", REQUIRED)
            .unsupported('m', "distribution", REQUIRED)
            .add(NO, "export-file", REQUIRED)
            .unsupported('B', "extra-node-info", REQUIRED)
            .unsupported(NO, "get-user-env", OPTIONAL)
            .unsupported(NO, "gid", REQUIRED)
            .unsupported(NO, "gpu-bind", REQUIRED)
            .unsupported(NO, "gpu-freq", REQUIRED)
            .add('G', "gpus", REQUIRED)
            .add(NO, "gpus-per-node", REQUIRED)
            .unsupported(NO, "gpus-per-socket", REQUIRED)
            .add(NO, "gpus-per-task", REQUIRED)
            .add(NO, "gres-flags", REQUIRED)
            .unsupported(NO, "hint", REQUIRED)
            .unsupported(NO, "ignore-pbs", NONE)
            .add(NO, "kill-on-invalid-dep", REQUIRED)
            .unsupported('L', "licenses", REQUIRED)
            .unsupported(NO, "mcs-label", REQUIRED)
            .unsupported(NO, "mem-bind", REQUIRED)
            .add(NO, "mem-per-gpu", REQUIRED)
            .unsupported(NO, "mincpus", REQUIRED)
            .unsupported(NO, "network", REQUIRED)
            .unsupported('F', "nodefile", REQUIRED)
            .unsupported(NO, "ntasks-per-core", REQUIRED)
            .unsupported(NO, "ntasks-per-gpu", REQUIRED)
            .unsupported(NO, "ntasks-per-socket", REQUIRED)
            .unsupported('O', "overcommit", NONE)
            .unsupported('s', "oversubscribe", NONE)
            .unsupported(NO, "power", REQUIRED)
            .unsupported(NO, "prefer", REQUIRED)
            .unsupported(NO, "priority", REQUIRED)
            .unsupported(NO, "profile", REQUIRED)
            .unsupported(NO, "propagate", OPTIONAL)
            .unsupported(NO, "reboot", NONE)
            .unsupported(NO, "reservation", REQUIRED)
            .add(NO, "signal", REQUIRED)
            .unsupported(NO, "sockets-per-node", REQUIRED)
            .unsupported(NO, "spread-job", NONE)
            .unsupported(NO, "switches", REQUIRED)
            .add(NO, "test-only", NONE)
            .unsupported(NO, "thread-spec", REQUIRED)
            .unsupported(NO, "threads-per-core", REQUIRED)
            .unsupported(NO, "time-min", REQUIRED)
            .unsupported(NO, "tmp", REQUIRED)
            .unsupported(NO, "uid", REQUIRED)
            .unsupported(NO, "use-min-nodes", NONE)
            .add('W', "wait", NONE)
            .unsupported(NO, "wait-all-nodes", REQUIRED)
            .unsupported(NO, "wckey", REQUIRED)
            .build();

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
