package dev.sluice.cli.command.submit;

import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.OptionTable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every long option of Slurm 22.05's sbatch, srun and salloc, with its short letter, its
 * argument (Required, Optional, None) and, for an alias, the option it stands for. The three
 * commands share Slurm's option code, so one name means one thing everywhere, except
 * {@code -W/--wait}: sbatch's waits for the job (no argument), srun's is seconds to wait after
 * the first task ends. Each command names its options in the order of its own getopt table,
 * which is what glibc lists an ambiguous prefix in; the names and kinds were read off the real
 * commands (every {@code --x} prefix, then {@code --name=1} and {@code --name} alone).
 */
public final class OptionCatalog {
    private OptionCatalog() {}

    private record Definition(char shortName, ArgKind arg, String key) {}

    private static final String DEFINITIONS = """
            accel-bind - R
            account A R
            acctg-freq - R
            array a R
            batch - R
            bb - R
            bbf - R
            bcast - O
            bcast-exclude - R
            begin b R
            bell - N
            chdir D R
            cluster - R clusters
            cluster-constraint - R
            clusters M R
            comment - R
            compress - O
            constraint C R
            container - R
            context - R
            contiguous - N
            core-spec S R
            cores-per-socket - R
            cpu-bind - R
            cpu-freq - R
            cpu_bind - R cpu-bind
            cpus-per-gpu - R
            cpus-per-task c R
            deadline - R
            debugger-test - N
            delay-boot - R
            dependency d R
            disable-status X N
            distribution m R
            epilog - R
            error e R
            exact - N
            exclude x R
            exclusive - O
            export - R
            export-file - R
            extra-node-info B R
            get-user-env - O
            gid - R
            gpu-bind - R
            gpu-freq - R
            gpus G R
            gpus-per-node - R
            gpus-per-socket - R
            gpus-per-task - R
            gres - R
            gres-flags - R
            help h N
            het-group - R
            hint - R
            hold H N
            ignore-pbs - N
            immediate I O
            input i R
            interactive - N
            job-name J R
            jobid - R
            kill-command K O
            kill-on-bad-exit K O
            kill-on-invalid-dep - R
            label l N
            licenses L R
            mail-type - R
            mail-user - R
            mcs-label - R
            mem - R
            mem-bind - R
            mem-per-cpu - R
            mem-per-gpu - R
            mincpus - R
            mpi - R
            msg-timeout - R
            multi-prog - N
            network - R
            nice - O
            no-allocate Z N
            no-bell - N
            no-kill k O
            no-requeue - N
            no-shell - N
            nodefile F R
            nodelist w R
            nodes N R
            ntasks n R
            ntasks-per-core - R
            ntasks-per-gpu - R
            ntasks-per-node - R
            ntasks-per-socket - R
            ntasks-per-tres - R
            open-mode - R
            output o R
            overcommit O N
            overlap - O
            oversubscribe s N
            pack-group - R het-group
            parsable - N
            partition p R
            power - R
            prefer - R
            preserve-env E N
            priority - R
            profile - R
            prolog - R
            propagate - O
            pty - N
            qos q R
            quiet Q N
            quit-on-interrupt - N
            reboot - N
            relative r R
            requeue - N
            reservation - R
            resv-ports - O
            send-libs - O
            signal - R
            slurmd-debug - R
            sockets-per-node - R
            spread-job - N
            switches - R
            task-epilog - R
            task-prolog - R
            tasks-per-node - R ntasks-per-node
            test-only - N
            thread-spec - R
            threads T R
            threads-per-core - R
            time t R
            time-min - R
            tmp - R
            uid - R
            unbuffered u N
            usage - N
            use-min-nodes - N
            verbose v N
            version V N
            wait W R
            wait-all-nodes - R
            wckey - R
            whole - N
            wrap - R
            x11 - O
            """;

    private static final Map<String, Definition> BY_NAME = parse(DEFINITIONS);

    /**
     * A command's table.
     *
     * @param order the command's long names, blank-separated, in its getopt table's order
     * @param kinds argument kinds that differ from the catalogue's for this command
     */
    public static OptionTable table(String order, Map<String, ArgKind> kinds) {
        OptionTable.Builder b = OptionTable.builder().stopAtFirstOperand().inGivenOrder();
        for (String name : names(order)) {
            Definition d = BY_NAME.get(name);
            if (d == null) {
                throw new IllegalArgumentException("no option --" + name + " in the catalogue");
            }
            b.add(d.shortName(), name, kinds.getOrDefault(name, d.arg()), d.key(), true);
        }
        return b.build();
    }

    public static List<String> names(String order) {
        return Arrays.stream(order.strip().split("\\s+")).toList();
    }

    private static Map<String, Definition> parse(String text) {
        Map<String, Definition> out = new LinkedHashMap<>();
        for (String line : text.strip().split("\n")) {
            String[] f = line.strip().split(" ");
            char shortName = f[1].equals("-") ? 0 : f[1].charAt(0);
            ArgKind arg = switch (f[2]) {
                case "R" -> ArgKind.REQUIRED;
                case "O" -> ArgKind.OPTIONAL;
                default -> ArgKind.NONE;
            };
            out.put(f[0], new Definition(shortName, arg, f.length > 3 ? f[3] : f[0]));
        }
        return out;
    }
}
