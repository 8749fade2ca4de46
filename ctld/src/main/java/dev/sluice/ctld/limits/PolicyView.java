package dev.sluice.ctld.limits;

import static java.util.Objects.requireNonNull;

/**
 * What the controller enforces now: the slurm.conf switches and the newest policy from
 * sluice-dbd. The policy is replaced whole (one volatile write), so the submit path and the
 * scheduling pass each read one consistent copy.
 */
public final class PolicyView {
    /** Enforcement off: nothing is checked and the QOS priorities are slurm.conf's defaults. */
    public static final PolicyView OFF = new PolicyView(Enforcement.NONE, AccountingPolicy.EMPTY, false);

    private final Enforcement enforcement;
    private final boolean trackWckeys;
    private volatile AccountingPolicy policy;

    /** @param trackWckeys slurm.conf's {@code TrackWCKey} */
    public PolicyView(Enforcement enforcement, AccountingPolicy initial, boolean trackWckeys) {
        this.enforcement = requireNonNull(enforcement, "enforcement is null");
        this.policy = requireNonNull(initial, "initial is null");
        this.trackWckeys = trackWckeys;
    }

    /** Whether jobs carry wckeys: {@code TrackWCKey=yes}, or wckeys enforced (which implies it). */
    public boolean tracksWckeys() {
        return trackWckeys || enforcement.wckeys();
    }

    public Enforcement enforcement() {
        return enforcement;
    }

    public AccountingPolicy policy() {
        return policy;
    }

    public void replace(AccountingPolicy next) {
        if (this == OFF) {
            throw new IllegalStateException("the OFF view is shared and never changes");
        }
        policy = requireNonNull(next, "next is null");
    }
}
