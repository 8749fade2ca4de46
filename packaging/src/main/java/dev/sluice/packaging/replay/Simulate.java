package dev.sluice.packaging.replay;

import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.conf.GresConfReader;
import dev.sluice.common.conf.SlurmConfReader;
import dev.sluice.ctld.config.CtldConfig;
import dev.sluice.ctld.config.CtldConfigs;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code sluice simulate}: replays an SWF trace, or a generated one, through the real scheduler
 * on a virtual clock and prints {@link ReplayReport}. The cluster is either N identical nodes
 * ({@link ReplaySite}) or a site's own {@code slurm.conf} (with {@code gres.conf} beside it).
 */
public final class Simulate {
    static final String USAGE = String.join(
            "\n",
            "usage: sluice simulate --swf FILE (--nodes N --cpus C [--gpus G] | --conf slurm.conf)",
            "       sluice simulate --generate [--seed S] [--jobs N] [--load L] [--write-swf FILE]"
                    + " (--nodes N --cpus C [--gpus G] | --conf slurm.conf)");

    private Simulate() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** @return the exit code: 0 done, 1 the trace or configuration is bad, 2 bad usage */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("sluice simulate: error: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        try {
            CtldConfig config = o.conf != null ? siteConfig(o.conf) : ReplaySite.config(o.nodes, o.cpus, o.gpus);
            long totalCpus =
                    config.nodes().stream().mapToLong(n -> n.hardware().cpus()).sum();
            List<SwfJob> trace;
            if (o.swf != null) {
                trace = SwfTrace.parse(Files.readAllLines(o.swf, StandardCharsets.UTF_8));
            } else {
                trace = WorkloadGenerator.generate(o.jobs, totalCpus, o.load, o.seed);
                if (o.writeSwf != null) {
                    Files.writeString(o.writeSwf, swfText(trace, o, totalCpus), StandardCharsets.UTF_8);
                }
            }
            double gpusPerCpu = o.conf == null && o.gpus > 0 ? (double) o.gpus / o.cpus : 0;
            ReplayResult result = new WorkloadReplay(config, gpusPerCpu).run(trace);
            out.print(describe(o, config, totalCpus));
            out.print(ReplayReport.of(result).text());
            return 0;
        } catch (SwfTrace.FormatException e) {
            err.println("sluice simulate: error: " + o.swf + ": " + e.getMessage() + "; nothing simulated");
            return 1;
        } catch (ConfigException e) {
            err.println("sluice simulate: error: " + e.getMessage());
            return 1;
        } catch (NoSuchFileException e) {
            err.println("sluice simulate: error: " + e.getFile() + ": No such file or directory");
            return 1;
        } catch (IOException e) {
            err.println("sluice simulate: error: " + e);
            return 1;
        }
    }

    private static CtldConfig siteConfig(Path slurmConf) throws IOException, ConfigException {
        Path gres = slurmConf.toAbsolutePath().resolveSibling("gres.conf");
        return CtldConfigs.from(
                SlurmConfReader.read(slurmConf),
                Files.exists(gres) ? GresConfReader.read(gres) : GresConfReader.parse("", "gres.conf"),
                0,
                Map.of());
    }

    private static String describe(Options o, CtldConfig config, long totalCpus) {
        String cluster = o.conf != null
                ? config.nodes().size() + " nodes from " + o.conf.getFileName()
                : String.format(Locale.ROOT, "%d nodes x %d CPUs, %d GPUs each", o.nodes, o.cpus, o.gpus);
        String sched = config.scheduler().backfill()
                ? "sched/backfill, bf_max_job_test=" + config.scheduler().reservationDepth() + ", bf_window="
                        + config.scheduler().windowSeconds() / 60
                : "sched/builtin";
        return String.format(Locale.ROOT, "%-31s%s%n%-31s%s%n", "cluster", cluster, "scheduler", sched);
    }

    private static String swfText(List<SwfJob> trace, Options o, long totalCpus) {
        StringBuilder text = new StringBuilder();
        text.append("; Version: 2.2\n");
        text.append("; Computer: Sluice synthetic workload (WorkloadGenerator)\n");
        text.append(String.format(
                Locale.ROOT,
                "; Note: sluice simulate --generate --seed %d --jobs %d --load %s, paced for %d CPUs%n",
                o.seed,
                o.jobs,
                o.load,
                totalCpus));
        text.append("; MaxJobs: ").append(trace.size()).append('\n');
        text.append("; MaxProcs: ").append(totalCpus).append('\n');
        for (SwfJob job : trace) {
            text.append(SwfTrace.format(job)).append('\n');
        }
        return text.toString();
    }

    /** The command line, checked before anything is read. */
    static final class Options {
        Path swf;
        Path conf;
        Path writeSwf;
        boolean generate;
        int nodes;
        int cpus;
        int gpus;
        int jobs = 2000;
        long seed = 1;
        double load = 0.9;

        static Options parse(String[] args) {
            Options o = new Options();
            List<String> a = new ArrayList<>(List.of(args));
            for (int i = 0; i < a.size(); i++) {
                String flag = a.get(i);
                if (flag.equals("--generate")) {
                    o.generate = true;
                    continue;
                }
                if (i + 1 >= a.size()) {
                    throw new IllegalArgumentException(
                            flag.startsWith("--") ? flag + " needs a value" : "unknown argument " + flag);
                }
                String v = a.get(++i);
                switch (flag) {
                    case "--swf" -> o.swf = Path.of(v);
                    case "--conf" -> o.conf = Path.of(v);
                    case "--write-swf" -> o.writeSwf = Path.of(v);
                    case "--nodes" -> o.nodes = positive(flag, v);
                    case "--cpus" -> o.cpus = positive(flag, v);
                    case "--gpus" -> o.gpus = count(flag, v);
                    case "--jobs" -> o.jobs = positive(flag, v);
                    case "--seed" -> o.seed = number(flag, v);
                    case "--load" -> o.load = load(v);
                    default -> throw new IllegalArgumentException("unknown option " + flag);
                }
            }
            if ((o.swf == null) == !o.generate) {
                throw new IllegalArgumentException("give either --swf FILE or --generate");
            }
            if (o.conf == null && (o.nodes == 0 || o.cpus == 0)) {
                throw new IllegalArgumentException("give --nodes and --cpus, or --conf slurm.conf");
            }
            if (o.conf != null && (o.nodes != 0 || o.cpus != 0 || o.gpus != 0)) {
                throw new IllegalArgumentException("--conf describes the nodes: no --nodes, --cpus or --gpus with it");
            }
            if (o.writeSwf != null && !o.generate) {
                throw new IllegalArgumentException("--write-swf writes a generated trace: use it with --generate");
            }
            return o;
        }

        private static long number(String flag, String v) {
            try {
                return Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid " + flag + " value: " + v);
            }
        }

        private static int count(String flag, String v) {
            long n = number(flag, v);
            if (n < 0 || n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("invalid " + flag + " value: " + v);
            }
            return (int) n;
        }

        private static int positive(String flag, String v) {
            int n = count(flag, v);
            if (n == 0) {
                throw new IllegalArgumentException("invalid " + flag + " value: " + v);
            }
            return n;
        }

        private static double load(String v) {
            try {
                double d = Double.parseDouble(v);
                if (d > 0 && d <= 10) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // falls through to the error below
            }
            throw new IllegalArgumentException("invalid --load value: " + v + " (a fraction of the cluster, e.g. 0.9)");
        }
    }
}
