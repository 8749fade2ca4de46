package dev.sluice.dbd.store;

import dev.sluice.protocol.v1.AssociationEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * sacctmgr's ParentID, LFT and RGT of associations, from their ids. slurmdbd keeps each
 * cluster's associations as nested sets: an account's users and sub-accounts lie between its LFT
 * and RGT, and a new child is put leftmost under its parent, so among siblings the one added
 * latest (the highest id) comes first. Real slurmdbd 22.05 numbered root (1, 14), then
 * helperaccta (2, 3) added after helperacctb (4, 11), then root's user root (12, 13). Pure.
 */
final class AssocNumbering {
    private AssocNumbering() {}

    /** {@code all}: every association of every cluster, with its id; the same, numbered. */
    static List<AssociationEntry> number(List<AssociationEntry> all) {
        Map<String, AssociationEntry> accountRow = new HashMap<>();
        for (AssociationEntry a : all) {
            if (a.getUser().isEmpty() && a.getPartition().isEmpty()) {
                accountRow.put(a.getCluster() + "/" + a.getAccount(), a);
            }
        }
        Map<Long, List<AssociationEntry>> children = new HashMap<>();
        List<AssociationEntry> roots = new ArrayList<>();
        Map<Long, Long> parentId = new HashMap<>();
        for (AssociationEntry a : all) {
            boolean own = a.getUser().isEmpty() && a.getPartition().isEmpty();
            String parentAccount = own ? a.getParentAccount() : a.getAccount();
            AssociationEntry parent =
                    parentAccount.isEmpty() ? null : accountRow.get(a.getCluster() + "/" + parentAccount);
            if (parent == null || parent.getId() == a.getId()) {
                roots.add(a);
                parentId.put(a.getId(), 0L);
            } else {
                children.computeIfAbsent(parent.getId(), k -> new ArrayList<>()).add(a);
                parentId.put(a.getId(), parent.getId());
            }
        }
        Map<Long, int[]> span = new HashMap<>();
        Map<String, int[]> counters = new HashMap<>();
        roots.sort(Comparator.comparingLong(AssociationEntry::getId));
        for (AssociationEntry root : roots) {
            int[] counter = counters.computeIfAbsent(root.getCluster(), c -> new int[] {1});
            walk(root, children, span, counter);
        }
        List<AssociationEntry> out = new ArrayList<>(all.size());
        for (AssociationEntry a : all) {
            int[] s = span.getOrDefault(a.getId(), new int[2]);
            out.add(a.toBuilder()
                    .setParentId(parentId.getOrDefault(a.getId(), 0L))
                    .setLft(s[0])
                    .setRgt(s[1])
                    .build());
        }
        return out;
    }

    private static void walk(
            AssociationEntry a, Map<Long, List<AssociationEntry>> children, Map<Long, int[]> span, int[] counter) {
        int lft = counter[0]++;
        List<AssociationEntry> kids = new ArrayList<>(children.getOrDefault(a.getId(), List.of()));
        kids.sort(Comparator.comparingLong(AssociationEntry::getId).reversed());
        for (AssociationEntry k : kids) {
            walk(k, children, span, counter);
        }
        span.put(a.getId(), new int[] {lft, counter[0]++});
    }
}
