package dev.sluice.common.conf;

import java.util.List;
import java.util.Locale;

/**
 * slurm.conf's {@code PrologFlags}, read once: what the controller and the node daemons decide
 * from. {@code Alloc} runs the Prolog when the job is allocated, on every allocated node, and
 * the job is CONFIGURING until it is done; {@code Contain} and {@code X11} imply {@code Alloc}
 * (as {@code scontrol show config} lists them); {@code NoHold} lets {@code salloc} go on without
 * waiting for it. The other flags ({@code Serial}, {@code DeferBatch}) are accepted and change
 * nothing here.
 */
public record PrologFlags(boolean alloc, boolean contain, boolean noHold) {
    public static final PrologFlags NONE = new PrologFlags(false, false, false);

    /** The flags of {@code PrologFlags=Alloc,NoHold} written as a comma list, in any case. */
    public static PrologFlags parse(List<String> items) {
        boolean alloc = false;
        boolean contain = false;
        boolean noHold = false;
        for (String item : items) {
            switch (item.strip().toLowerCase(Locale.ROOT)) {
                case "alloc" -> alloc = true;
                case "contain" -> contain = true;
                case "x11" -> contain = true;
                case "nohold" -> noHold = true;
                default -> {
                    // Serial, DeferBatch, ForceRequeueOnFail, RunInJob: nothing Sluice decides on.
                }
            }
        }
        return new PrologFlags(alloc || contain, contain, noHold);
    }

    /**
     * Whether the allocation's Prolog is waited for: the job shows reason {@code Prolog} until it
     * is done and {@code salloc} waits before it runs its command (Slurm's WAIT_PROLOG).
     */
    public boolean waited() {
        return alloc && !noHold;
    }
}
