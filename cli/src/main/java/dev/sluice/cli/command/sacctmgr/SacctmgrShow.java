package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.cli.format.FieldTable;
import dev.sluice.common.conf.SlurmConf;
import dev.sluice.protocol.v1.AccountEntry;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ListAssocResult;
import dev.sluice.protocol.v1.ListTresRequest;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.protocol.v1.UserEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code sacctmgr show cluster|account|user|association|tres}: the default columns of Slurm
 * 22.05 (the *_functions.c list functions), or those of {@code format=}; {@code -s} /
 * {@code WithAssoc} adds one row per association to users and accounts, {@code Tree} indents
 * the accounts of an association listing under their parents.
 */
final class SacctmgrShow {
    /** SLURM_PROTOCOL_VERSION of 22.05, which slurmdbd records for a cluster's controller. */
    static final String RPC_VERSION = "9728";

    static final String CLUSTER_DEFAULT =
            "Cl,Controlh,Controlp,RPC,Fa,GrpJ,GrpTRES,GrpS,MaxJ,MaxTRES,MaxS,MaxW,QOS,DefaultQOS";
    static final String ACCOUNT_DEFAULT = "Acc,Des,O";
    static final String ACCOUNT_ASSOC_DEFAULT = ",Cl,ParentN,U,Share,Priority,GrpJ,GrpN,GrpCPUs,GrpMEM,GrpS,"
            + "GrpWall,GrpCPUMins,MaxJ,MaxN,MaxCPUs,MaxS,MaxW,MaxCPUMins,QOS,DefaultQOS";
    static final String USER_DEFAULT = "U,DefaultA,Ad";
    static final String USER_ASSOC_DEFAULT =
            ",Cl,Acc,Part,Share,Priority,MaxJ,MaxN,MaxCPUs,MaxS,MaxW,MaxCPUMins,QOS,DefaultQOS";
    static final String ASSOC_DEFAULT = "Cluster,Account,User,Part,Share,Priority,GrpJ,GrpTRES,GrpS,GrpWall,"
            + "GrpTRESMins,MaxJ,MaxTRES,MaxTRESPerN,MaxS,MaxW,MaxTRESMins,QOS,DefaultQOS,GrpTRESRunMins";
    static final String TRES_DEFAULT = "Type,Name%15,ID";

    private final Session s;

    SacctmgrShow(Session s) {
        this.s = s;
    }

    int tres(List<String> words) throws AccountingClient.AccountingException {
        ShowConditions c = ShowConditions.parse(words, ShowConditions.Entity.TRES);
        List<PrintField.Column> columns = columns(c, TRES_DEFAULT);
        ListTresRequest.Builder q =
                ListTresRequest.newBuilder().addAllTypes(c.types()).addAllNames(c.names());
        for (String id : c.ids()) {
            q.addIds(SacctmgrSpecs.count(id, "ID"));
        }
        List<TresEntry> rows = s.client
                .call(DbdRequest.newBuilder().setListTres(q))
                .getListedTres()
                .getTresList();
        print(
                columns,
                rows.stream()
                        .map(t -> (Function<PrintField, String>) f -> switch (f.kind()) {
                            case TYPE -> t.getType();
                            case NAME -> t.getName();
                            case ID -> Integer.toUnsignedString(t.getId());
                            default -> null;
                        })
                        .toList());
        return 0;
    }

    int clusters(List<String> words) throws AccountingClient.AccountingException {
        ShowConditions c = ShowConditions.parse(words, ShowConditions.Entity.CLUSTER);
        List<PrintField.Column> columns = columns(c, CLUSTER_DEFAULT);
        List<String> names = concat(c.names(), c.clusters());
        ListAssocResult clusters = list(
                ListAssocRequest.newBuilder().setEntity(AssocEntity.CLUSTERS).addAllNames(names));
        ListAssocResult roots = list(ListAssocRequest.newBuilder()
                .setEntity(AssocEntity.ASSOCIATIONS)
                .addAccounts("root")
                .addAllClusters(names));
        List<Function<PrintField, String>> rows = new ArrayList<>();
        for (String cluster : clusters.getClustersList()) {
            AssociationEntry root = roots.getAssociationsList().stream()
                    .filter(a -> a.getCluster().equals(cluster) && a.getUser().isEmpty())
                    .findFirst()
                    .orElse(AssociationEntry.getDefaultInstance());
            rows.add(f -> switch (f.kind()) {
                case CLUSTER -> cluster;
                // What its controller registered with the accounting daemon, as slurmctld does.
                case TRES -> clusters.getClusterTresOrDefault(cluster, "");
                case CHOST -> controlHost(cluster);
                case CPORT -> controlHost(cluster).isEmpty() ? "0" : Integer.toString(s.conf.slurmctldPort());
                case RPC_VERSION -> controlHost(cluster).isEmpty() ? "0" : RPC_VERSION;
                // Not its root association's id: real 22.05 printed 0 for its one cluster.
                case ID -> "0";
                default -> AssocValues.of(root, f);
            });
        }
        print(columns, rows);
        return 0;
    }

    /**
     * slurmdbd records the address a controller registered from; Sluice's controller does not
     * register, so the configured address of this cluster's first SlurmctldHost stands in.
     */
    private String controlHost(String cluster) {
        SlurmConf conf = s.conf;
        if (conf == null
                || !cluster.equals(conf.clusterName())
                || conf.controlHostEntries().isEmpty()) {
            return "";
        }
        return conf.controlHostEntries().get(0).addr();
    }

    int accounts(List<String> words) throws AccountingClient.AccountingException {
        ShowConditions c = ShowConditions.parse(words, ShowConditions.Entity.ACCOUNT);
        boolean withAssoc = s.withAssoc || c.withAssoc();
        List<PrintField.Column> columns =
                columns(c, withAssoc ? ACCOUNT_DEFAULT + ACCOUNT_ASSOC_DEFAULT : ACCOUNT_DEFAULT);
        List<String> names = concat(c.names(), c.accounts());
        List<AccountEntry> accounts = list(ListAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ACCOUNTS)
                        .addAllNames(names))
                .getAccountsList();
        List<AssociationEntry> assocs = withAssoc ? associations(names, c.users(), c) : List.of();
        List<Function<PrintField, String>> rows = new ArrayList<>();
        for (AccountEntry a : accounts) {
            Function<PrintField, String> own = f -> switch (f.kind()) {
                case ACCT -> a.getName();
                case DESC -> a.getDescription();
                case ORG -> a.getOrganization();
                default -> null;
            };
            List<AssociationEntry> mine = assocs.stream()
                    .filter(x -> x.getAccount().equals(a.getName()))
                    .toList();
            if (mine.isEmpty()) {
                rows.add(own);
            }
            for (AssociationEntry x : mine) {
                rows.add(f -> f.kind() == PrintField.DESC || f.kind() == PrintField.ORG
                        ? own.apply(f)
                        : AssocValues.of(x, f));
            }
        }
        print(columns, rows);
        return 0;
    }

    int users(List<String> words) throws AccountingClient.AccountingException {
        ShowConditions c = ShowConditions.parse(words, ShowConditions.Entity.USER);
        boolean withAssoc = s.withAssoc || c.withAssoc();
        List<PrintField.Column> columns = columns(c, withAssoc ? USER_DEFAULT + USER_ASSOC_DEFAULT : USER_DEFAULT);
        List<String> names = concat(c.names(), c.users());
        List<UserEntry> users = list(ListAssocRequest.newBuilder()
                        .setEntity(AssocEntity.USERS)
                        .addAllNames(names))
                .getUsersList();
        List<AssociationEntry> assocs = withAssoc ? associations(c.accounts(), names, c) : List.of();
        List<Function<PrintField, String>> rows = new ArrayList<>();
        for (UserEntry u : users) {
            Function<PrintField, String> own = f -> switch (f.kind()) {
                case USER -> u.getName();
                case DACCT -> u.getDefaultAccount();
                case DWCKEY -> u.getDefaultWckey();
                case ADMIN -> u.getAdminLevel();
                default -> null;
            };
            List<AssociationEntry> mine =
                    assocs.stream().filter(x -> x.getUser().equals(u.getName())).toList();
            if (mine.isEmpty()) {
                rows.add(own);
            }
            for (AssociationEntry x : mine) {
                rows.add(f ->
                        f.kind() == PrintField.DACCT || f.kind() == PrintField.DWCKEY || f.kind() == PrintField.ADMIN
                                ? own.apply(f)
                                : AssocValues.of(x, f));
            }
        }
        print(columns, rows);
        return 0;
    }

    int associations(List<String> words) throws AccountingClient.AccountingException {
        ShowConditions c = ShowConditions.parse(words, ShowConditions.Entity.ASSOC);
        List<PrintField.Column> columns = columns(c, ASSOC_DEFAULT);
        List<String> users = concat(c.names(), c.users());
        // WithSubAccounts widens account= to the accounts under them (not with users given, as
        // real 22.05 then listed nothing more).
        boolean widen = c.withSubAccounts() && !c.accounts().isEmpty() && users.isEmpty();
        List<AssociationEntry> found = associations(widen ? List.of() : c.accounts(), users, c);
        java.util.Map<String, String> parentOf = new java.util.HashMap<>();
        found.stream()
                .filter(a -> a.getUser().isEmpty())
                .forEach(a -> parentOf.put(a.getCluster() + "/" + a.getAccount(), a.getParentAccount()));
        List<AssociationEntry> assocs = found.stream()
                .filter(a -> !widen || under(a, c.accounts(), parentOf))
                .filter(a -> c.ids().isEmpty() || c.ids().contains(Long.toUnsignedString(a.getId())))
                .toList();
        if (c.onlyDefaults()) {
            // Each user's association with its default account only, no account rows; real
            // 22.05 listed them by user name, not down the tree.
            java.util.Map<String, String> defaults = new java.util.HashMap<>();
            list(ListAssocRequest.newBuilder().setEntity(AssocEntity.USERS))
                    .getUsersList()
                    .forEach(u -> defaults.put(u.getName(), u.getDefaultAccount()));
            assocs = assocs.stream()
                    .filter(a -> !a.getUser().isEmpty() && a.getAccount().equals(defaults.get(a.getUser())))
                    .sorted(java.util.Comparator.comparing(AssociationEntry::getCluster)
                            .thenComparing(AssociationEntry::getUser))
                    .toList();
        }
        List<Function<PrintField, String>> rows = new ArrayList<>();
        AssocValues.TreeNames tree = null;
        String cluster = null;
        for (AssociationEntry a : assocs) {
            if (c.tree() && !Objects.equals(cluster, a.getCluster())) {
                tree = new AssocValues.TreeNames();
                cluster = a.getCluster();
            }
            // Tree names depend on the rows before: computed now, in listing order.
            String account = tree == null ? a.getAccount() : tree.name(a);
            rows.add(f -> f.kind() == PrintField.ACCT ? account : AssocValues.of(a, f));
        }
        print(columns, rows);
        return 0;
    }

    /** Whether an association lies under one of {@code accounts} (itself included). */
    private static boolean under(AssociationEntry a, List<String> accounts, java.util.Map<String, String> parentOf) {
        String account = a.getAccount();
        for (int depth = 0; account != null && !account.isEmpty() && depth < 64; depth++) {
            if (accounts.contains(account)) {
                return true;
            }
            account = parentOf.get(a.getCluster() + "/" + account);
        }
        return false;
    }

    /** Associations in hierarchical order; users given means user associations only. */
    private List<AssociationEntry> associations(List<String> accounts, List<String> users, ShowConditions c)
            throws AccountingClient.AccountingException {
        List<AssociationEntry> all = list(ListAssocRequest.newBuilder()
                        .setEntity(AssocEntity.ASSOCIATIONS)
                        .addAllAccounts(accounts)
                        .addAllUsers(users)
                        .addAllClusters(c.clusters()))
                .getAssociationsList();
        return all.stream()
                .filter(a -> users.isEmpty() || !a.getUser().isEmpty())
                .filter(a -> c.partitions().isEmpty() || c.partitions().contains(a.getPartition()))
                .toList();
    }

    private ListAssocResult list(ListAssocRequest.Builder q) throws AccountingClient.AccountingException {
        return s.client.call(DbdRequest.newBuilder().setListAssoc(q)).getListed();
    }

    private static List<PrintField.Column> columns(ShowConditions c, String defaults) {
        return c.format().isEmpty() ? PrintField.parse(defaults, c.tree()) : PrintField.parse(c.format(), c.tree());
    }

    void print(List<PrintField.Column> columns, List<Function<PrintField, String>> rows) {
        print(s, columns, rows);
    }

    /** The listing in sacctmgr's print_fields layout, with or without its header (-n). */
    static void print(Session s, List<PrintField.Column> columns, List<Function<PrintField, String>> rows) {
        FieldTable table =
                new FieldTable(columns.stream().map(PrintField.Column::column).toList(), s.mode);
        if (s.header) {
            table.header().forEach(s.out::println);
        }
        for (Function<PrintField, String> row : rows) {
            s.out.println(
                    table.row(columns.stream().map(c -> row.apply(c.field())).toList()));
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
