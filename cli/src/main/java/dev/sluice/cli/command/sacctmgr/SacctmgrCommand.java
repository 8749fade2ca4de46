package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.Command;
import dev.sluice.cli.Invocation;
import dev.sluice.cli.client.ControllerLocator;
import dev.sluice.cli.command.CommandSupport;
import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.cli.getopt.ArgKind;
import dev.sluice.cli.getopt.Getopt;
import dev.sluice.cli.getopt.OptionTable;
import dev.sluice.cli.getopt.ParsedOption;
import dev.sluice.common.conf.ConfigException;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.DeleteAssocRequest;
import dev.sluice.protocol.v1.ListAssocRequest;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code sacctmgr [-i] [-n] [-p|-P] add|show|delete cluster|account|user|association ...}.
 * Changes are previewed by sluice-dbd (checked, applied, rolled back), printed as sacctmgr
 * prints them, and committed after a "y" on standard input, or at once with {@code -i}.
 */
public final class SacctmgrCommand implements Command {
    static final String PROG = "sacctmgr";

    static final OptionTable TABLE = OptionTable.builder()
            .stopAtFirstOperand()
            .add('h', "help", ArgKind.NONE)
            .add('i', "immediate", ArgKind.NONE)
            .add('n', "noheader", ArgKind.NONE)
            .add('p', "parsable", ArgKind.NONE)
            .add('P', "parsable2", ArgKind.NONE)
            .add('Q', "quiet", ArgKind.NONE)
            .add('v', "verbose", ArgKind.NONE)
            .add('V', "version", ArgKind.NONE)
            .unsupported('r', "readonly", ArgKind.NONE)
            .unsupported('s', "associations", ArgKind.NONE)
            .build();

    static final String USAGE = "sacctmgr [<OPTION>] [<COMMAND>]\n"
            + "    Valid <COMMAND> values: add, create, delete, remove, list, show, modify, update\n"
            + "    Valid <ENTITY> values: account, association, cluster, qos, user\n";

    private static final String NO_ENTITY = "No valid entity in %s command\n"
            + "Input line must include \"Account\", \"Association\", \"Cluster\", \"Configuration\",\n"
            + "\"Event\", \"Federation\", \"Problem\", \"QOS\", \"Resource\", \"Reservation\",\n"
            + "\"RunAwayJobs\", \"Stats\", \"Transaction\", \"TRES\", \"User\", or \"WCKey\"";

    private static final String NO_MODIFY_ENTITY = "No valid entity in modify command\n"
            + "Input line must include \"Account\", \"Cluster\", \"Federation\", \"Job\", \"QOS\",\n"
            + "\"Resource\", \"Reservation\", or \"User\"";

    @Override
    public int run(Invocation inv, PrintStream out, PrintStream err) {
        Optional<Getopt.Result> line = CommandSupport.parse(PROG, TABLE, inv, err);
        if (line.isEmpty()) {
            return 1;
        }
        Getopt.Result parsed = line.get();
        Session s = new Session(inv, out, err);
        for (ParsedOption o : parsed.options()) {
            switch (o.key()) {
                case "help" -> {
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
                case "quiet", "verbose" -> {}
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
            default -> null;
        };
        if (kind == null) {
            err.println("invalid keyword: " + words.get(0));
            return 1;
        }
        boolean qos = words.size() >= 2 && words.get(1).equalsIgnoreCase("qos");
        AssocEntity entity = words.size() < 2 || qos ? null : entity(words.get(1));
        if (kind.equals("modify") && (entity == AssocEntity.ASSOCIATIONS || entity == AssocEntity.CLUSTERS)) {
            // sacctmgr modifies associations through their user or account.
            err.println(NO_MODIFY_ENTITY);
            return 1;
        }
        if (entity == null && !qos) {
            err.println(NO_ENTITY.formatted(kind));
            return 1;
        }
        Optional<AccountingClient> client = connect(inv, err);
        if (client.isEmpty()) {
            return 1;
        }
        s.client = client.get();
        List<String> specs = words.subList(2, words.size());
        try {
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
            return switch (kind) {
                case "add" -> new SacctmgrAdd(s).run(entity, specs);
                case "modify" -> new SacctmgrModify(s).run(entity, specs);
                case "list" -> list(s, entity, specs);
                default -> delete(s, entity, specs);
            };
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

    private static Optional<AccountingClient> connect(Invocation inv, PrintStream err) {
        dev.sluice.cli.client.ClusterAccess access;
        try {
            access = inv.setup().access(ControllerLocator.confPath(inv.env(), inv.cwd()));
        } catch (ConfigException e) {
            err.println(PROG + ": error: " + e.getMessage());
            err.println(PROG + ": fatal: Unable to process configuration file");
            return Optional.empty();
        }
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

    private static int list(Session s, AssocEntity entity, List<String> words)
            throws AccountingClient.AccountingException {
        SacctmgrSpecs specs = SacctmgrSpecs.parse(words, List.of("name", "accounts", "users", "clusters", "format"));
        ListAssocRequest.Builder q = ListAssocRequest.newBuilder()
                .setEntity(entity)
                .addAllAccounts(specs.list("accounts"))
                .addAllUsers(specs.list("users"))
                .addAllClusters(specs.list("clusters"));
        if (entity != AssocEntity.ASSOCIATIONS) {
            q.addAllNames(specs.names);
        }
        DbdResponse r = s.client.call(DbdRequest.newBuilder().setListAssoc(q));
        List<String> format = specs.list("format");
        switch (entity) {
            case ACCOUNTS ->
                SacctmgrList.print(s, AssocFields.ACCOUNT, format, r.getListed().getAccountsList());
            case USERS ->
                SacctmgrList.print(s, AssocFields.USER, format, r.getListed().getUsersList());
            case ASSOCIATIONS ->
                SacctmgrList.print(s, AssocFields.ASSOC, format, r.getListed().getAssociationsList());
            default ->
                SacctmgrList.print(s, AssocFields.CLUSTER, format, r.getListed().getClustersList());
        }
        return 0;
    }

    private static int delete(Session s, AssocEntity entity, List<String> words)
            throws AccountingClient.AccountingException {
        if (entity != AssocEntity.ACCOUNTS && entity != AssocEntity.USERS) {
            throw new IllegalArgumentException(
                    " Deleting " + entity.name().toLowerCase(Locale.ROOT) + " is not supported yet");
        }
        SacctmgrSpecs specs = SacctmgrSpecs.parse(words, List.of("name"));
        DeleteAssocRequest.Builder d =
                DeleteAssocRequest.newBuilder().setEntity(entity).addAllNames(specs.names);
        List<String> preview = s.client
                .call(DbdRequest.newBuilder().setDeleteAssoc(d.setCommit(false)))
                .getDeleted()
                .getDeletedList();
        if (preview.isEmpty()) {
            s.out.println(" Nothing deleted");
            return 1;
        }
        s.out.println(entity == AssocEntity.ACCOUNTS ? " Deleting accounts..." : " Deleting users...");
        preview.forEach(n -> s.out.println("  " + n));
        if (!s.confirm()) {
            return 0;
        }
        s.client.call(DbdRequest.newBuilder().setDeleteAssoc(d.setCommit(true)));
        return 0;
    }
}
