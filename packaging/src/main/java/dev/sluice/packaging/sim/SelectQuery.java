package dev.sluice.packaging.sim;

import dev.sluice.cli.Caller;
import dev.sluice.common.hostlist.IndexRanges;
import dev.sluice.ctld.gres.GresGrant;
import dev.sluice.ctld.state.Allocation;
import dev.sluice.ctld.state.ClusterImage;
import dev.sluice.ctld.state.Job;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code sluice select-query --conf slurm.conf REQUESTS}: where would these jobs go? Loads a
 * site's {@code slurm.conf} (and {@code gres.conf} beside it) into a simulated cluster whose
 * nodes are all idle, submits each line of REQUESTS as {@code sbatch} options in order, runs one
 * scheduling pass with the real scheduler and allocator, and prints for each request where it
 * was placed (nodes, CPUs, cores, device indices), why it waits, or why it was refused. For admins
 * checking a configuration, and for golden tests (as Flux's {@code resource-query}).
 */
public final class SelectQuery {
    private SelectQuery() {}

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Path conf = null;
        Path requests = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--conf") && i + 1 < args.length) {
                conf = Path.of(args[++i]);
            } else if (args[i].equals("-h") || args[i].equals("--help")) {
                out.println("usage: sluice select-query --conf slurm.conf REQUESTS_FILE");
                out.println("  REQUESTS_FILE: one job per line, as sbatch options (e.g. -N2 --gres=gpu:2)");
                return 0;
            } else {
                requests = Path.of(args[i]);
            }
        }
        if (conf == null || requests == null) {
            err.println("usage: sluice select-query --conf slurm.conf REQUESTS_FILE");
            return 2;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(requests);
        } catch (java.io.IOException e) {
            err.println("sluice select-query: error: cannot read " + requests + ": "
                    + (e instanceof java.nio.file.NoSuchFileException ? "No such file or directory" : e.getMessage()));
            return 1;
        }
        // Scratch state and a throw-away cluster key, owner-only and gone when the query is.
        Path work = Files.createTempDirectory(
                "sluice-select-query",
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        dev.sluice.common.files.OwnerOnly.DIRECTORY_MODE));
        try {
            return query(conf, lines, work, out, err);
        } finally {
            SimulatedCluster.deleteTree(work);
        }
    }

    private static int query(Path conf, List<String> lines, Path work, PrintStream out, PrintStream err)
            throws Exception {
        SimulatedCluster started;
        try {
            started = SimulatedCluster.start(conf, work, Instant.now());
        } catch (dev.sluice.common.conf.ConfigException e) {
            err.println("sluice select-query: error: " + e.getMessage());
            return 1;
        }
        try (SimulatedCluster cluster = started) {
            Caller root = new Caller(0, 0, "root", "localhost");
            List<Integer> ids = new ArrayList<>();
            List<String> labels = new ArrayList<>();
            for (String line : lines) {
                String text = line.strip();
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                List<String> words = new ArrayList<>(Words.split(text));
                if (words.stream().noneMatch(w -> w.startsWith("--wrap"))) {
                    words.add("--wrap=true");
                }
                words.add(0, "--parsable");
                SimulatedCluster.Output o = cluster.run(root, "sbatch", words, null);
                labels.add(text);
                if (o.exitCode() == 0) {
                    ids.add(Integer.parseInt(o.out().strip().split(";")[0]));
                } else {
                    ids.add(-1);
                    labels.set(labels.size() - 1, text + "\u0000" + o.err().strip());
                }
            }
            cluster.settle();
            ClusterImage image = cluster.image();
            for (int i = 0; i < ids.size(); i++) {
                out.println(describe(image, ids.get(i), labels.get(i)));
            }
        }
        return 0;
    }

    static String describe(ClusterImage image, int id, String label) {
        if (id < 0) {
            String[] parts = label.split("\u0000", 2);
            return parts[0] + "\n  rejected: " + parts[1].replaceFirst("^sbatch: error: ", "");
        }
        Job job = image.job(id).orElseThrow();
        StringBuilder s = new StringBuilder(label)
                .append("\n  job ")
                .append(job.displayId())
                .append(": ");
        if (job.isRunning()) {
            s.append("placed on ")
                    .append(job.allocation().nodes().stream()
                            .map(SelectQuery::share)
                            .collect(Collectors.joining("; ")));
        } else {
            s.append("pending (").append(image.reasonOf(job)).append(')');
            String detail = image.reasonDetails().get(id);
            if (detail != null) {
                s.append(": ").append(detail);
            }
        }
        return s.toString();
    }

    private static String share(Allocation.NodeShare n) {
        StringBuilder s = new StringBuilder(n.node()).append(" cpu=").append(n.cpus());
        if (!n.cores().isEmpty()) {
            // Core indices as gres.conf's Cores= numbers them, in scontrol's CPU_IDs notation.
            s.append(" cores=").append(IndexRanges.format(n.cores()));
        }
        if (n.memoryMb() > 0) {
            s.append(" mem=").append(n.memoryMb()).append('M');
        }
        for (GresGrant g : n.gres()) {
            s.append(' ').append(g.name()).append(g.type().isEmpty() ? "" : ":" + g.type());
            if (g.name().equals("gpu")) {
                s.append(" idx=")
                        .append(g.indices().stream().map(String::valueOf).collect(Collectors.joining(",")));
            } else {
                s.append('=')
                        .append(g.count())
                        .append(" on gpu ")
                        .append(g.indices().get(0));
            }
        }
        return s.toString();
    }
}
