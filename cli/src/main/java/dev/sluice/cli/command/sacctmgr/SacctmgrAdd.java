package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.protocol.v1.AddAccountsRequest;
import dev.sluice.protocol.v1.AddClusterRequest;
import dev.sluice.protocol.v1.AddResult;
import dev.sluice.protocol.v1.AddUsersRequest;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.WckeyEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * {@code sacctmgr add cluster|account|user}: a preview from dbd, printed in sacctmgr's words,
 * then the commit. Nothing new to add prints {@code Nothing new added.} and exits 1.
 */
final class SacctmgrAdd {
    private static final List<String> ACCOUNT_KEYS =
            concat(List.of("name", "description", "organization", "parent", "clusters"));
    private static final List<String> USER_KEYS =
            concat(List.of("name", "accounts", "defaultaccount", "adminlevel", "clusters", "wckeys", "defaultwckey"));

    private final Session s;

    SacctmgrAdd(Session s) {
        this.s = s;
    }

    int run(AssocEntity entity, List<String> words) throws AccountingClient.AccountingException {
        return switch (entity) {
            case ACCOUNTS -> accounts(words);
            case USERS -> users(words);
            case CLUSTERS -> clusters(words);
            default ->
                throw new IllegalArgumentException(
                        " Adding associations directly is not supported:" + " add an account or a user");
        };
    }

    private int clusters(List<String> words) throws AccountingClient.AccountingException {
        SacctmgrSpecs specs = SacctmgrSpecs.parse(words, List.of("name"));
        AddClusterRequest.Builder r = AddClusterRequest.newBuilder().addAllNames(specs.names);
        return change(commit -> DbdRequest.newBuilder().setAddClusters(r.setCommit(commit)), preview -> {
            s.out.println(" Adding Cluster(s)");
            preview.getAddedList().forEach(n -> s.out.printf("  Name           = %s%n", n));
        });
    }

    private int accounts(List<String> words) throws AccountingClient.AccountingException {
        SacctmgrSpecs specs = SacctmgrSpecs.parse(words, ACCOUNT_KEYS);
        List<String> settings = new ArrayList<>();
        AssociationLimits limits = specs.limits(settings);
        boolean anySetting = !settings.isEmpty()
                || specs.values.containsKey("description")
                || specs.values.containsKey("organization")
                || specs.values.containsKey("parent");
        String parent = specs.get("parent").isEmpty() ? "root" : specs.get("parent");
        AddAccountsRequest.Builder r = AddAccountsRequest.newBuilder()
                .addAllNames(specs.names)
                .setDescription(specs.get("description"))
                .setOrganization(specs.get("organization"))
                .setParent(specs.get("parent"))
                .addAllClusters(specs.list("clusters"))
                .setLimits(limits);
        return change(commit -> DbdRequest.newBuilder().setAddAccounts(r.setCommit(commit)), preview -> {
            s.out.println(" Adding Account(s)");
            preview.getAddedList().forEach(n -> s.out.println("  " + n));
            s.out.println(" Settings");
            // sacctmgr names the defaults this way when none are given.
            s.out.printf(
                    "  %-15s = %s%n",
                    "Description", specs.get("description").isEmpty() ? "Account Name" : specs.get("description"));
            s.out.printf(
                    "  %-15s = %s%n",
                    "Organization",
                    specs.get("organization").isEmpty() ? "Parent/Account Name" : specs.get("organization"));
            s.out.println(" Associations");
            for (AssociationEntry a : preview.getAssociationsList()) {
                s.out.printf("  A = %-10s C = %-10s%n", a.getAccount(), a.getCluster());
            }
            if (anySetting) {
                s.out.println(" Settings");
                // sacctmgr_print_assoc_limits: the limits, Parent, then QOS and DefQOS.
                List<String> lines = new ArrayList<>(settings);
                int at = 0;
                while (at < lines.size()
                        && !lines.get(at).startsWith("  QOS ")
                        && !lines.get(at).startsWith("  DefQOS ")) {
                    at++;
                }
                lines.add(at, String.format("  %-13s = %s", "Parent", parent));
                lines.forEach(s.out::println);
            }
        });
    }

    private int users(List<String> words) throws AccountingClient.AccountingException {
        SacctmgrSpecs specs = SacctmgrSpecs.parse(words, USER_KEYS);
        List<String> settings = new ArrayList<>();
        AssociationLimits limits = specs.limits(settings);
        AddUsersRequest.Builder r = AddUsersRequest.newBuilder()
                .addAllNames(specs.names)
                .addAllAccounts(specs.list("accounts"))
                .setDefaultAccount(specs.get("defaultaccount"))
                .setAdminLevel(specs.get("adminlevel"))
                .addAllClusters(specs.list("clusters"))
                .addAllWckeys(specs.list("wckeys"))
                .setDefaultWckey(specs.get("defaultwckey"))
                .setLimits(limits);
        List<String> given = List.of("defaultaccount", "defaultwckey", "adminlevel");
        return change(commit -> DbdRequest.newBuilder().setAddUsers(r.setCommit(commit)), preview -> {
            // Users who exist already only gain associations, which sacctmgr lists alone.
            if (preview.getAddedCount() > 0) {
                s.out.println(" Adding User(s)");
                preview.getAddedList().forEach(n -> s.out.println("  " + n));
                if (given.stream().anyMatch(specs.values::containsKey)) {
                    s.out.println(" Settings =");
                    if (specs.values.containsKey("defaultaccount")) {
                        s.out.println("  Default Account = " + specs.get("defaultaccount"));
                    }
                    if (specs.values.containsKey("defaultwckey")) {
                        s.out.println("  Default WCKey   = " + specs.get("defaultwckey"));
                    }
                    if (specs.values.containsKey("adminlevel")) {
                        s.out.println("  Admin Level     = " + specs.get("adminlevel"));
                    }
                }
            }
            // wckeys added alone to a user who exists are listed alone (compat 208).
            if (preview.getAssociationsCount() > 0) {
                s.out.println(" Associations =");
            }
            for (AssociationEntry a : preview.getAssociationsList()) {
                s.out.printf("  U = %-9.9s A = %-10.10s C = %-10.10s%n", a.getUser(), a.getAccount(), a.getCluster());
            }
            if (preview.getWckeysCount() > 0) {
                s.out.println(" WCKeys =");
            }
            for (WckeyEntry w : preview.getWckeysList()) {
                s.out.printf("  U = %-9.9s W = %-10.10s C = %-10.10s%n", w.getUser(), w.getName(), w.getCluster());
            }
            if (preview.getAddedCount() > 0 || preview.getAssociationsCount() > 0) {
                s.out.println(" Non Default Settings");
                settings.forEach(s.out::println);
            }
        });
    }

    /** Preview, print, ask, commit. */
    private int change(Function<Boolean, DbdRequest.Builder> request, java.util.function.Consumer<AddResult> print)
            throws AccountingClient.AccountingException {
        AddResult preview = s.client.call(request.apply(false)).getAdded();
        if (preview.getAddedCount() == 0 && preview.getAssociationsCount() == 0 && preview.getWckeysCount() == 0) {
            s.out.println(" Nothing new added.");
            return 1;
        }
        print.accept(preview);
        if (s.confirm()) {
            s.client.call(request.apply(true));
        }
        return 0;
    }

    private static List<String> concat(List<String> keys) {
        List<String> all = new ArrayList<>(keys);
        all.addAll(SacctmgrSpecs.LIMIT_KEYS);
        return List.copyOf(all);
    }
}
