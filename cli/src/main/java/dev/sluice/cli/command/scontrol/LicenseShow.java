package dev.sluice.cli.command.scontrol;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetLicensesRequest;
import dev.sluice.protocol.v1.LicenseInfo;
import java.io.PrintStream;
import java.util.List;
import java.util.Optional;

/**
 * {@code scontrol show licenses [NAME]}: one record per configured license, in name order, as
 * Slurm 22.05 prints it (Licenses Guide, slurm.schedmd.com/licenses.html):
 *
 * <pre>
 * LicenseName=foo
 *     Total=4 Used=2 Free=2 Reserved=0 Remote=no
 * </pre>
 *
 * With {@code -o} both parts on one line. Reserved counts what advance reservations hold now
 * (their window on, or FLEX); Free is what running jobs leave, whatever is reserved (Slurm 22.05,
 * compat 283-285). Sluice has no remote (slurmdbd-served) licenses: Remote is no.
 */
final class LicenseShow {
    /** What Slurm prints when slurm.conf configures no licenses. */
    static final String NONE = "No licenses configured in Slurm.";

    private LicenseShow() {}

    static int run(Invocation inv, String name, boolean oneLiner, PrintStream out, PrintStream err) {
        Optional<ControllerClient> client = CommandSupport.connect(inv, ScontrolCommand.PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        List<LicenseInfo> all;
        try {
            all = client.get()
                    .call(ClientRequest.newBuilder().setGetLicenses(GetLicensesRequest.getDefaultInstance()))
                    .getGetLicenses()
                    .getLicensesList();
        } catch (ControllerException e) {
            err.println("slurm_load_licenses error: " + e.getMessage());
            return 1;
        }
        if (all.isEmpty()) {
            out.println(NONE);
            return 0;
        }
        // A name no license has prints nothing, and is no error.
        named(all, name).forEach(l -> out.print(render(l, oneLiner)));
        return 0;
    }

    static String render(LicenseInfo l, boolean oneLiner) {
        long free = Math.max(0, l.getTotal() - l.getUsed());
        return "LicenseName=" + l.getName() + (oneLiner ? " " : "\n    ") + "Total=" + l.getTotal() + " Used="
                + l.getUsed() + " Free=" + free + " Reserved=" + l.getReserved() + " Remote=no\n";
    }

    static List<LicenseInfo> named(List<LicenseInfo> all, String name) {
        return name == null
                ? all
                : all.stream().filter(l -> l.getName().equals(name)).toList();
    }
}
