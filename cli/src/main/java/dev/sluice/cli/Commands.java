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
    private static final Map<String, Supplier<Command>> BY_NAME = Map.of(
            "sacct", SacctCommand::new,
            "sacctmgr", SacctmgrCommand::new,
            "sbatch", SbatchCommand::new,
            "scancel", ScancelCommand::new,
            "scontrol", ScontrolCommand::new,
            "sinfo", SinfoCommand::new,
            "squeue", SqueueCommand::new,
            "sreport", dev.sluice.cli.command.sreport.SreportCommand::new,
            "srun", dev.sluice.cli.command.srun.SrunCommand::new,
            "salloc", dev.sluice.cli.command.salloc.SallocCommand::new);

    private Commands() {}

    public static Optional<Command> byName(String name) {
        Supplier<Command> s = BY_NAME.get(name);
        return s == null ? Optional.empty() : Optional.of(s.get());
    }

    public static List<String> names() {
        return BY_NAME.keySet().stream().sorted().toList();
    }
}
