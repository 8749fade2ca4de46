package dev.sluice.cli;

import dev.sluice.cli.command.sacct.SacctCommand;
import dev.sluice.cli.command.sacctmgr.SacctmgrCommand;
import dev.sluice.cli.command.sbatch.SbatchCommand;
import dev.sluice.cli.command.scancel.ScancelCommand;
import dev.sluice.cli.command.scontrol.ScontrolCommand;
import dev.sluice.cli.command.sinfo.SinfoCommand;
import dev.sluice.cli.command.squeue.SqueueCommand;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** The commands by the name users type. */
public final class Commands {
    private static final Map<String, Supplier<Command>> BY_NAME = Map.ofEntries(
            Map.entry("sacct", SacctCommand::new),
            Map.entry("sacctmgr", SacctmgrCommand::new),
            Map.entry("sbatch", SbatchCommand::new),
            Map.entry("scancel", ScancelCommand::new),
            Map.entry("scontrol", ScontrolCommand::new),
            Map.entry("sdiag", dev.sluice.cli.command.sdiag.SdiagCommand::new),
            Map.entry("sinfo", SinfoCommand::new),
            Map.entry("sprio", dev.sluice.cli.command.sprio.SprioCommand::new),
            Map.entry("squeue", SqueueCommand::new),
            Map.entry("sreport", dev.sluice.cli.command.sreport.SreportCommand::new),
            Map.entry("srun", dev.sluice.cli.command.srun.SrunCommand::new),
            Map.entry("salloc", dev.sluice.cli.command.salloc.SallocCommand::new),
            Map.entry("sshare", dev.sluice.cli.command.sshare.SshareCommand::new),
            Map.entry("sstat", dev.sluice.cli.command.sstat.SstatCommand::new));

    private Commands() {}

    public static Optional<Command> byName(String name) {
        Supplier<Command> s = BY_NAME.get(name);
        return s == null ? Optional.empty() : Optional.of(s.get());
    }

    public static List<String> names() {
        return BY_NAME.keySet().stream().sorted().toList();
    }
}
