package dev.sluice.cli.command.sprio;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.command.ClusterOption;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetPrioritiesRequest;
import dev.sluice.protocol.v1.GetPrioritiesResponse;
import dev.sluice.protocol.v1.JobPriorityInfo;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code sprio}: the factors of pending jobs' priorities under {@code priority/multifactor}
 * ({@code -l}, {@code -n}, {@code -w}, {@code -o}, {@code -j}, {@code -u}, {@code -p},
 * {@code -h}). Under {@code priority/basic} it prints Slurm's refusal without asking the
 * controller, as Slurm's sprio does. Slurm 22.05's sprio has no {@code --json}.
 */
public final class SprioCommand implements Command {
    private static final String PROG = "sprio";

    static final OptionTable TABLE = OptionTable.builder()
            .inGivenOrder()
            .add((char) 0, "federation", ArgKind.NONE)
            .add('h', "noheader", ArgKind.NONE)
            .add((char) 0, "help", ArgKind.NONE)
            .add('j', "jobs", ArgKind.OPTIONAL)
            .add((char) 0, "local", ArgKind.NONE)
            .add('l', "long", ArgKind.NONE)
            .add('M', "cluster", ArgKind.REQUIRED, "clusters")
            .add('M', "clusters", ArgKind.REQUIRED)
            .add('n', "norm", ArgKind.NONE)
            .add('o', "format", ArgKind.REQUIRED)
            .add('p', "partition", ArgKind.REQUIRED)
            .add((char) 0, "sibling", ArgKind.NONE)
            .add('u', "user", ArgKind.REQUIRED)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .add('w', "weights", ArgKind.NONE)
            .build();

    static final String USAGE = """
            Usage: sprio [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]
               [--federation] [--local] [--sibling] [--usage] [-hlnvVw]
            """;

    static final String BASIC = """
            You are not running a supported priority plugin
            (priority/basic).
            Only 'priority/multifactor' is supported.
            """;

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, TABLE, inv, err);
        if (line.isEmpty()) {
            return 1;
        }
        List<String> operands = new ArrayList<>(line.get().operands());
        boolean noHeader = false;
        boolean longFormat = false;
        boolean normalized = false;
        boolean weights = false;
        String format = null;
        String jobs = null;
        boolean jobsWithoutList = false;
        String users = null;
        String partitions = null;
        String clusters = null;
        for (ParsedOption o : line.get().options()) {
            switch (o.key()) {
                case "help" -> {
                    out.print(SprioHelp.HELP);
                    return 0;
                }
                case "usage" -> {
                    out.print(USAGE);
                    return 0;
                }
                case "version" -> {
                    out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                    return 0;
                }
                case "noheader" -> noHeader = true;
                case "long" -> longFormat = true;
                case "norm" -> normalized = true;
                case "weights" -> weights = true;
                case "format" -> format = o.value();
                case "jobs" -> {
                    jobs = o.value();
                    jobsWithoutList = o.value() == null || o.value().isEmpty();
                }
                case "user" -> users = o.value();
                case "partition" -> partitions = o.value();
                case "clusters" -> clusters = o.value();
                default -> {}
            }
        }
        if (longFormat && format != null) {
            // Checked once every option is read, whichever came first (compat 245).
            err.println(
                    PROG
                            + ": fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.");
            return 1;
        }
        // -j takes its list attached; a bare -j takes the first word after the options (observed).
        if (jobsWithoutList && !operands.isEmpty()) {
            jobs = operands.remove(0);
        }
        if (!operands.isEmpty()) {
            err.println(PROG + ": error: Unrecognized option: " + operands.get(operands.size() - 1));
            out.print(USAGE);
            return 1;
        }
        Set<Integer> jobIds = new HashSet<>();
        for (String id : CommandSupport.commaList(jobs)) {
            try {
                jobIds.add(Integer.parseInt(id));
            } catch (NumberFormatException e) {
                err.println(PROG + ": error: Invalid job id: " + id);
                return 1;
            }
        }
        Set<String> userNames = null;
        if (users != null) {
            userNames = new HashSet<>();
            for (String u : CommandSupport.commaList(users)) {
                if (inv.users().uid(u).isEmpty()) {
                    err.println(PROG + ": error: Invalid user: " + u);
                } else {
                    userNames.add(u);
                }
            }
        }
        if (!multifactor(inv)) {
            // Observed: on standard error.
            err.print(BASIC);
            return 1;
        }
        if (clusters != null && ClusterOption.resolve(inv, PROG, clusters, err).isEmpty()) {
            return 1;
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        GetPrioritiesResponse answer;
        try {
            answer = client.get()
                    .call(ClientRequest.newBuilder().setGetPriorities(GetPrioritiesRequest.getDefaultInstance()))
                    .getGetPriorities();
        } catch (ControllerException e) {
            err.println("slurm_load_job_prio: " + e.getMessage());
            return 1;
        }
        if (!answer.getMultifactor()) {
            err.print(BASIC);
            return 1;
        }
        List<JobPriorityInfo> shown = new ArrayList<>();
        Set<String> wantedPartitions = new HashSet<>(CommandSupport.commaList(partitions));
        for (JobPriorityInfo j : answer.getJobsList()) {
            if (!jobIds.isEmpty() && !jobIds.contains(j.getJobId())) {
                continue;
            }
            if (userNames != null && !userNames.contains(j.getUserName())) {
                continue;
            }
            if (!wantedPartitions.isEmpty() && !wantedPartitions.contains(j.getPartition())) {
                continue;
            }
            shown.add(j);
        }
        if (!jobIds.isEmpty() && shown.isEmpty()) {
            out.println("Unable to find jobs matching user/id(s) specified");
            return 0;
        }
        String fmt = format != null
                ? format
                : SprioFormat.defaults(answer.getWeights(), longFormat, normalized, users != null);
        StringBuilder prefix = new StringBuilder();
        List<SprioFormat.Field> fields = SprioFormat.parse(
                fmt, prefix, c -> err.println(PROG + ": error: Invalid job format specification: " + c));
        SprioFormat.render(prefix.toString(), fields, !noHeader, weights, shown, answer.getWeights())
                .forEach(out::println);
        return 0;
    }

    /** Slurm's sprio reads PriorityType from its own configuration before asking anything. */
    private static boolean multifactor(Invocation inv) {
        try {
            return inv.setup()
                    .access(ControllerLocator.confPath(inv.env(), inv.cwd()))
                    .conf()
                    .value("PriorityType")
                    .map(v -> v.strip().toLowerCase(Locale.ROOT).equals("priority/multifactor"))
                    .orElse(false);
        } catch (ConfigException | IllegalArgumentException e) {
            // Unreadable: connecting reports why.
            return true;
        }
    }
}
