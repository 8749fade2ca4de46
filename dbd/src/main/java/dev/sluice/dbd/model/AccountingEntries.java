package dev.sluice.dbd.model;

import java.util.List;

/**
 * One batch of a cluster's accounting stream: its entries in strictly rising sequence. A batch
 * that breaks that can never be stored, so it is refused whole.
 */
public record AccountingEntries(String cluster, List<AccountingEntry> entries) {
    /** @throws IllegalArgumentException without a cluster name, or with sequences out of order */
    public AccountingEntries {
        if (cluster == null || cluster.isBlank()) {
            throw new IllegalArgumentException("accounting batch without a cluster name");
        }
        entries = List.copyOf(entries);
        long previous = 0;
        for (AccountingEntry e : entries) {
            if (e.sequence() <= previous) {
                throw new IllegalArgumentException("sequence " + e.sequence() + " follows " + previous);
            }
            previous = e.sequence();
        }
    }
}
