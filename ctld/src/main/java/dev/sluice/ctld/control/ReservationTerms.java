package dev.sluice.ctld.control;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.ReservationFlag;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.ctld.control.ReservationControl.Directory;
import dev.sluice.ctld.state.ClusterView;
import dev.sluice.ctld.state.Partition;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a reservation request says, read once for create and update alike: who may ask (operators
 * only), its window ({@code StartTime}, {@code Duration}/{@code EndTime}), its {@code Flags},
 * {@code Users}, {@code Accounts} and {@code PartitionName}. Each refusal is Slurm 22.05's (errors
 * seen on the real cluster); which nodes it holds is {@link ReservationNodes}'.
 */
final class ReservationTerms {
    private ReservationTerms() {}

    static void requireOperator(Caller caller) {
        if (!caller.isOperator()) {
            throw new SlurmException(ErrorCode.USER_ID_MISSING);
        }
    }

    static long endOf(long start, ReservationSpec spec) {
        if (spec.durationMinutes() != null) {
            long minutes = spec.durationMinutes();
            // UNLIMITED: Slurm's reservations then last a year.
            return start + (minutes >= SlurmLimits.INFINITE ? 365L * 86_400 : minutes * 60);
        }
        if (spec.end() == null || spec.end() <= start) {
            throw new SlurmException(ErrorCode.INVALID_TIME_VALUE);
        }
        return spec.end();
    }

    static Set<ReservationFlag> with(Set<ReservationFlag> flags) {
        Set<ReservationFlag> out = EnumSet.noneOf(ReservationFlag.class);
        out.addAll(flags);
        return out;
    }

    /**
     * Slurm's reading of {@code Flags=}: a {@code -} before an item takes it away, and every item
     * after it too ({@code -DAILY,WEEKLY} takes both away, as the real cluster shows).
     */
    static Set<ReservationFlag> flags(Set<ReservationFlag> into, List<String> typed) {
        boolean remove = false;
        for (String item : typed) {
            remove |= item.startsWith("-");
            ReservationFlag f = ReservationFlag.parse(item.startsWith("-") ? item.substring(1) : item)
                    .orElseThrow(() -> new SlurmException(ErrorCode.INVALID_ARGUMENT));
            if (remove) {
                into.remove(f);
            } else {
                into.add(f);
            }
        }
        return into;
    }

    record Users(List<String> names, boolean excluded) {}

    static Users users(String typed, Directory directory) {
        if (typed == null || typed.isEmpty()) {
            return new Users(List.of(), false);
        }
        List<String> names = new ArrayList<>();
        int minus = 0;
        String[] items = typed.split(",");
        for (String item : items) {
            String name = item.strip();
            if (name.startsWith("-")) {
                minus++;
                name = name.substring(1);
            }
            if (name.isEmpty() || !directory.knownUser().test(name)) {
                throw new SlurmException(ErrorCode.USER_ID_MISSING);
            }
            names.add(name);
        }
        if (minus != 0 && minus != items.length) {
            // Users=a,-b: Slurm takes a list of users or a list of exclusions, not both.
            throw new SlurmException(ErrorCode.USER_ID_MISSING);
        }
        return new Users(List.copyOf(new LinkedHashSet<>(names)), minus != 0);
    }

    static List<String> accounts(String typed, Directory directory) {
        if (typed == null || typed.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String item : typed.split(",")) {
            String account = item.strip();
            if (account.isEmpty() || !directory.knownAccount().test(account)) {
                throw new SlurmException(ErrorCode.INVALID_ACCOUNT);
            }
            out.add(account);
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }

    static String partition(ClusterView state, String typed) {
        if (typed == null || typed.isEmpty()) {
            return "";
        }
        return state.partitions().stream()
                .filter(p -> p.name().equals(typed))
                .findFirst()
                .map(Partition::name)
                .orElseThrow(() -> new SlurmException(ErrorCode.INVALID_PARTITION_NAME));
    }

    static String defaultPartition(ClusterView state) {
        return state.partitions().stream()
                .filter(Partition::isDefault)
                .map(Partition::name)
                .findFirst()
                .orElseThrow(() -> new SlurmException(ErrorCode.DEFAULT_PARTITION_NOT_SET));
    }
}
