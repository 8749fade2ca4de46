package dev.sluice.ctld.limits;

import dev.sluice.ctld.queue.QosPriorities;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The associations, users' default accounts, QOS and users' wckeys of this cluster as sluice-dbd last gave
 * them, at {@code version}. Immutable; the controller swaps in a new one when dbd's changes.
 *
 * <p>Limits are inherited as in Slurm: a user association without its own MaxJobs (MaxSubmit,
 * MaxWall, MaxTRES) takes its account's, and so on up to root; Grp limits are not inherited,
 * they cap everything under the association that carries them.
 *
 * <p>{@code learnedAt} says when this controller learned an association from dbd (epoch
 * seconds, by {@link #learnedKey}); one it knew from its start is absent (0). Slurm computes an
 * association's fair-share values only at the decay pass after it learned of it ({@link ShareTree}).
 */
public record AccountingPolicy(
        long version,
        List<Association> associations,
        Map<String, String> defaultAccounts,
        Map<String, Qos> qos,
        UserWckeys wckeys,
        Map<String, Long> learnedAt) {

    /** Nothing loaded yet: with enforcement on, every submission is refused. */
    public static final AccountingPolicy EMPTY =
            new AccountingPolicy(0, List.of(), Map.of(), Map.of(), UserWckeys.NONE);

    private static final int MAX_DEPTH = 64;

    public AccountingPolicy {
        associations = List.copyOf(associations);
        defaultAccounts = Map.copyOf(defaultAccounts);
        qos = Map.copyOf(qos);
        java.util.Objects.requireNonNull(wckeys, "wckeys is null");
        learnedAt = Map.copyOf(learnedAt);
    }

    /** A policy whose associations were all known from the controller's start. */
    public AccountingPolicy(
            long version,
            List<Association> associations,
            Map<String, String> defaultAccounts,
            Map<String, Qos> qos,
            UserWckeys wckeys) {
        this(version, associations, defaultAccounts, qos, wckeys, Map.of());
    }

    /**
     * This policy as it replaces {@code previous} at {@code now}: an association {@code previous}
     * held keeps when it was learned, one it did not hold was learned now.
     */
    public AccountingPolicy learnedAfter(AccountingPolicy previous, long now) {
        Set<String> known = new HashSet<>();
        previous.associations().forEach(a -> known.add(learnedKey(a)));
        Map<String, Long> learned = new HashMap<>();
        for (Association a : associations) {
            String k = learnedKey(a);
            long at = known.contains(k) ? previous.learnedAt(a) : now;
            if (at > 0) {
                learned.put(k, at);
            }
        }
        return new AccountingPolicy(version, associations, defaultAccounts, qos, wckeys, learned);
    }

    /** When this controller learned {@code a}: 0 when it knew it from its start. */
    public long learnedAt(Association a) {
        return learnedAt.getOrDefault(learnedKey(a), 0L);
    }

    /** An association's identity across dbd's versions: account, user and partition. */
    static String learnedKey(Association a) {
        return a.account() + "\u0000" + a.user() + "\u0000" + a.partition();
    }

    /** The user's association in {@code account} for {@code partition}, else for all partitions. */
    public Optional<Association> userAssociation(String account, String user, String partition) {
        Association any = null;
        for (Association a : associations) {
            if (a.account().equals(account) && a.user().equals(user)) {
                if (a.partition().equals(partition)) {
                    return Optional.of(a);
                }
                if (a.partition().isEmpty()) {
                    any = a;
                }
            }
        }
        return Optional.ofNullable(any);
    }

    /** The account's own association. */
    public Optional<Association> accountAssociation(String account) {
        return associations.stream()
                .filter(a -> a.account().equals(account)
                        && !a.isUser()
                        && a.partition().isEmpty())
                .findFirst();
    }

    /** The account associations from {@code account} up to root, nearest first. */
    public List<Association> lineage(String account) {
        List<Association> out = new ArrayList<>();
        String name = account;
        for (int depth = 0; depth < MAX_DEPTH && !name.isEmpty(); depth++) {
            Optional<Association> a = accountAssociation(name);
            if (a.isEmpty()) {
                break;
            }
            out.add(a.get());
            name = a.get().parent();
        }
        return out;
    }

    /** The per-job and per-user limits that apply to a user association, inherited upwards. */
    public Limits effectiveLimits(Association user) {
        Limits l = user.limits();
        for (Association up : lineage(user.account())) {
            l = l.orElse(up.limits());
        }
        // Grp limits belong to the level that carries them (LimitGate walks the lineage).
        return l.withGrpOf(user.limits());
    }

    /** The QOS a user association may use: its own list, else its account's, up to root. */
    public List<String> allowedQos(Association user) {
        if (!user.qos().isEmpty()) {
            return user.qos();
        }
        for (Association up : lineage(user.account())) {
            if (!up.qos().isEmpty()) {
                return up.qos();
            }
        }
        return List.of();
    }

    /** The QOS a job without {@code --qos} gets, as Slurm picks it. */
    public String defaultQos(Association user) {
        if (!user.defaultQos().isEmpty()) {
            return user.defaultQos();
        }
        for (Association up : lineage(user.account())) {
            if (!up.defaultQos().isEmpty()) {
                return up.defaultQos();
            }
        }
        List<String> allowed = allowedQos(user);
        // Slurm falls back to "normal" when the association may use it, else its only QOS.
        return allowed.size() == 1 && !allowed.contains("normal") ? allowed.get(0) : "normal";
    }

    /** The QOS priorities for priority/multifactor's QOS factor; empty when dbd gave no QOS. */
    public Optional<QosPriorities> qosPriorities() {
        if (qos.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Long> p = new HashMap<>();
        qos.values().forEach(q -> p.put(q.name(), q.priority()));
        return Optional.of(new QosPriorities(p));
    }
}
