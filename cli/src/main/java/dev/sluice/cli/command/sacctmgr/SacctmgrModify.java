package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ModifyAssocRequest;
import dev.sluice.protocol.v1.ModifyResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sacctmgr modify user|account [where] COND... set KEY=VALUE...}: the where part picks,
 * the set part changes (a limit of -1 removes it). sacctmgr's texts (user_functions.c,
 * account_functions.c): {@code Modified users...} for the user rows, {@code Modified user
 * associations...} with one {@code C = A = U =} line per association, and {@code Nothing
 * modified} with exit 1 when the where part picks nothing.
 */
final class SacctmgrModify {
    private final Session s;

    SacctmgrModify(Session s) {
        this.s = s;
    }

    /** Splits at the word {@code set}: conditions before it, changes after it. */
    static List<List<String>> whereAndSet(List<String> words) {
        List<String> where = new ArrayList<>();
        List<String> set = new ArrayList<>();
        boolean inSet = false;
        for (String w : words) {
            if (w.equalsIgnoreCase("set")) {
                inSet = true;
            } else if (!w.equalsIgnoreCase("where")) {
                (inSet ? set : where).add(w);
            }
        }
        return List.of(where, set);
    }

    int run(AssocEntity entity, List<String> words) throws AccountingClient.AccountingException {
        List<List<String>> parts = whereAndSet(words);
        boolean users = entity == AssocEntity.USERS;
        SacctmgrSpecs where = SacctmgrSpecs.parse(
                parts.get(0),
                users ? List.of("name", "accounts", "clusters", "partitions") : List.of("name", "clusters"));
        List<String> keys = new ArrayList<>(SacctmgrSpecs.LIMIT_KEYS);
        keys.addAll(users ? List.of("defaultaccount", "adminlevel") : List.of("description", "organization"));
        SacctmgrSpecs set = SacctmgrSpecs.parse(parts.get(1), keys);
        List<String> cleared = new ArrayList<>();
        set.values.entrySet().removeIf(e -> {
            if (e.getValue().equals("-1") && SacctmgrSpecs.LIMIT_KEYS.contains(e.getKey())) {
                cleared.add(e.getKey());
                return true;
            }
            return false;
        });
        if (set.values.isEmpty() && cleared.isEmpty()) {
            throw new IllegalArgumentException(" You didn't give me anything to set");
        }
        ModifyAssocRequest.Builder r = ModifyAssocRequest.newBuilder()
                .setEntity(entity)
                .addAllNames(where.names)
                .addAllAccounts(where.list("accounts"))
                .addAllClusters(where.list("clusters"))
                .addAllPartitions(where.list("partitions"))
                .setLimits(set.limits(new ArrayList<>()))
                .addAllCleared(cleared);
        if (users) {
            if (set.values.containsKey("defaultaccount")) {
                r.setDefaultAccount(set.get("defaultaccount"));
            }
            if (set.values.containsKey("adminlevel")) {
                r.setAdminLevel(adminLevel(set.get("adminlevel")));
            }
        } else {
            if (set.values.containsKey("description")) {
                r.setDescription(set.get("description"));
            }
            if (set.values.containsKey("organization")) {
                r.setOrganization(set.get("organization"));
            }
        }
        ModifyResult preview = s.client
                .call(DbdRequest.newBuilder().setModifyAssoc(r.setCommit(false)))
                .getModified();
        if (preview.getModifiedCount() == 0 && preview.getAssociationsCount() == 0) {
            s.out.println(" Nothing modified");
            return 1;
        }
        if (preview.getModifiedCount() > 0) {
            s.out.println(users ? " Modified users..." : " Modified accounts...");
            preview.getModifiedList().forEach(n -> s.out.println("  " + n));
        }
        if (preview.getAssociationsCount() > 0) {
            s.out.println(users ? " Modified user associations..." : " Modified account associations...");
            preview.getAssociationsList().forEach(a -> s.out.println("  " + describe(a)));
        }
        if (s.confirm()) {
            s.client.call(DbdRequest.newBuilder().setModifyAssoc(r.setCommit(true)));
        }
        return 0;
    }

    /**
     * slurmdbd's name for an association in a change report: an account's with its parent
     * ({@code A = physics of science}, compat 215), a user's padded.
     */
    static String describe(AssociationEntry a) {
        String out;
        if (!a.getUser().isEmpty()) {
            out = String.format("C = %-10s A = %-20s U = %-9s", a.getCluster(), a.getAccount(), a.getUser());
        } else if (!a.getParentAccount().isEmpty()) {
            out = String.format("C = %-10s A = %s of %s", a.getCluster(), a.getAccount(), a.getParentAccount());
        } else {
            out = String.format("C = %-10s A = %-20s", a.getCluster(), a.getAccount());
        }
        return a.getPartition().isEmpty() ? out : out + " P = " + a.getPartition();
    }

    private static String adminLevel(String v) {
        return switch (v.toLowerCase(java.util.Locale.ROOT)) {
            case "none" -> "None";
            case "operator" -> "Operator";
            case "admin", "administrator" -> "Administrator";
            default -> throw new IllegalArgumentException(" Unknown admin level: " + v);
        };
    }
}
