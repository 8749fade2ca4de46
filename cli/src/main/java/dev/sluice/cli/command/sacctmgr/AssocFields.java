package dev.sluice.cli.command.sacctmgr;

import dev.sluice.protocol.v1.AccountEntry;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.AssociationLimits;
import dev.sluice.protocol.v1.UserEntry;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/** The columns sacctmgr shows for each entity, with Slurm 22.05's titles and widths. */
final class AssocFields {
    private AssocFields() {}

    record Field<T>(String name, String title, int width, Function<T, String> value) {
        FieldTable.Column column() {
            return new FieldTable.Column(title, width);
        }
    }

    static final List<Field<AccountEntry>> ACCOUNT = List.of(
            new Field<>("Account", "Account", 10, AccountEntry::getName),
            new Field<>("Description", "Descr", 20, AccountEntry::getDescription),
            new Field<>("Organization", "Org", 20, AccountEntry::getOrganization));

    static final List<Field<UserEntry>> USER = List.of(
            new Field<>("User", "User", 10, UserEntry::getName),
            new Field<>("DefaultAccount", "Def Acct", 10, UserEntry::getDefaultAccount),
            new Field<>("AdminLevel", "Admin", 9, UserEntry::getAdminLevel));

    static final List<Field<String>> CLUSTER = List.of(new Field<>("Cluster", "Cluster", 10, c -> c));

    static final List<Field<AssociationEntry>> ASSOC = List.of(
            new Field<>("Cluster", "Cluster", 10, AssociationEntry::getCluster),
            new Field<>("Account", "Account", 10, AssociationEntry::getAccount),
            new Field<>("User", "User", 10, AssociationEntry::getUser),
            new Field<>("Partition", "Partition", 10, AssociationEntry::getPartition),
            new Field<>(
                    "Share",
                    "Share",
                    9,
                    a -> a.getLimits().hasShares()
                            ? Integer.toString(a.getLimits().getShares())
                            : ""),
            new Field<>("Priority", "Priority", 10, a -> ""),
            new Field<>(
                    "GrpJobs",
                    "GrpJobs",
                    7,
                    a -> number(a.getLimits(), a.getLimits().hasGrpJobs(), AssociationLimits::getGrpJobs)),
            new Field<>("GrpTRES", "GrpTRES", 13, a -> a.getLimits().getGrpTres()),
            new Field<>(
                    "GrpSubmitJobs",
                    "GrpSubmit",
                    9,
                    a -> number(a.getLimits(), a.getLimits().hasGrpSubmitJobs(), AssociationLimits::getGrpSubmitJobs)),
            new Field<>("GrpWall", "GrpWall", 11, a -> ""),
            new Field<>("GrpTRESMins", "GrpTRESMins", 13, a -> ""),
            new Field<>(
                    "MaxJobs",
                    "MaxJobs",
                    7,
                    a -> number(a.getLimits(), a.getLimits().hasMaxJobs(), AssociationLimits::getMaxJobs)),
            new Field<>("MaxTRES", "MaxTRES", 13, a -> a.getLimits().getMaxTres()),
            new Field<>("MaxTRESPerNode", "MaxTRESPerNode", 14, a -> ""),
            new Field<>(
                    "MaxSubmit",
                    "MaxSubmit",
                    9,
                    a -> number(a.getLimits(), a.getLimits().hasMaxSubmitJobs(), AssociationLimits::getMaxSubmitJobs)),
            new Field<>(
                    "MaxWall",
                    "MaxWall",
                    11,
                    a -> a.getLimits().hasMaxWallMinutes() ? wall(a.getLimits().getMaxWallMinutes()) : ""),
            new Field<>("MaxTRESMins", "MaxTRESMins", 13, a -> ""),
            new Field<>("QOS", "QOS", 20, a -> a.getLimits().getQos()),
            new Field<>("DefaultQOS", "Def QOS", 9, a -> a.getLimits().getDefaultQos()),
            new Field<>("GrpTRESRunMins", "GrpTRESRunMin", 13, a -> ""));

    /**
     * A field by name (case-insensitive, unique prefixes allowed), as {@code format=} names it;
     * a column's short title works too ({@code MaxJobsPU} for MaxJobsPerUser), as in sacctmgr.
     */
    static <T> Optional<Field<T>> byName(List<Field<T>> fields, String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return fields.stream()
                .filter(f -> f.name().toLowerCase(Locale.ROOT).equals(n))
                .findFirst()
                .or(() -> fields.stream()
                        .filter(f -> f.title().toLowerCase(Locale.ROOT).equals(n))
                        .findFirst())
                .or(() -> fields.stream()
                        .filter(f -> f.name().toLowerCase(Locale.ROOT).startsWith(n))
                        .findFirst());
    }

    private static String number(AssociationLimits l, boolean set, Function<AssociationLimits, Integer> get) {
        return set ? Integer.toUnsignedString(get.apply(l)) : "";
    }

    /** Minutes as sacctmgr prints a wall limit: {@code 1-00:00:00}, {@code 02:00:00}. */
    static String wall(int minutes) {
        long m = Integer.toUnsignedLong(minutes);
        long d = m / 1440;
        String hms = String.format("%02d:%02d:00", (m / 60) % 24, m % 60);
        return d > 0 ? d + "-" + hms : hms;
    }

    static List<String> names(List<? extends Field<?>> fields) {
        return Arrays.asList(fields.stream().map(Field::name).toArray(String[]::new));
    }
}
