package dev.sluice.cli.command.submit;

import com.google.protobuf.ByteString;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.caller.CallerFileException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.common.slurm.GresBinding;
import dev.sluice.common.slurm.MailType;
import dev.sluice.common.slurm.OpenMode;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.text.RawText;
import dev.sluice.common.time.BeginTime;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Turns merged sbatch options into a {@link JobSpec}, with Slurm's messages and exit statuses
 * for values it rejects. Fields left unset keep proto3's zero so the controller applies
 * partition and configuration defaults; the time limit uses Slurm's NO_VAL instead, because
 * zero minutes is a real request ({@code --time=0} means no limit).
 */
public final class JobSpecBuilder {
    private JobSpecBuilder() {}

    /**
     * @param script the batch script, as bytes
     * @param defaultName the job name when no {@code -J}: {@code wrap}, the script's file name, or
     *     {@code sbatch} for a script read from standard input
     * @param warn receives warnings Slurm prints and continues after
     */
    public static JobSpec build(
            SubmitOptions o,
            Invocation inv,
            byte[] script,
            List<String> scriptArgs,
            String defaultName,
            boolean wrapped,
            Consumer<String> warn)
            throws SubmitException {
        return build(o, inv, script, scriptArgs, defaultName, wrapped, true, warn);
    }

    /**
     * An allocation without a batch script, as salloc and a lone srun ask for one.
     *
     * @param defaultName the job name when no {@code -J}: the command's file name
     * @param command what runs in it, for scontrol's {@code Command=}
     */
    public static JobSpec allocation(
            SubmitOptions o, Invocation inv, String defaultName, String command, Consumer<String> warn)
            throws SubmitException {
        return build(o, inv, new byte[0], List.of(), defaultName, false, false, warn).toBuilder()
                .setCommand(command)
                .build();
    }

    private static JobSpec build(
            SubmitOptions o,
            Invocation inv,
            byte[] script,
            List<String> scriptArgs,
            String defaultName,
            boolean wrapped,
            boolean batch,
            Consumer<String> warn)
            throws SubmitException {
        JobSpec.Builder spec = JobSpec.newBuilder()
                .setScript(ByteString.copyFrom(script))
                .addAllScriptArgs(scriptArgs.stream().map(RawText::toText).toList())
                .setWrapped(wrapped)
                .setName(o.has("job-name") ? o.get("job-name") : defaultName)
                .setTimeLimitMinutes(SlurmLimits.NO_VAL32)
                .setRequeue(!"0".equals(o.get("requeue")))
                .setRequeueSet(o.has("requeue"))
                .setOwner(Identity.newBuilder()
                        .setUid((int) inv.caller().uid())
                        .setGid((int) inv.caller().gid())
                        .setUserName(inv.caller().userName())
                        .setHost(inv.caller().host()))
                .setSubmitHost(inv.caller().host());

        Path workDir = o.has("chdir") ? inv.cwd().resolve(o.get("chdir")).normalize() : inv.cwd();
        spec.setWorkDir(workDir.toString());

        if (o.has("nodes")) {
            int[] range = OptionNumbers.nodeRange(o.get("nodes"));
            spec.setMinNodes(range[0]).setMaxNodes(range[1]);
        }
        if (o.has("ntasks")) {
            spec.setNumTasks(OptionNumbers.positive(o.get("ntasks"), "--ntasks"));
        }
        if (o.has("cpus-per-task")) {
            spec.setCpusPerTask(OptionNumbers.positive(o.get("cpus-per-task"), "--cpus-per-task"));
        }
        if (o.has("ntasks-per-node")) {
            spec.setNtasksPerNode(OptionNumbers.positive(o.get("ntasks-per-node"), "--ntasks-per-node"));
        }
        if (spec.getNumTasks() > 0 && spec.getMinNodes() > spec.getNumTasks()) {
            warn.accept("Warning: can't run " + spec.getNumTasks() + " processes on " + spec.getMinNodes()
                    + " nodes, setting nnodes to " + spec.getNumTasks());
            spec.setMinNodes(spec.getNumTasks());
            if (spec.getMaxNodes() > spec.getNumTasks()) {
                spec.setMaxNodes(spec.getNumTasks());
            }
        }
        if (o.has("time")) {
            try {
                long minutes = TimeLimit.parseJobMinutes(o.get("time"));
                // A negative limit ("-5": minus five days) is kept as Slurm keeps it, wrapped
                // into its unsigned 32 bits.
                spec.setTimeLimitMinutes(
                        minutes == 0
                                ? SlurmLimits.INFINITE32
                                : minutes < 0 ? (int) minutes : SlurmLimits.toWire(minutes));
            } catch (IllegalArgumentException e) {
                throw new SubmitException(255, "error: Invalid --time specification");
            }
        }
        if ((o.has("mem") ? 1 : 0) + (o.has("mem-per-cpu") ? 1 : 0) + (o.has("mem-per-gpu") ? 1 : 0) > 1) {
            throw new SubmitException(1, "fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.");
        }
        if (o.has("mem")) {
            spec.setMemPerNodeMb(OptionNumbers.memory(o.get("mem"), "--mem"));
        }
        if (o.has("mem-per-cpu")) {
            spec.setMemPerCpuMb(OptionNumbers.memory(o.get("mem-per-cpu"), "--mem-per-cpu"));
        }
        if (o.has("mem-per-gpu")) {
            spec.setMemPerGpuMb(OptionNumbers.memory(o.get("mem-per-gpu"), "--mem-per-gpu"));
        }
        if (o.has("cpus-per-gpu")) {
            spec.setCpusPerGpu(OptionNumbers.positive(o.get("cpus-per-gpu"), "--cpus-per-gpu"));
        }
        if (o.has("gres-flags")) {
            try {
                spec.setGresFlags(GresBinding.parse(o.get("gres-flags")).wireName());
            } catch (IllegalArgumentException e) {
                throw new SubmitException(255, "error: Invalid --gres-flags specification");
            }
        }
        if (o.has("kill-on-invalid-dep")) {
            String k = o.get("kill-on-invalid-dep").toLowerCase(Locale.ROOT);
            if (!k.equals("yes") && !k.equals("no")) {
                throw new SubmitException(255, "error: Invalid --kill-on-invalid-dep specification");
            }
            spec.setKillOnInvalidDep(k.equals("yes"));
        }
        if (o.has("mail-type")) {
            String types;
            try {
                types = MailType.text(MailType.parseList(o.get("mail-type")));
            } catch (IllegalArgumentException e) {
                throw new SubmitException(255, "error: Invalid --mail-type specification");
            }
            spec.setMailType(types);
            // Slurm mails the submitting user unless --mail-user names someone else.
            spec.setMailUser(
                    types.isEmpty()
                            ? ""
                            : o.has("mail-user")
                                    ? o.get("mail-user")
                                    : inv.caller().userName());
        }
        if (o.has("reservation") && !o.get("reservation").isEmpty()) {
            // Whether it exists and lets the user in is the controller's to say.
            spec.setReservation(o.get("reservation"));
        }
        if (o.has("wckey") && !o.get("wckey").isEmpty()) {
            // Whether it is kept, and whether the user may use it, is the controller's to say
            // (TrackWCKey, AccountingStorageEnforce=wckeys).
            spec.setWckey(o.get("wckey"));
        }
        if (o.has("licenses") && !o.get("licenses").isEmpty()) {
            // Whether the licenses exist is the controller's to say; text that is no license
            // list at all it refuses the same way ("Invalid license specification").
            spec.setLicenses(o.get("licenses"));
        }
        if (o.has("signal")) {
            WarnSignalOption.parse(o.get("signal"))
                    .orElseThrow(() -> new SubmitException(255, "error: Invalid --signal specification"))
                    .applyTo(spec);
        }
        if (o.has("begin")) {
            try {
                ZonedDateTime now = ZonedDateTime.ofInstant(
                        inv.clock().instant(), inv.clock().getZone());
                spec.setBeginTime(BeginTime.parse(o.get("begin"), now).getEpochSecond());
            } catch (IllegalArgumentException e) {
                throw new SubmitException(255, "error: Invalid --begin specification");
            }
        }
        if (o.has("deadline")) {
            // The controller ends the job DEADLINE once its time limit can no longer end before
            // this (compat 304, 305).
            try {
                ZonedDateTime now = ZonedDateTime.ofInstant(
                        inv.clock().instant(), inv.clock().getZone());
                spec.setDeadline(BeginTime.parse(o.get("deadline"), now).getEpochSecond());
            } catch (IllegalArgumentException e) {
                throw new SubmitException(255, "error: Invalid --deadline specification");
            }
        }
        // Checked by the controller, as Slurm's sbatch leaves them to slurmctld
        // ("Invalid job array specification", "Job dependency problem").
        copy(o, "array", spec::setArray);
        copy(o, "dependency", spec::setDependency);
        copy(o, "gpus", spec::setGpus);
        copy(o, "gpus-per-node", spec::setGpusPerNode);
        copy(o, "gpus-per-task", spec::setGpusPerTask);
        if (o.has("open-mode")) {
            OpenMode m = OpenMode.option(o.get("open-mode"))
                    .orElseThrow(() -> new SubmitException(255, "error: Invalid --open-mode specification"));
            if (batch) {
                spec.setOpenMode(m.wireName());
            }
        }
        if (o.has("exclusive")) {
            String v = o.get("exclusive").toLowerCase(Locale.ROOT);
            if (!v.isEmpty() && !v.equals("exclusive") && !v.equals("user") && !v.equals("mcs")) {
                throw new SubmitException(255, "error: Invalid --exclusive specification");
            }
            // =user and =mcs share nodes with the user's (the MCS label's) own jobs: Sluice has
            // no such sharing rule, so they are taken and recorded, and the nodes stay shared.
            spec.setExclusive(v.isEmpty() || v.equals("exclusive"));
        }
        if (o.has("oversubscribe")) {
            spec.setOversubscribe(true);
        }
        if (o.has("nice")) {
            spec.setNice(OptionNumbers.nice(o.get("nice")));
        }
        if (o.has("nodelist")) {
            spec.setReqNodes(nodeList(o.get("nodelist"), inv));
        }
        if (o.has("nodefile")) {
            String file = o.get("nodefile");
            try {
                spec.setReqNodes(nodeList(file.contains("/") ? file : "./" + file, inv));
            } catch (SubmitException e) {
                throw new SubmitException(255, e.lines().get(0), "error: Invalid --nodefile node file");
            }
        }
        if (batch) {
            // srun's -o/-e/-i are its step's; salloc has none.
            copy(o, "output", spec::setStdOut);
            copy(o, "error", spec::setStdErr);
            copy(o, "input", spec::setStdIn);
            if (!o.has("input")) {
                spec.setStdIn("/dev/null"); // sbatch sends it (the REST API's standard_input shows it)
            }
        }
        copy(o, "partition", spec::setPartition);
        copy(o, "exclude", spec::setExcludeNodes);
        copy(o, "account", spec::setAccount);
        copy(o, "comment", spec::setComment);
        copy(o, "gres", spec::setGresPerNode);
        copy(o, "constraint", spec::setConstraint);
        copy(o, "qos", spec::setQos);
        spec.setHold(o.has("hold"));
        spec.setNoKill(o.has("no-kill") && !"off".equalsIgnoreCase(o.get("no-kill")));
        String export = o.has("export") ? o.raw("export") : "ALL";
        spec.putAllEnvironment(CommandSupport.wireEnvironment(environment(export, inv.env())));
        if (o.has("export-file") && !ExportFile.droppedBy(export)) {
            spec.putAllEnvironment(CommandSupport.wireEnvironment(ExportFile.read(inv, o.raw("export-file"))));
        }
        return spec.build();
    }

    private static void copy(SubmitOptions o, String key, Consumer<String> setter) {
        if (o.has(key)) {
            setter.accept(o.get(key));
        }
    }

    /**
     * {@code -w}: a host list, or with a {@code /} in it a file of host names, opened with the
     * caller's rights (Slurm 22.05's words when it cannot be).
     */
    private static String nodeList(String value, Invocation inv) throws SubmitException {
        if (!value.contains("/")) {
            return value;
        }
        try {
            String text = new String(inv.callerSide().read(value, 1 << 20), StandardCharsets.UTF_8);
            return String.join(
                    ",",
                    text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList());
        } catch (CallerFileException e) {
            throw new SubmitException(
                    1, "error: slurm_allocate_resources error opening file " + value + ", " + e.reason());
        }
    }

    /**
     * The job's environment per {@code --export} (sbatch(1)): {@code ALL}, the default, copies
     * the caller's environment; {@code NONE} (or {@code NIL}) copies none; named variables are
     * copied and {@code NAME=value} items set, but with {@code ALL} the caller's own value of a
     * variable takes precedence over an explicit one. The caller's {@code SLURM_*} variables
     * are always passed.
     */
    public static Map<String, String> environment(String export, Map<String, String> env) {
        Map<String, String> out = new TreeMap<>();
        List<String> items = List.of(export.split(","));
        boolean all = items.stream().anyMatch(i -> i.strip().equalsIgnoreCase("ALL"));
        env.forEach((k, v) -> {
            if (k.startsWith("SLURM_")) {
                out.put(k, v);
            }
        });
        for (String item : items) {
            String i = item.strip();
            if (i.isEmpty() || i.equalsIgnoreCase("ALL") || i.equalsIgnoreCase("NONE") || i.equalsIgnoreCase("NIL")) {
                continue;
            }
            int eq = i.indexOf('=');
            if (eq > 0) {
                out.put(i.substring(0, eq), i.substring(eq + 1));
            } else if (env.containsKey(i)) {
                out.put(i, env.get(i));
            }
        }
        if (all) {
            out.putAll(env);
        }
        return out;
    }
}
