package dev.sluice.cli.command.salloc;

import dev.sluice.cli.command.submit.HelpText;
import dev.sluice.cli.command.submit.OptionCatalog;
import dev.sluice.cli.getopt.OptionTable;
import java.util.Map;

/** salloc's option table, its {@code SALLOC_*} input variables and its help texts. */
final class SallocOptions {
    private SallocOptions() {}

    /** salloc's long options in the order of its getopt table (glibc lists ambiguities so). */
    private static final String ORDER = """
            account acctg-freq begin bell bb bbf cluster-constraint chdir cluster clusters comment container
            context contiguous constraint core-spec cores-per-socket cpu-freq cpus-per-gpu cpus-per-task
            deadline delay-boot dependency distribution exclude exclusive extra-node-info get-user-env gid
            gpu-bind gpu-freq gpus gpus-per-node gpus-per-socket gpus-per-task gres gres-flags help hint
            hold immediate job-name kill-command licenses mail-type mail-user mcs-label mem mem-bind
            mem-per-cpu mem-per-gpu mincpus network nice no-bell no-kill no-shell nodefile nodelist nodes
            ntasks ntasks-per-core ntasks-per-gpu ntasks-per-node ntasks-per-socket ntasks-per-tres
            overcommit oversubscribe partition power prefer priority profile qos quiet reboot reservation
            signal sockets-per-node spread-job switches tasks-per-node thread-spec threads-per-core time
            time-min tmp uid use-min-nodes usage verbose version wait-all-nodes wckey x11
            """;

    /** Every option salloc has is taken: honoured, warned about or recorded (docs/commands.md). */
    static final OptionTable TABLE = OptionCatalog.table(ORDER, Map.of());

    /** salloc(1) "INPUT ENVIRONMENT VARIABLES"; the command line wins over them. */
    static final Map<String, String> ENV = Map.ofEntries(
            Map.entry("SALLOC_ACCOUNT", "account"),
            Map.entry("SALLOC_ACCTG_FREQ", "acctg-freq"),
            Map.entry("SALLOC_BELL", "bell"),
            Map.entry("SALLOC_BURST_BUFFER", "bb"),
            Map.entry("SALLOC_CLUSTERS", "clusters"),
            Map.entry("SALLOC_CONSTRAINT", "constraint"),
            Map.entry("SALLOC_CONTAINER", "container"),
            Map.entry("SALLOC_CORE_SPEC", "core-spec"),
            Map.entry("SALLOC_CPUS_PER_GPU", "cpus-per-gpu"),
            Map.entry("SALLOC_DELAY_BOOT", "delay-boot"),
            Map.entry("SALLOC_EXCLUSIVE", "exclusive"),
            Map.entry("SALLOC_GPU_BIND", "gpu-bind"),
            Map.entry("SALLOC_GPU_FREQ", "gpu-freq"),
            Map.entry("SALLOC_GPUS", "gpus"),
            Map.entry("SALLOC_GPUS_PER_NODE", "gpus-per-node"),
            Map.entry("SALLOC_GPUS_PER_TASK", "gpus-per-task"),
            Map.entry("SALLOC_GRES", "gres"),
            Map.entry("SALLOC_GRES_FLAGS", "gres-flags"),
            Map.entry("SALLOC_HINT", "hint"),
            Map.entry("SALLOC_IMMEDIATE", "immediate"),
            Map.entry("SALLOC_KILL_CMD", "kill-command"),
            Map.entry("SALLOC_MEM_BIND", "mem-bind"),
            Map.entry("SALLOC_MEM_PER_CPU", "mem-per-cpu"),
            Map.entry("SALLOC_MEM_PER_GPU", "mem-per-gpu"),
            Map.entry("SALLOC_MEM_PER_NODE", "mem"),
            Map.entry("SALLOC_NETWORK", "network"),
            Map.entry("SALLOC_NO_BELL", "no-bell"),
            Map.entry("SALLOC_NO_KILL", "no-kill"),
            Map.entry("SALLOC_OVERCOMMIT", "overcommit"),
            Map.entry("SALLOC_PARTITION", "partition"),
            Map.entry("SALLOC_POWER", "power"),
            Map.entry("SALLOC_PROFILE", "profile"),
            Map.entry("SALLOC_QOS", "qos"),
            Map.entry("SALLOC_RESERVATION", "reservation"),
            Map.entry("SALLOC_SIGNAL", "signal"),
            Map.entry("SALLOC_SPREAD_JOB", "spread-job"),
            Map.entry("SALLOC_THREAD_SPEC", "thread-spec"),
            Map.entry("SALLOC_THREADS_PER_CORE", "threads-per-core"),
            Map.entry("SALLOC_TIMELIMIT", "time"),
            Map.entry("SALLOC_USE_MIN_NODES", "use-min-nodes"),
            Map.entry("SALLOC_WAIT_ALL_NODES", "wait-all-nodes"),
            Map.entry("SALLOC_WCKEY", "wckey"));

    /** Real salloc 22.05's texts, unedited. */
    static final String HELP = HelpText.read(SallocOptions.class, "help.txt");

    static final String USAGE = HelpText.read(SallocOptions.class, "usage.txt");
}
