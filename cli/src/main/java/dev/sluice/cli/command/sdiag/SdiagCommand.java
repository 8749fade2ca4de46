package dev.sluice.cli.command.sdiag;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.ClusterOption;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetStatisticsRequest;
import dev.sluice.protocol.v1.GetStatisticsResponse;
import dev.sluice.protocol.v1.ResetStatisticsRequest;
import java.io.PrintStream;
import java.util.Optional;

/**
 * {@code sdiag}: the controller's statistics ({@code -a} is the default report), the RPC lists
 * ordered by {@code -i}, {@code -t} or {@code -T}, and {@code -r} to reset them (operators only).
 * Slurm 22.05's sdiag has no {@code --json}: that is refused as an unknown option, as there.
 */
public final class SdiagCommand implements Command {
    private static final String PROG = "sdiag";

    static final OptionTable TABLE = OptionTable.builder()
            .inGivenOrder()
            .add('a', "all", ArgKind.NONE)
            .add((char) 0, "help", ArgKind.NONE)
            // Observed: -h, not in the help text, prints it.
            .add('h', null, ArgKind.NONE, "help")
            .add('i', "sort-by-id", ArgKind.NONE)
            .add('M', "cluster", ArgKind.REQUIRED, "clusters")
            .add('M', "clusters", ArgKind.REQUIRED)
            .add('r', "reset", ArgKind.NONE)
            .add('t', "sort-by-time", ArgKind.NONE)
            .add('T', "sort-by-time2", ArgKind.NONE)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .build();

    static final String HELP = """
            Usage: sdiag [OPTIONS]
              -a, --all           all statistics
              -r, --reset         reset statistics
              -M, --cluster       direct the request to a specific cluster
              -i, --sort-by-id    sort RPCs by id
              -t, --sort-by-time  sort RPCs by total run time
              -T, --sort-by-time2 sort RPCs by average run time
              -V, --version       display current version number

            Help options:
              --help          show this help message
              --usage         display brief usage message
            """;

    static final String USAGE = "Usage: sdiag [-M cluster] [-aritT]\n";

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, TABLE, inv, err);
        if (line.isEmpty()) {
            return 1;
        }
        boolean reset = false;
        String clusters = null;
        SdiagReport.Order order = SdiagReport.Order.COUNT;
        for (ParsedOption o : line.get().options()) {
            switch (o.key()) {
                case "help" -> {
                    out.print(HELP);
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
                case "reset" -> reset = true;
                case "sort-by-id" -> order = SdiagReport.Order.ID;
                case "sort-by-time" -> order = SdiagReport.Order.TOTAL_TIME;
                case "sort-by-time2" -> order = SdiagReport.Order.AVERAGE_TIME;
                case "clusters" -> clusters = o.value();
                default -> {}
            }
        }
        if (clusters != null && ClusterOption.resolve(inv, PROG, clusters, err).isEmpty()) {
            return 1;
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        if (reset) {
            try {
                client.get()
                        .call(ClientRequest.newBuilder()
                                .setResetStatistics(ResetStatisticsRequest.getDefaultInstance()));
            } catch (ControllerException e) {
                // Observed: exit status 255 (slurm_reset_statistics's -1).
                err.println("slurm_reset_statistics: " + e.getMessage());
                return 255;
            }
            out.println("Reset scheduling statistics");
            return 0;
        }
        GetStatisticsResponse stats;
        try {
            stats = client.get()
                    .call(ClientRequest.newBuilder().setGetStatistics(GetStatisticsRequest.getDefaultInstance()))
                    .getGetStatistics();
        } catch (ControllerException e) {
            err.println("slurm_get_statistics: " + e.getMessage());
            return 1;
        }
        out.print(SdiagReport.render(stats, inv.clock().getZone(), order, latencyMicros(inv)));
        return 0;
    }

    /** What 1000 readings of the clock take here, as sdiag measures gettimeofday(). */
    private static long latencyMicros(Invocation inv) {
        long start = System.nanoTime();
        long sink = 0;
        for (int i = 0; i < 1000; i++) {
            sink += inv.clock().millis();
        }
        long took = System.nanoTime() - start;
        return sink == Long.MIN_VALUE ? 0 : took / 1000;
    }
}
