package dev.sluice.cli.command.sacctmgr;

import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What an association prints in each column (sacctmgr_print_assoc_rec): for {@code show assoc},
 * for the association half of {@code show user -s} and {@code show account -s}, and for a
 * cluster's root association in {@code show cluster}. Fields an association has no value for
 * print blank.
 */
final class AssocValues {
    private AssocValues() {}

    static String of(AssociationEntry a, PrintField f) {
        AssociationLimits l = a.getLimits();
        return switch (f.kind()) {
            case ACCT -> a.getAccount();
            case CLUSTER -> a.getCluster();
            case USER -> a.getUser();
            case PART -> a.getPartition();
            case ID -> Long.toUnsignedString(a.getId());
            case PID -> Long.toUnsignedString(a.getParentId());
            case LFT -> Integer.toUnsignedString(a.getLft());
            case RGT -> Integer.toUnsignedString(a.getRgt());
            // Slurm keeps the parent on the account's own association only.
            case PNAME -> a.getUser().isEmpty() ? a.getParentAccount() : "";
            case FAIRSHARE -> l.hasShares() ? Integer.toUnsignedString(l.getShares()) : null;
            case GRPJ -> l.hasGrpJobs() ? Integer.toUnsignedString(l.getGrpJobs()) : null;
            case GRPS -> l.hasGrpSubmitJobs() ? Integer.toUnsignedString(l.getGrpSubmitJobs()) : null;
            case GRPT -> l.getGrpTres();
            case MAXJ -> l.hasMaxJobs() ? Integer.toUnsignedString(l.getMaxJobs()) : null;
            case MAXS -> l.hasMaxSubmitJobs() ? Integer.toUnsignedString(l.getMaxSubmitJobs()) : null;
            case MAXT -> l.getMaxTres();
            case MAXTN -> l.getMaxTresPerNode();
            case MAXW -> l.hasMaxWallMinutes() ? wall(l.getMaxWallMinutes()) : null;
            case QOS -> qosList(l.getQos());
            case DQOS -> l.getDefaultQos();
            default -> null;
        };
    }

    /** A QOS list as sacctmgr prints one: names in alphabetical order. */
    static String qosList(String list) {
        List<String> names = new ArrayList<>(SacctmgrSpecs.split(list));
        names.sort(null);
        return String.join(",", names);
    }

    /** Minutes as sacctmgr prints a wall limit: {@code 1-00:00:00}, {@code 02:00:00}. */
    static String wall(int minutes) {
        long m = Integer.toUnsignedLong(minutes);
        long d = m / 1440;
        String hms = String.format("%02d:%02d:00", (m / 60) % 24, m % 60);
        return d > 0 ? d + "-" + hms : hms;
    }

    /**
     * The Account column of {@code show assoc tree} (slurmdb_tree_name_get): an account one
     * space deeper than its parent, a user's association one space deeper than its account.
     * Rows must come in hierarchical order; an account whose parent was not listed starts at
     * the left, as in Slurm. One instance per cluster.
     */
    static final class TreeNames {
        private record Node(String account, String spaces) {}

        private final List<Node> accounts = new ArrayList<>();

        String name(AssociationEntry a) {
            String parent = a.getUser().isEmpty() ? a.getParentAccount() : a.getAccount();
            if (a.getUser().isEmpty()) {
                for (Node n : accounts) {
                    if (n.account().equals(a.getAccount())) {
                        return n.spaces() + a.getAccount();
                    }
                }
            }
            String spaces = accounts.stream()
                    .filter(n -> Objects.equals(n.account(), parent))
                    .reduce((first, last) -> last)
                    .map(n -> " " + n.spaces())
                    .orElse("");
            if (a.getUser().isEmpty()) {
                accounts.add(new Node(a.getAccount(), spaces));
                return spaces + a.getAccount();
            }
            return spaces + a.getAccount();
        }
    }
}
