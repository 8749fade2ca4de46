package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.cli.format.FieldTable;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DeleteAssocRequest;
import dev.sluice.protocol.v1.DeleteAssocResult;
import dev.sluice.protocol.v1.ListAssocRequest;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code sacctmgr [-i] [-n] [-p|-P] [-s] add|show|delete cluster|account|user|association|qos ...},
 * {@code show tres}, {@code show reservation}, {@code show stats}, {@code clear stats}.
 * Changes are previewed by sluice-dbd (checked, applied, rolled back), printed as sacctmgr
 * prints them, and committed after a "y" on standard input, or at once with {@code -i}.
 */
public final class SacctmgrCommand implements Command {
    static final String PROG = "sacctmgr";

    /**
     * Slurm 22.05's sacctmgr table, in its order (read off the real command: {@code --x=1} for
     * every letter). 22.05 has no {@code -M} and no {@code --json}/{@code --yaml}.
     */
    static final OptionTable TABLE = OptionTable.builder()
            .inGivenOrder()
            .add('s', "associations", ArgKind.NONE)
            .add('h', "help", ArgKind.NONE)
            .add('i', "immediate", ArgKind.NONE)
            .add('n', "noheader", ArgKind.NONE)
            .add('o', "oneliner", ArgKind.NONE)
            .add('p', "parsable", ArgKind.NONE)
            .add('P', "parsable2", ArgKind.NONE)
            .add('Q', "quiet", ArgKind.NONE)
            .add('r', "readonly", ArgKind.NONE)
            .add((char) 0, "usage", ArgKind.NONE)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .build();

    /** Slurm's option lines (its help text's), then what Sluice implements of the rest. */
    static final String USAGE = """
            sacctmgr [<OPTION>] [<COMMAND>]
                Valid <OPTION> values are:
                 -h or --help: equivalent to "help" command
                 -i or --immediate: commit changes immediately
                 -n or --noheader: no header will be added to the beginning of output
                 -o or --oneliner: equivalent to "oneliner" command
                 -p or --parsable: output will be '|' delimited with a '|' at the end
                 -P or --parsable2: output will be '|' delimited without a '|' at the end
                 -Q or --quiet: equivalent to "quiet" command
                 -r or --readonly: equivalent to "readonly" command
                 -s or --associations: equivalent to "associations" command
                 -v or --verbose: equivalent to "verbose" command
                 -V or --version: equivalent to "version" command

            """
            + "    Valid <COMMAND> values: add, create, delete, remove, list, show, modify, update, clear\n"
            + "    Valid <ENTITY> values: account, association, cluster, qos, user, stats (show and clear)\n";

    private static final String NO_ENTITY = "No valid entity in %s command\n"
            + "Input line must include \"Account\", \"Association\", \"Cluster\", \"Configuration\",\n"
            + "\"Event\", \"Federation\", \"Problem\", \"QOS\", \"Resource\", \"Reservation\",\n"
            + "\"RunAwayJobs\", \"Stats\", \"Transaction\", \"TRES\", \"User\", or \"WCKey\"";

    // Slurm 22.05 names the wrong command here ("list"), as recorded (compat 190).
    private static final String NO_CLEAR_ENTITY =
            "No valid entity in list command\n" + "Input line must include \"Stats\"";

    // As recorded (compat 209): one line, and no comma before "or".
    private static final String NO_MODIFY_ENTITY = "No valid entity in modify command\n"
            + "Input line must include \"Account\", \"Cluster\", \"Federation\", \"Job\", \"QOS\","
            + " \"Resource\" or \"User\"";

    // add and delete name the entities they change (compat 209): wckeys are a user's.
    private static final String NO_CHANGE_ENTITY = "No valid entity in %s command\n"
            + "Input line must include \"Account\", \"Cluster\", \"Coordinator\", \"Federation\","
            + " \"QOS\", \"Resource\", or \"User\"";

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Getopt.Result parsed;
        try {
            parsed = Getopt.parse(PROG, TABLE, inv.args());
        } catch (dev.sluice.cli.getopt.GetoptException e) {
            // sacctmgr acts on -h and -V as getopt returns them, before a later bad option.
            for (ParsedOption o : e.before()) {
                if (o.key().equals("help") || o.key().equals("usage")) {
                    out.print(USAGE);
                    return 0;
                }
                if (o.key().equals("version")) {
                    out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                    return 0;
                }
            }
            CommandSupport.usageError(e, PROG, err);
            return 1;
        }
        Session s = new Session(inv, out, err);
        boolean readonly = false;
        for (ParsedOption o : parsed.options()) {
            switch (o.key()) {
                case "help", "usage" -> {
                    out.print(USAGE);
                    return 0;
                }
                case "version" -> {
                    out.println(dev.sluice.common.slurm.SlurmVersion.COMMAND_LINE);
                    return 0;
                }
                case "immediate" -> s.immediate = true;
                case "noheader" -> s.header = false;
                case "parsable" -> s.mode = FieldTable.Mode.PARSABLE;
                case "parsable2" -> s.mode = FieldTable.Mode.PARSABLE2;
                case "associations" -> s.withAssoc = true;
                case "readonly" -> readonly = true;
                // Slurm's -o changes no listing of 22.05's; -Q none of the messages Sluice
                // prints; -v adds plugin log lines Sluice has no plugins for.
                case "oneliner", "quiet", "verbose" -> {}
                default -> throw new IllegalStateException("unhandled sacctmgr option " + o.key());
            }
        }
        List<String> words = parsed.operands();
        if (words.isEmpty()) {
            err.print(USAGE);
            return 1;
        }
        String verb = words.get(0).toLowerCase(Locale.ROOT);
        String kind = switch (verb) {
            case "add", "create" -> "add";
            case "show", "list" -> "list";
            case "delete", "remove" -> "delete";
            case "modify", "update" -> "modify";
            case "clear" -> "clear";
            default -> null;
        };
        if (kind == null) {
            err.println("invalid keyword: " + words.get(0));
            return 1;
        }
        if (readonly && !kind.equals("list")) {
            // Before the entity is looked at, as sacctmgr does.
            err.println("Can't run this command in readonly mode.");
            return 1;
        }
        // Statistics are shown and cleared only; "clear" names no other entity.
        boolean stats = words.size() >= 2
                && (kind.equals("list") || kind.equals("clear"))
                && ShowConditions.is(words.get(1), "stats", 4);
        if (kind.equals("clear") && !stats) {
            err.println(NO_CLEAR_ENTITY);
            return 1;
        }
        boolean qos = words.size() >= 2 && words.get(1).equalsIgnoreCase("qos");
        // sacctmgr lists TRES only: "add tres" and the like name no entity.
        boolean tres = words.size() >= 2 && kind.equals("list") && ShowConditions.is(words.get(1), "tres", 2);
        // sacctmgr lists reservations only: accounting learns them from the controller.
        boolean resv = words.size() >= 2 && kind.equals("list") && SacctmgrReservations.names(words.get(1));
        boolean wckeys = words.size() >= 2 && kind.equals("list") && SacctmgrWckeys.names(words.get(1));
        // Job records are modified only (sacctmgr lists them through sacct).
        boolean jobs = words.size() >= 2 && kind.equals("modify") && SacctmgrJobs.names(words.get(1));
        AssocEntity entity =
                words.size() < 2 || qos || tres || resv || stats || wckeys || jobs ? null : entity(words.get(1));
        if (kind.equals("modify") && (entity == AssocEntity.ASSOCIATIONS || entity == AssocEntity.CLUSTERS)) {
            // sacctmgr modifies associations through their user or account.
            err.println(NO_MODIFY_ENTITY);
            return 1;
        }
        if (entity == null && !qos && !tres && !resv && !stats && !wckeys && !jobs) {
            err.println(
                    switch (kind) {
                        case "add", "delete" -> NO_CHANGE_ENTITY.formatted(kind);
                        case "modify" -> NO_MODIFY_ENTITY;
                        default -> NO_ENTITY.formatted(kind);
                    });
            return 1;
        }
        Optional<AccountingClient> client = connect(inv, err, s);
        if (client.isEmpty()) {
            return 1;
        }
        s.client = client.get();
        List<String> specs = words.subList(2, words.size());
        try {
            if (stats) {
                SacctmgrStats st = new SacctmgrStats(s);
                return kind.equals("clear") ? st.clear() : st.show();
            }
            if (tres) {
                return new SacctmgrShow(s).tres(specs);
            }
            if (resv) {
                return new SacctmgrReservations(s).list(specs);
            }
            if (wckeys) {
                return new SacctmgrWckeys(s).list(specs);
            }
            if (jobs) {
                return new SacctmgrJobs(s).modify(specs);
            }
            if (qos) {
                SacctmgrQos q = new SacctmgrQos(s);
                return switch (kind) {
                    case "add" -> q.add(specs);
                    case "list" -> q.list(specs);
                    case "modify" -> {
                        List<List<String>> parts = SacctmgrModify.whereAndSet(specs);
                        yield q.modify(parts.get(0), parts.get(1));
                    }
                    default -> q.delete(specs);
                };
            }
            if (kind.equals("list")) {
                SacctmgrShow show = new SacctmgrShow(s);
                return switch (entity) {
                    case ACCOUNTS -> show.accounts(specs);
                    case USERS -> show.users(specs);
                    case ASSOCIATIONS -> show.associations(specs);
                    default -> show.clusters(specs);
                };
            }
            return switch (kind) {
                case "add" -> new SacctmgrAdd(s).run(entity, specs);
                case "modify" -> new SacctmgrModify(s).run(entity, specs);
                default -> delete(s, entity, specs);
            };
        } catch (SacctmgrSpecs.UnknownOption e) {
            // qos_functions.c prints this one with printf, the other entities on stderr.
            (qos ? out : err).println(e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return 1;
        } catch (AccountingClient.AccountingException e) {
            String m = e.getMessage();
            err.println(m.startsWith(" ") ? m : PROG + ": error: " + m);
            return 1;
        }
    }

    private static AssocEntity entity(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        if (w.length() < 3) {
            return null;
        }
        if ("accounts".startsWith(w)) {
            return AssocEntity.ACCOUNTS;
        }
        if ("associations".startsWith(w)) {
            return AssocEntity.ASSOCIATIONS;
        }
        if ("users".startsWith(w)) {
            return AssocEntity.USERS;
        }
        if ("clusters".startsWith(w)) {
            return AssocEntity.CLUSTERS;
        }
        return null;
    }

    private static Optional<AccountingClient> connect(Invocation inv, PrintStream err, Session s) {
        dev.sluice.cli.client.ClusterAccess access;
        try {
            access = inv.setup().access(ControllerLocator.confPath(inv.env(), inv.cwd()));
        } catch (ConfigException e) {
            err.println(PROG + ": error: " + e.getMessage());
            err.println(PROG + ": fatal: Unable to process configuration file");
            return Optional.empty();
        }
        s.conf = access.conf();
        Optional<AccountingClient> c = AccountingClient.of(
                access.conf(),
                inv.caller(),
                dev.sluice.cli.client.ClientAuth.forCaller(
                        access, inv.env(), inv.caller(), java.time.Clock.systemUTC(), inv.onBehalf()));
        if (c.isEmpty()) {
            err.println("Slurm accounting storage is disabled");
        }
        return c;
    }

    private static int delete(Session s, AssocEntity entity, List<String> words)
            throws AccountingClient.AccountingException {
        if (entity != AssocEntity.ACCOUNTS && entity != AssocEntity.USERS) {
            throw new IllegalArgumentException(
                    " Deleting " + entity.name().toLowerCase(Locale.ROOT) + " is not supported yet");
        }
        SacctmgrSpecs specs = SacctmgrSpecs.parse(
                words, entity == AssocEntity.USERS ? List.of("name", "accounts", "wckeys") : List.of("name"));
        DeleteAssocRequest.Builder d = DeleteAssocRequest.newBuilder()
                .setEntity(entity)
                .addAllNames(specs.names)
                .addAllAccounts(specs.list("accounts"))
                .addAllWckeys(specs.list("wckeys"));
        DeleteAssocResult preview = s.client
                .call(DbdRequest.newBuilder().setDeleteAssoc(d.setCommit(false)))
                .getDeleted();
        if (preview.getDeletedCount() == 0 && preview.getAssociationsCount() == 0 && preview.getWckeysCount() == 0) {
            s.out.println(" Nothing deleted");
            return 1;
        }
        if (preview.getWckeysCount() > 0) {
            s.out.println(" Deleting user WCKeys...");
            preview.getWckeysList()
                    .forEach(w ->
                            s.out.printf("  C = %-10s W = %-20s U = %-9s%n", w.getCluster(), w.getName(), w.getUser()));
        }
        List<String> orphaned = List.of();
        if (preview.getAssociationsCount() > 0) {
            // account= narrows "delete user" to those associations, named as slurmdbd names them.
            s.out.println(" Deleting user associations...");
            preview.getAssociationsList()
                    .forEach(a -> s.out.printf(
                            "  C = %-10s A = %-10s U = %-9s%n", a.getCluster(), a.getAccount(), a.getUser()));
            // sacctmgr then removes the users it left without any association (22.05, compat 197).
            orphaned = orphaned(s, preview.getAssociationsList());
            if (!orphaned.isEmpty()) {
                s.out.println(" Deleting users (No Associations)...");
                orphaned.forEach(n -> s.out.println("  " + n));
            }
        } else if (preview.getDeletedCount() > 0) {
            s.out.println(entity == AssocEntity.ACCOUNTS ? " Deleting accounts..." : " Deleting users...");
            // By name, whatever order they were given in, as slurmdbd lists them (checked on 22.05).
            preview.getDeletedList().stream().sorted().forEach(n -> s.out.println("  " + n));
        }
        if (!s.confirm()) {
            return 0;
        }
        s.client.call(DbdRequest.newBuilder().setDeleteAssoc(d.setCommit(true)));
        if (!orphaned.isEmpty()) {
            s.client.call(DbdRequest.newBuilder()
                    .setDeleteAssoc(DeleteAssocRequest.newBuilder()
                            .setEntity(AssocEntity.USERS)
                            .addAllNames(orphaned)
                            .setCommit(true)));
        }
        return 0;
    }

    /** The users whose every association is among {@code going}, by name. */
    private static List<String> orphaned(Session s, List<AssociationEntry> going)
            throws AccountingClient.AccountingException {
        Set<String> users = new TreeSet<>();
        going.forEach(a -> users.add(a.getUser()));
        List<String> out = new ArrayList<>();
        for (String user : users) {
            long all = s
                    .client
                    .call(DbdRequest.newBuilder()
                            .setListAssoc(ListAssocRequest.newBuilder()
                                    .setEntity(AssocEntity.ASSOCIATIONS)
                                    .addUsers(user)))
                    .getListed()
                    .getAssociationsList()
                    .stream()
                    .filter(a -> a.getUser().equals(user))
                    .count();
            long gone = going.stream().filter(a -> a.getUser().equals(user)).count();
            if (all <= gone) {
                out.add(user);
            }
        }
        return out;
    }
}
