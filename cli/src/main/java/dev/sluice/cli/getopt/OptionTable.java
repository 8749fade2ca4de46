package dev.sluice.cli.getopt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The options one command accepts. Immutable once built.
 *
 * <p>glibc lists the candidates of an ambiguous prefix in table order. Long options are kept
 * sorted by name unless the builder says {@link Builder#inGivenOrder()}: most of Slurm's tables
 * are alphabetical, but sbatch's, srun's and salloc's are not quite ({@code --cluster-constraint}
 * comes before {@code --chdir}), so those list their names in Slurm's order.
 *
 * <p>{@code stopAtFirstOperand} is getopt's leading {@code +} (REQUIRE_ORDER): sbatch needs it
 * because the words after the script name belong to the script.
 */
public final class OptionTable {
    private final List<OptionSpec> specs;
    private final boolean stopAtFirstOperand;

    private OptionTable(List<OptionSpec> specs, boolean stopAtFirstOperand, boolean givenOrder) {
        this.specs = givenOrder
                ? List.copyOf(specs)
                : specs.stream()
                        .sorted(Comparator.comparing(s -> s.longName() == null ? "" : s.longName()))
                        .toList();
        this.stopAtFirstOperand = stopAtFirstOperand;
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean stopAtFirstOperand() {
        return stopAtFirstOperand;
    }

    Optional<OptionSpec> byShort(char c) {
        return specs.stream().filter(s -> s.shortName() == c).findFirst();
    }

    Optional<OptionSpec> byLongExact(String name) {
        return specs.stream().filter(s -> name.equals(s.longName())).findFirst();
    }

    /** Every option, in table order. */
    public List<OptionSpec> specs() {
        return specs;
    }

    List<OptionSpec> byLongPrefix(String prefix) {
        return specs.stream()
                .filter(s -> s.longName() != null && s.longName().startsWith(prefix))
                .toList();
    }

    /** Collects specs; {@code key} defaults to the long name (or the short letter). */
    public static final class Builder {
        private final List<OptionSpec> specs = new ArrayList<>();
        private boolean stopAtFirstOperand;
        private boolean givenOrder;

        public Builder stopAtFirstOperand() {
            this.stopAtFirstOperand = true;
            return this;
        }

        public Builder inGivenOrder() {
            this.givenOrder = true;
            return this;
        }

        public Builder add(char shortName, String longName, ArgKind arg) {
            return add(shortName, longName, arg, keyOf(shortName, longName), true);
        }

        public Builder add(char shortName, String longName, ArgKind arg, String key) {
            return add(shortName, longName, arg, key, true);
        }

        /** An option Slurm has that this command rejects as unrecognized when used. */
        public Builder unsupported(char shortName, String longName, ArgKind arg) {
            return add(shortName, longName, arg, keyOf(shortName, longName), false);
        }

        public Builder add(char shortName, String longName, ArgKind arg, String key, boolean supported) {
            specs.add(new OptionSpec(key, shortName, longName, arg, supported));
            return this;
        }

        public OptionTable build() {
            return new OptionTable(specs, stopAtFirstOperand, givenOrder);
        }

        private static String keyOf(char shortName, String longName) {
            return longName != null ? longName : String.valueOf(shortName);
        }
    }
}
