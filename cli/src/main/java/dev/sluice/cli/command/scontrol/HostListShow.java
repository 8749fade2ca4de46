package dev.sluice.cli.command.scontrol;

import static dev.sluice.cli.command.scontrol.ScontrolCommand.PROG;

import dev.sluice.cli.Invocation;
import dev.sluice.common.hostlist.HostList;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code scontrol show hostnames|hostlist|hostlistsorted [LIST]}: no controller needed; without
 * a list, the job's {@code SLURM_JOB_NODELIST}.
 */
final class HostListShow {
    private HostListShow() {}

    static int hostnames(Invocation inv, String expr, PrintStream out, PrintStream err) {
        String e = expr != null ? expr : inv.env().get("SLURM_JOB_NODELIST");
        if (e == null || e.isEmpty()) {
            err.println(PROG + ": error: host list is empty");
            return 0;
        }
        try {
            HostList.expand(e).forEach(out::println);
            return 0;
        } catch (IllegalArgumentException ex) {
            err.println(PROG + ": error: Invalid hostlist: " + e);
            return 1;
        }
    }

    static int hostlist(Invocation inv, String expr, boolean sorted, PrintStream out, PrintStream err) {
        String e = expr != null ? expr : inv.env().get("SLURM_JOB_NODELIST");
        if (e == null || e.isEmpty()) {
            err.println(PROG + ": error: host list is empty");
            return 0;
        }
        try {
            List<String> names = HostList.expand(e);
            out.println(sorted ? HostList.compressSorted(names) : HostList.compress(names));
            return 0;
        } catch (IllegalArgumentException ex) {
            err.println(PROG + ": error: Invalid hostlist: " + e);
            return 1;
        }
    }
}
