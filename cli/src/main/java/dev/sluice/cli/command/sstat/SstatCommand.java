package dev.sluice.cli.command.sstat;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.format.FieldTable;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.GetoptException;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetStepStatsRequest;
import dev.sluice.protocol.v1.StepUsage;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * {@code sstat}: what the tasks of running steps use now, as their node daemons read it
 * ({@code -j}, {@code -a}, {@code -o}, {@code -i}, {@code -n}, {@code -p}/{@code -P},
 * {@code -e}), with Slurm's messages for jobs without running steps. Slurm 22.05's sstat has no
 * {@code --json}.
 */
public final class SstatCommand implements Command {
    private static final String PROG = "sstat";
    static final int BATCH_STEP = 0xfffffffb;
    static final int EXTERN_STEP = 0xfffffffc;
    /** Step ids from here on are Slurm's special steps (batch, extern, ...). */
    private static final int FIRST_SPECIAL = 0xfffffff0;

    static final OptionTable TABLE = OptionTable.builder()
            .inGivenOrder()
            .add('a', "allsteps", ArgKind.NONE)
            .add('e', "helpformat", ArgKind.NONE)
            .add('h', "help", ArgKind.NONE)
            .add('i', "pidformat", ArgKind.NONE)
            .add('j', "jobs", ArgKind.REQUIRED)
            .add('n', "noheader", ArgKind.NONE)
            .add((char) 0, "noconvert", ArgKind.NONE)
            .add('o', "format", ArgKind.REQUIRED)
            .add('o', "fields", ArgKind.REQUIRED, "format")
            .add('p', "parsable", ArgKind.NONE)
            .add('P', "parsable2", ArgKind.NONE)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .build();

    /** One {@code -j} item: a job, and a step or none. */
    record Target(int jobId, Integer stepId) {}

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Getopt.Result line;
        try {
            line = Getopt.parse(PROG, TABLE, inv.args());
        } catch (GetoptException e) {
            // Observed: sstat prints glibc's line only, no hint.
            err.println(e.getMessage());
            return 1;
        }
        boolean all = false;
        boolean noHeader = false;
        FieldTable.Mode mode = FieldTable.Mode.FIXED;
        List<SstatField> fields = new ArrayList<>(SstatField.DEFAULT);
        List<Integer> widths = null;
        List<String> jobs = new ArrayList<>();
        for (ParsedOption o : line.options()) {
            switch (o.key()) {
                case "help" -> {
                    out.print(SstatHelp.HELP);
                    return 0;
                }
                case "usage" -> {
                    out.print(SstatHelp.USAGE);
                    return 0;
                }
                case "version" -> {
                    out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                    return 0;
                }
                case "helpformat" -> {
                    out.print(SstatHelp.FIELDS);
                    return 0;
                }
                case "allsteps" -> all = true;
                case "noheader" -> noHeader = true;
                case "parsable" -> mode = FieldTable.Mode.PARSABLE;
                case "parsable2" -> mode = FieldTable.Mode.PARSABLE2;
                case "pidformat" -> {
                    fields = new ArrayList<>(SstatField.PIDS_FORMAT);
                    widths = null;
                }
                case "jobs" -> jobs.addAll(CommandSupport.commaList(o.value()));
                case "format" -> {
                    fields = new ArrayList<>();
                    widths = new ArrayList<>();
                    for (String item : CommandSupport.commaList(o.value())) {
                        int pct = item.indexOf('%');
                        String name = pct < 0 ? item : item.substring(0, pct);
                        Optional<SstatField> f = SstatField.named(name);
                        if (f.isEmpty()) {
                            err.println(PROG + ": error: Invalid field requested: \"" + name + "\"");
                            return 1;
                        }
                        fields.add(f.get());
                        widths.add(pct < 0 ? null : parseWidth(item.substring(pct + 1), f.get().width));
                    }
                }
                default -> {}
            }
        }
        line.operands().forEach(a -> jobs.addAll(CommandSupport.commaList(a)));
        if (jobs.isEmpty()) {
            err.println(PROG + ": error: You didn't give me any jobs to stat.");
            return 1;
        }
        List<Target> targets = new ArrayList<>();
        for (String j : jobs) {
            Optional<Target> t = target(j, err);
            if (t.isEmpty()) {
                return 1;
            }
            targets.add(t.get());
        }
        List<FieldTable.Column> columns = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            columns.add(new FieldTable.Column(fields.get(i).title, width(fields, widths, i)));
        }
        FieldTable table = new FieldTable(columns, mode);
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        if (!noHeader) {
            table.header().forEach(out::println);
        }
        for (Target t : targets) {
            List<StepUsage> steps;
            try {
                steps = client.get()
                        .call(ClientRequest.newBuilder()
                                .setGetStepStats(
                                        GetStepStatsRequest.newBuilder().setJobId(t.jobId())))
                        .getGetStepStats()
                        .getStepsList();
            } catch (ControllerException e) {
                if (e.code() == ErrorCode.INVALID_JOB_ID) {
                    err.println(PROG + ": error: couldn't get steps for job " + t.jobId());
                } else {
                    err.println(PROG + ": error: " + e.getMessage());
                }
                continue;
            }
            List<StepUsage> chosen = choose(steps, t, all);
            if (chosen.isEmpty()) {
                if (t.stepId() == null) {
                    err.println(PROG + ": error: No steps running for job " + t.jobId());
                } else {
                    err.println(
                            PROG + ": error: StepId=" + t.jobId() + "." + stepName(t.stepId()) + " not found running.");
                }
                continue;
            }
            for (StepUsage s : chosen) {
                StepStats stats = StepStats.of(s.getTasksList());
                String id = s.getJobId() + "." + stepName(s.getStepId());
                List<String> values = new ArrayList<>();
                for (SstatField f : fields) {
                    values.add(f.value(id, s.getStepId() == BATCH_STEP, s.getNodeList(), stats));
                }
                out.println(table.row(values));
            }
        }
        return 0;
    }

    /**
     * The steps to show: the named one; every one with {@code -a} (special steps first, as
     * Slurm lists them); else the lowest-numbered ordinary step.
     */
    static List<StepUsage> choose(List<StepUsage> steps, Target t, boolean all) {
        if (t.stepId() != null) {
            return steps.stream().filter(s -> s.getStepId() == t.stepId()).toList();
        }
        List<StepUsage> sorted = new ArrayList<>(steps);
        sorted.sort(Comparator.comparingLong((StepUsage s) -> special(s) ? 0 : 1)
                .thenComparingLong(s -> Integer.toUnsignedLong(s.getStepId())));
        if (all) {
            return sorted;
        }
        return sorted.stream().filter(s -> !special(s)).limit(1).toList();
    }

    private static boolean special(StepUsage s) {
        return Integer.compareUnsigned(s.getStepId(), FIRST_SPECIAL) >= 0;
    }

    static String stepName(int stepId) {
        if (stepId == BATCH_STEP) {
            return "batch";
        }
        if (stepId == EXTERN_STEP) {
            return "extern";
        }
        return Integer.toUnsignedString(stepId);
    }

    /** {@code 12}, {@code 12.3}, {@code 12.batch}, {@code 12.extern}; Slurm's fatal otherwise. */
    static Optional<Target> target(String text, PrintStream err) {
        int dot = text.indexOf('.');
        String job = dot < 0 ? text : text.substring(0, dot);
        int jobId;
        try {
            jobId = Integer.parseInt(job.strip());
            if (jobId <= 0) {
                throw new NumberFormatException(job);
            }
        } catch (NumberFormatException e) {
            err.println(PROG + ": fatal: Bad job/step specified: " + text);
            return Optional.empty();
        }
        if (dot < 0) {
            return Optional.of(new Target(jobId, null));
        }
        String step = text.substring(dot + 1);
        switch (step) {
            case "batch" -> {
                return Optional.of(new Target(jobId, BATCH_STEP));
            }
            case "extern" -> {
                return Optional.of(new Target(jobId, EXTERN_STEP));
            }
            default -> {
                try {
                    int s = Integer.parseInt(step);
                    if (s >= 0) {
                        return Optional.of(new Target(jobId, s));
                    }
                } catch (NumberFormatException e) {
                    // below
                }
                err.println(PROG + ": fatal: Bad step specified: " + job);
                return Optional.empty();
            }
        }
    }

    /**
     * A field's width: its default, or the last width given to that field anywhere in the format
     * ({@code widths}: null where none was given)
     * (observed: {@code jobid,jobid%20} prints both JobID columns 20 wide, right-justified).
     */
    static int width(List<SstatField> fields, List<Integer> widths, int i) {
        int w = fields.get(i).width;
        if (widths == null) {
            return w;
        }
        for (int j = 0; j < fields.size(); j++) {
            if (fields.get(j) == fields.get(i) && widths.get(j) != null) {
                w = widths.get(j);
            }
        }
        return w;
    }

    private static int parseWidth(String text, int fallback) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
