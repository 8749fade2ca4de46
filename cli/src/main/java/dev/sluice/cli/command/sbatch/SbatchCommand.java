package dev.sluice.cli.command.sbatch;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.submit.ControllerRefusals;
import dev.sluice.cli.command.submit.DefinedOptions;
import dev.sluice.cli.command.submit.JobSpecBuilder;
import dev.sluice.cli.command.submit.OptionChecks;
import dev.sluice.cli.command.submit.SubmitException;
import dev.sluice.cli.command.submit.SubmitOptions;
import dev.sluice.cli.command.submit.TestOnly;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.GetoptException;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.text.RawText;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.JobSpec;
import dev.sluice.protocol.v1.SubmitBatchJobRequest;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code sbatch}: reads the script (file, {@code --wrap}, or standard input), merges
 * {@code #SBATCH} lines, {@code SBATCH_*} variables and the command line, and submits. Every
 * option of Slurm 22.05's sbatch is taken, through the model srun and salloc share ({@code
 * command/submit}); docs/commands.md says which are honoured, warned about, refused or recorded.
 *
 * <p>Exit statuses as Slurm 22.05's: 255 for a bad command line or a bad option value found while
 * parsing, 1 for script problems and for a refused submission, 0 on success.
 */
public final class SbatchCommand implements Command {
    private static final String PROG = "sbatch";
    private static final String STDIN_NAME = "(stdin)";

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, SbatchOptions.TABLE, inv, err);
        if (line.isEmpty()) {
            return 255;
        }
        Getopt.Result cmdline = line.get();
        for (ParsedOption o : cmdline.options()) {
            switch (o.key()) {
                case "help" -> {
                    out.print(SbatchOptions.HELP);
                    return 0;
                }
                case "usage" -> {
                    out.print(SbatchOptions.USAGE);
                    return 0;
                }
                case "version" -> {
                    out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                    return 0;
                }
                default -> {}
            }
        }
        // Slurm's sbatch reads its command line twice, before the script and after it: what its
        // parser says about a value it ignores is said twice (real sbatch 22.05, --power=bogus).
        cmdline.options().stream()
                .filter(o -> o.key().equals("power"))
                .forEach(o -> OptionChecks.powerWarning(RawText.toText(o.value()))
                        .ifPresent(w -> err.println(PROG + ": " + w)));
        SubmitOptions cli = new SubmitOptions();
        cli.apply(cmdline.options());
        try {
            return submit(inv, cmdline, cli, out, err);
        } catch (SubmitException e) {
            out.print(e.output());
            e.lines().forEach(l -> err.println(PROG + ": " + l));
            return e.exitCode();
        } catch (GetoptException e) {
            CommandSupport.usageError(e, PROG, err);
            return 255;
        }
    }

    /** Far above any max_script_size: the controller refuses a script over its limit with Slurm's words. */
    static final int MAX_SCRIPT_READ = 64 << 20;

    private int submit(Invocation inv, Getopt.Result cmdline, SubmitOptions cli, PrintStream out, PrintStream err)
            throws SubmitException, GetoptException {
        firstPass(inv, cli);
        List<String> operands = cmdline.operands();
        // The script is bytes, as Slurm sends it; `text` is the same bytes as RawText, for the
        // checks and the #SBATCH lines.
        byte[] script;
        String fileName;
        String defaultName;
        List<String> scriptArgs;
        String command = "";
        boolean wrapped = cli.has("wrap");
        if (wrapped) {
            if (!operands.isEmpty()) {
                throw new SubmitException(1, "error: Script arguments not permitted with --wrap option");
            }
            // The text Slurm's sbatch --wrap generates (scontrol write batch_script shows it).
            script = RawText.encode(
                    "#!/bin/sh\n# This script was created by sbatch --wrap.\n\n" + cli.raw("wrap") + "\n");
            fileName = "wrap";
            defaultName = "wrap";
            scriptArgs = List.of();
        } else if (!operands.isEmpty()) {
            fileName = RawText.toText(operands.get(0));
            script = readScript(inv, operands.get(0), fileName);
            command = inv.cwd().resolve(fileName).normalize().toString();
            Path name = Path.of(fileName).getFileName();
            defaultName = name == null ? fileName : name.toString();
            scriptArgs = operands.subList(1, operands.size());
        } else {
            try {
                script = inv.stdin().readAllBytes();
            } catch (IOException e) {
                throw new SubmitException(
                        1, "error: Unable to read batch script from standard input: " + e.getMessage());
            }
            fileName = STDIN_NAME;
            defaultName = "sbatch";
            scriptArgs = List.of();
        }
        String text = RawText.decode(script);
        checkScript(text);

        Getopt.Result directives = Getopt.parse(PROG, SbatchOptions.TABLE, ScriptDirectives.scan(text, fileName));
        if (!directives.operands().isEmpty()) {
            throw new SubmitException(
                    1,
                    "error: Invalid directive found in batch script: "
                            + directives.operands().get(0));
        }
        SubmitOptions merged = new SubmitOptions();
        merged.apply(directives.options());
        merged.applyEnv(SbatchOptions.ENV, inv.env());
        merged.apply(cmdline.options());

        Consumer<String> warn = w -> err.println(PROG + ": " + w);
        OptionChecks.checkBatch(merged, OptionChecks.Cluster.of(inv), inv, warn);
        JobSpec.Builder specBuilder =
                JobSpecBuilder.build(merged, inv, script, scriptArgs, defaultName, wrapped, warn).toBuilder()
                        .setCommand(command);
        // As sbatch does (recorded from Slurm 22.05, compat 037): the job learns where sbatch ran,
        // whatever --chdir says, and its --export, whatever it exports.
        Map<String, String> told = new java.util.LinkedHashMap<>();
        told.put("SLURM_SUBMIT_DIR", inv.cwd().toString());
        if (merged.has("export")) {
            told.put("SLURM_EXPORT_ENV", merged.raw("export"));
        }
        // sbatch, not the node, names the job to it; a script read from standard input without
        // -J has its name ("sbatch") only on the controller's side (compat 034).
        if (!fileName.equals(STDIN_NAME) || merged.has("job-name")) {
            told.put("SLURM_JOB_NAME", specBuilder.getName());
        }
        specBuilder.putAllEnvironment(CommandSupport.wireEnvironment(told));
        JobSpec spec = specBuilder.build();

        int verbosity = verbosity(directives) + verbosity(cmdline);
        if (verbosity > 0) {
            DefinedOptions.lines(SbatchOptions.TABLE, merged, verbosity, inv, absolutePaths(merged, spec.getWorkDir()))
                    .forEach(l -> err.println(PROG + ": " + l));
            if (merged.has("export-file")) {
                err.println(PROG + ": Getting environment variables from " + merged.get("export-file"));
            }
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty() || !CommandSupport.knownGres(inv, spec.getGresPerNode(), PROG, err)) {
            return 1;
        }
        Optional<String> refused = ControllerRefusals.of(merged);
        if (refused.isPresent()) {
            // The controller's words, as --test-only or a submission prints them (real sbatch 22.05).
            err.println(
                    (merged.has("test-only") ? "allocation failure: " : PROG + ": error: Batch job submission failed: ")
                            + refused.get());
            return 1;
        }
        if (merged.has("test-only")) {
            return TestOnly.run(PROG, client.get(), spec, merged.has("quiet"), inv, err);
        }
        int jobId;
        try {
            jobId = client.get()
                    .call(ClientRequest.newBuilder()
                            .setSubmitBatchJob(
                                    SubmitBatchJobRequest.newBuilder().setSpec(spec)))
                    .getSubmitBatchJob()
                    .getJobId();
        } catch (ControllerException e) {
            if (!e.userMessage().isEmpty()) {
                err.println(PROG + ": error: " + e.userMessage());
            }
            err.println(PROG + ": error: Batch job submission failed: " + e.getMessage());
            return 1;
        }
        if (!merged.has("quiet")) {
            String id = Integer.toUnsignedString(jobId);
            if (merged.has("parsable")) {
                // With -M, the cluster that took the job follows (sbatch(1), --parsable).
                out.println(merged.has("clusters") ? id + ";" + CommandSupport.clusterName(inv) : id);
            } else {
                out.println("Submitted batch job " + id
                        + (merged.has("clusters") ? " on cluster " + CommandSupport.clusterName(inv) : ""));
            }
        }
        if (merged.has("wait")) {
            out.flush();
            return SbatchWait.await(client.get(), jobId, err);
        }
        return 0;
    }

    /**
     * Slurm's sbatch runs each command-line option's own parser before it reads the script, so a
     * value that parser refuses is reported first (its exit status 255, or "Invalid numeric
     * value", 1: {@code sbatch -c 0 /nonexistent} says so, not "Unable to open file"); the checks
     * of options together, and every warning, come once the {@code #SBATCH} lines are in.
     */
    private static void firstPass(Invocation inv, SubmitOptions cli) throws SubmitException {
        try {
            OptionChecks.checkBatch(cli, OptionChecks.Cluster.of(inv), inv, w -> {});
            JobSpecBuilder.build(cli, inv, new byte[0], List.of(), PROG, false, w -> {});
        } catch (SubmitException e) {
            if (e.exitCode() == 255
                    || (!e.lines().isEmpty() && e.lines().get(0).startsWith("error: Invalid numeric value"))) {
                throw e;
            }
        }
    }

    /**
     * How real sbatch keeps (and -v lists) its paths: the working directory absolute, the
     * standard streams' files absolute within it, {@code none} as {@code /dev/null}.
     */
    private static Map<String, String> absolutePaths(SubmitOptions o, String workDir) {
        Map<String, String> out = new java.util.HashMap<>();
        out.put("chdir", workDir);
        for (String stream : List.of("output", "error", "input")) {
            if (o.has(stream)) {
                String v = o.get(stream);
                out.put(
                        stream,
                        v.equalsIgnoreCase("none")
                                ? "/dev/null"
                                : Path.of(workDir).resolve(v).toString());
            }
        }
        return out;
    }

    private static int verbosity(Getopt.Result line) {
        return (int)
                line.options().stream().filter(o -> o.key().equals("verbose")).count();
    }

    /** The script file, opened with the caller's rights (through sluice-agent: by the caller's front end). */
    private static byte[] readScript(Invocation inv, String path, String shown) throws SubmitException {
        try {
            return inv.callerSide().read(path, MAX_SCRIPT_READ);
        } catch (IOException e) {
            throw new SubmitException(1, "error: Unable to open file " + shown);
        }
    }

    /** Slurm's checks on the script text, with its messages and in its order. */
    static void checkScript(String script) throws SubmitException {
        if (script.isEmpty()) {
            throw new SubmitException(1, "error: Batch script is empty!");
        }
        int nul = script.indexOf('\0');
        // Slurm reads the script as a C string here: what follows a NUL is not seen.
        if ((nul < 0 ? script : script.substring(0, nul)).isBlank()) {
            throw new SubmitException(1, "error: Batch script contains only whitespace!");
        }
        if (!script.startsWith("#!")) {
            throw new SubmitException(
                    1,
                    "error: This does not look like a batch script.  The first",
                    "error: line must start with #! followed by the path to an interpreter.",
                    "error: For instance: #!/bin/sh");
        }
        if (nul >= 0) {
            throw new SubmitException(
                    1,
                    "error: The Slurm controller does not allow scripts that",
                    "error: contain a NULL character '\\0'.");
        }
        if (script.contains("\r\n")) {
            throw new SubmitException(
                    1,
                    "error: Batch script contains DOS line breaks (\\r\\n)",
                    "error: instead of expected UNIX line breaks (\\n).");
        }
    }
}
