package dev.sluice.cli.command.sshare;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerClient;
import dev.sluice.cli.client.ControllerException;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.command.ClusterOption;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.format.FieldTable;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.ClientRequest;
import dev.sluice.protocol.v1.GetSharesRequest;
import dev.sluice.protocol.v1.GetSharesResponse;
import dev.sluice.protocol.v1.ShareInfo;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * {@code sshare}: the fair-share tree ({@code -a}, {@code -l}, {@code -A}, {@code -u},
 * {@code -U}, {@code -m}, {@code -o}, {@code -n}, {@code -p}/{@code -P}, {@code -e}). Without
 * {@code -a} or {@code -u} a user's lines are the caller's own; every account is listed.
 * {@code -A} lists the named accounts and their users, from depth 0. Slurm 22.05's sshare has
 * no {@code --json}.
 */
public final class SshareCommand implements Command {
    private static final String PROG = "sshare";

    static final OptionTable TABLE = OptionTable.builder()
            .inGivenOrder()
            .add('a', "all", ArgKind.NONE)
            .add('A', "accounts", ArgKind.REQUIRED)
            .add('e', "helpformat", ArgKind.NONE)
            .add((char) 0, "help", ArgKind.NONE)
            // Observed: -h, not in the help text, leaves the header out as -n does.
            .add('h', null, ArgKind.NONE, "noheader")
            .add('l', "long", ArgKind.NONE)
            .add('m', "partition", ArgKind.NONE)
            .add('M', "cluster", ArgKind.REQUIRED, "clusters")
            .add('M', "clusters", ArgKind.REQUIRED)
            .add('n', "noheader", ArgKind.NONE)
            .add('o', "format", ArgKind.REQUIRED)
            .add('p', "parsable", ArgKind.NONE)
            .add('P', "parsable2", ArgKind.NONE)
            .add('u', "users", ArgKind.REQUIRED)
            .add('U', "Users", ArgKind.NONE)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .build();

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, TABLE, inv, err);
        if (line.isEmpty()) {
            return 1;
        }
        boolean all = false;
        boolean longFormat = false;
        boolean partitions = false;
        boolean noHeader = false;
        boolean usersOnly = false;
        FieldTable.Mode mode = FieldTable.Mode.FIXED;
        String format = null;
        String accounts = null;
        String users = null;
        String clusters = null;
        for (ParsedOption o : line.get().options()) {
            switch (o.key()) {
                case "help", "usage" -> {
                    out.print(SshareHelp.HELP);
                    return 0;
                }
                case "version" -> {
                    out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                    return 0;
                }
                case "helpformat" -> {
                    out.print(SshareHelp.FIELDS);
                    return 0;
                }
                case "all" -> all = true;
                case "long" -> longFormat = true;
                case "partition" -> partitions = true;
                case "noheader" -> noHeader = true;
                case "Users" -> usersOnly = true;
                case "parsable" -> mode = FieldTable.Mode.PARSABLE;
                case "parsable2" -> mode = FieldTable.Mode.PARSABLE2;
                case "format" -> format = format == null ? o.value() : format + "," + o.value();
                case "accounts" -> accounts = o.value();
                case "users" -> users = o.value();
                case "clusters" -> clusters = o.value();
                default -> {}
            }
        }
        List<ShareColumn> columns = new ArrayList<>();
        List<Integer> widths = new ArrayList<>();
        if (format != null) {
            for (String item : CommandSupport.commaList(format)) {
                int pct = item.indexOf('%');
                String name = pct < 0 ? item : item.substring(0, pct);
                Optional<ShareColumn> c = ShareColumn.named(name);
                if (c.isEmpty()) {
                    err.println(PROG + ": error: Invalid field requested: \"" + name + "\"");
                    return 1;
                }
                columns.add(c.get());
                int width = c.get().width;
                if (pct >= 0) {
                    try {
                        width = Integer.parseInt(item.substring(pct + 1));
                    } catch (NumberFormatException e) {
                        width = c.get().width;
                    }
                }
                widths.add(width);
            }
        } else {
            columns.addAll(longFormat ? ShareColumn.LONG : ShareColumn.DEFAULT);
            if (partitions) {
                columns.add(2, ShareColumn.PARTITION);
            }
            columns.forEach(c -> widths.add(c.width));
        }
        if (clusters != null && ClusterOption.resolve(inv, PROG, clusters, err).isEmpty()) {
            return 1;
        }
        Optional<ControllerClient> client = CommandSupport.connect(inv, PROG, err);
        if (client.isEmpty()) {
            return 1;
        }
        GetSharesResponse answer;
        try {
            answer = client.get()
                    .call(ClientRequest.newBuilder().setGetShares(GetSharesRequest.getDefaultInstance()))
                    .getGetShares();
        } catch (ControllerException e) {
            err.println(PROG + ": error: " + e.getMessage());
            return 1;
        }
        Set<String> userSet = shownUsers(all, users, inv.caller().userName());
        Set<String> accountSet = accounts == null ? null : new HashSet<>(CommandSupport.commaList(accounts));
        List<FieldTable.Column> layout = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            layout.add(new FieldTable.Column(columns.get(i).title, widths.get(i)));
        }
        FieldTable table = new FieldTable(layout, mode);
        if (!noHeader) {
            table.header().forEach(out::println);
        }
        String cluster = CommandSupport.clusterName(inv);
        List<String> tres = tresNames(inv);
        List<ShareInfo> shares = answer.getSharesList();
        // -A: the named accounts' own lines and their users' (not sub-accounts'), indented from
        // the shallowest of them (observed: -A zeta,beta keeps beta one deeper than zeta).
        int base = 0;
        if (accountSet != null) {
            base = shares.stream()
                    .filter(s -> s.getUser().isEmpty() && accountSet.contains(s.getAccount()))
                    .mapToInt(s -> (int) s.getDepth())
                    .min()
                    .orElse(0);
        }
        for (ShareInfo s : shares) {
            boolean user = !s.getUser().isEmpty();
            int indent = (int) s.getDepth();
            if (accountSet != null) {
                if (!accountSet.contains(s.getAccount())) {
                    continue;
                }
                indent -= base;
            }
            if (user && userSet != null && !userSet.contains(s.getUser())) {
                continue;
            }
            if (usersOnly) {
                if (!user) {
                    continue;
                }
                indent = 0;
            }
            List<String> values = new ArrayList<>();
            for (ShareColumn c : columns) {
                values.add(c.value(s, indent, cluster, tres));
            }
            out.println(table.row(values));
        }
        return 0;
    }

    /**
     * Whose user lines are shown, null for everyone's: {@code -a} shows all users even with
     * {@code -u} (observed: scenario 227's {@code sshare -u sluiceuser1,sluiceuser2 -a} lists
     * root's line too), else {@code -u}'s, else the caller's.
     */
    static Set<String> shownUsers(boolean all, String users, String caller) {
        if (all) {
            return null;
        }
        return users != null ? new HashSet<>(CommandSupport.commaList(users)) : Set.of(caller);
    }

    /** The cluster's TRES in Slurm's order: the built-in ones, then AccountingStorageTRES's. */
    private static List<String> tresNames(Invocation inv) {
        List<String> out = new ArrayList<>(Tres.builtIn());
        try {
            for (String t : inv.setup()
                    .access(ControllerLocator.confPath(inv.env(), inv.cwd()))
                    .conf()
                    .accountingStorageTres()) {
                String name = t.strip().toLowerCase(Locale.ROOT);
                if (!name.isEmpty() && !out.contains(name)) {
                    out.add(name);
                }
            }
        } catch (ConfigException | IllegalArgumentException e) {
            // Connecting has read it already; nothing more to add.
        }
        return out;
    }
}
