package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.common.slurm.QosFlags;
import dev.sluice.common.time.TimeLimit;
import dev.sluice.protocol.v1.AddQosRequest;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DeleteQosRequest;
import dev.sluice.protocol.v1.ListQosRequest;
import dev.sluice.protocol.v1.ListTresRequest;
import dev.sluice.protocol.v1.ModifyQosRequest;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.protocol.v1.TresEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code sacctmgr add|modify|delete|show qos}, with sacctmgr's texts (qos_functions.c):
 * {@code Adding QOS(s)} with its {@code Settings} block, {@code Modified qos...},
 * {@code Deleting QOS(s)...}, and {@code Nothing new added.} / {@code Nothing modified} /
 * {@code Nothing deleted} with exit 1.
 */
final class SacctmgrQos {
    /** The keys whose values are TRES lists: dbd merges them into what is stored (compat 195). */
    private static final List<String> TRES_KEYS =
            List.of("grptres", "maxtresperaccount", "maxtresperjob", "maxtrespernode", "maxtresperuser");

    /** Settable keys, in the order sacctmgr prints them under "Settings". */
    private static final Map<String, String> TITLES = new java.util.LinkedHashMap<>();

    // Flags first, MaxJobsPerUser and MaxSubmitJobsPerUser before the MaxTRES (compat 271, 272).
    static {
        TITLES.put("flags", "Flags");
        TITLES.put("gracetime", "GraceTime");
        TITLES.put("grpjobs", "GrpJobs");
        TITLES.put("grpsubmitjobs", "GrpSubmitJobs");
        TITLES.put("grptres", "GrpTRES");
        TITLES.put("maxjobsperuser", "MaxJobsPerUser");
        TITLES.put("maxsubmitjobsperuser", "MaxSubmitJobsPerUser");
        TITLES.put("maxtresperaccount", "MaxTRESPerAccount");
        TITLES.put("maxtresperjob", "MaxTRESPerJob");
        TITLES.put("maxtrespernode", "MaxTRESPerNode");
        TITLES.put("maxtresperuser", "MaxTRESPerUser");
        TITLES.put("maxwall", "MaxWall");
        TITLES.put("preempt", "Preempt");
        TITLES.put("preemptexempttime", "PreemptExemptTime");
        TITLES.put("preemptmode", "PreemptMode");
        TITLES.put("priority", "Priority");
        TITLES.put("usagefactor", "UsageFactor");
        TITLES.put("usagethreshold", "UsageThreshold");
    }

    private final Session s;

    SacctmgrQos(Session s) {
        this.s = s;
    }

    int add(List<String> words) throws AccountingClient.AccountingException {
        SacctmgrSpecs specs = parse(words);
        List<String> given = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        QosEntry settings = settings(specs, tresTypes(specs), given, List.of(), lines);
        AddQosRequest.Builder r = AddQosRequest.newBuilder()
                .addAllNames(specs.names)
                .setSettings(settings)
                .addAllGiven(given);
        List<String> added = s.client
                .call(DbdRequest.newBuilder().setAddQos(r.setCommit(false)))
                .getAdded()
                .getAddedList();
        if (added.isEmpty()) {
            s.out.println(" Nothing new added.");
            return 1;
        }
        s.out.println(" Adding QOS(s)");
        added.forEach(n -> s.out.println("  " + n));
        s.out.println(" Settings");
        s.out.println("  Description    = "
                + (settings.getDescription().isEmpty() ? added.get(0) : settings.getDescription()));
        lines.forEach(s.out::println);
        if (s.confirm()) {
            s.client.call(DbdRequest.newBuilder().setAddQos(r.setCommit(true)));
        }
        return 0;
    }

    int modify(List<String> where, List<String> set) throws AccountingClient.AccountingException {
        SacctmgrSpecs cond = SacctmgrSpecs.parse(where, List.of("name"));
        SacctmgrSpecs specs = parse(set);
        List<String> cleared = new ArrayList<>();
        specs.values.entrySet().removeIf(e -> {
            // A TRES list keeps its -1 counts: each removes its TRES from the limit stored.
            if (TITLES.containsKey(e.getKey())
                    && !TRES_KEYS.contains(e.getKey())
                    && e.getValue().equals("-1")) {
                cleared.add(e.getKey());
                return true;
            }
            return false;
        });
        List<String> given = new ArrayList<>();
        QosEntry settings;
        try {
            settings = settings(specs, tresTypes(specs), given, cleared, new ArrayList<>());
        } catch (BadValue e) {
            // sacctmgr skips the value with its error; alone, nothing is left to set.
            boolean alone = specs.values.size() == 1 && cleared.isEmpty();
            throw new IllegalArgumentException(e.getMessage() + (alone ? "\n You didn't give me anything to set" : ""));
        }
        // Flags= of no known flag sets nothing, yet sacctmgr goes on to modify (compat 272).
        if (given.isEmpty() && cleared.isEmpty() && !specs.values.containsKey("flags")) {
            throw new IllegalArgumentException(" You didn't give me anything to set");
        }
        ModifyQosRequest.Builder r = ModifyQosRequest.newBuilder()
                .addAllNames(cond.names)
                .setSettings(settings)
                .addAllGiven(given)
                .addAllCleared(cleared);
        List<String> modified = s.client
                .call(DbdRequest.newBuilder().setModifyQos(r.setCommit(false)))
                .getModified()
                .getModifiedList();
        if (modified.isEmpty()) {
            s.out.println(" Nothing modified");
            return 1;
        }
        s.out.println(" Modified qos...");
        modified.forEach(n -> s.out.println("  " + n));
        if (s.confirm()) {
            s.client.call(DbdRequest.newBuilder().setModifyQos(r.setCommit(true)));
        }
        return 0;
    }

    /** A value sacctmgr refuses with {@code sacctmgr: error: Invalid value for KEY (VALUE)}. */
    private static final class BadValue extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        BadValue(String key, String value) {
            super("sacctmgr: error: Invalid value for " + key + " (" + value + ")");
        }
    }

    /**
     * The TRES types the database knows ({@code cpu}, {@code gres}, ...), asked only when a TRES
     * list is given: sacctmgr checks each item's type against them before it changes anything.
     */
    private Set<String> tresTypes(SacctmgrSpecs specs) throws AccountingClient.AccountingException {
        if (TRES_KEYS.stream().noneMatch(specs.values::containsKey)) {
            return Set.of();
        }
        Set<String> types = new HashSet<>();
        for (TresEntry t : s.client
                .call(DbdRequest.newBuilder().setListTres(ListTresRequest.getDefaultInstance()))
                .getListedTres()
                .getTresList()) {
            types.add(t.getType().toLowerCase(Locale.ROOT));
        }
        return types;
    }

    /**
     * A TRES list as sacctmgr sends it: every item {@code name=count}, a count that is no number
     * read as its leading digits (strtoll: {@code cpu=many} is {@code cpu=0}), memory with its
     * unit, -1 kept (it removes the TRES).
     *
     * @param types the TRES types known (the part of a name before {@code /})
     * @throws IllegalArgumentException sacctmgr's error for an item without a name or of a type
     *     not known
     */
    static String tresList(String value, Set<String> types) {
        List<String> out = new ArrayList<>();
        for (String item : SacctmgrSpecs.split(value)) {
            int eq = item.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(
                        "sacctmgr: error: slurmdb_format_tres_str: no TRES id found for " + item);
            }
            String name = item.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String type = name.contains("/") ? name.substring(0, name.indexOf('/')) : name;
            if (!types.contains(type)) {
                throw new IllegalArgumentException(
                        "sacctmgr: error: slurmdb_format_tres_str: no TRES known by type " + type);
            }
            String count = item.substring(eq + 1).strip();
            if (!count.matches("-1|\\d+") && !(name.equals("mem") && count.matches("\\d+[KMGTkmgt]"))) {
                String digits = count.replaceFirst("^(\\d*).*$", "$1");
                count = digits.isEmpty() ? "0" : digits;
            }
            out.add(name + "=" + count);
        }
        return String.join(",", out);
    }

    /**
     * A TRES list as the Settings lines of {@code add qos} show it: sorted by TRES name, whatever
     * the order given ({@code cpu=2,mem=1000,gres/gpu=1} shows as {@code cpu=2,gres/gpu=1,mem=1000M};
     * compat 231, 281), a memory count of plain megabytes with its unit.
     */
    static String settingsTres(String list) {
        java.util.TreeMap<String, String> out = new java.util.TreeMap<>();
        for (String item : SacctmgrSpecs.split(list)) {
            out.put(item.contains("=") ? item.substring(0, item.indexOf('=')) : item, settingsItem(item));
        }
        return String.join(",", out.values());
    }

    /**
     * A TRES list as the Settings lines of {@code add user|account} show it: in the order given
     * (no recording lists several there), a memory count of plain megabytes with its unit.
     */
    static String settingsTresAsGiven(String list) {
        List<String> out = new ArrayList<>();
        for (String item : SacctmgrSpecs.split(list)) {
            out.add(settingsItem(item));
        }
        return String.join(",", out);
    }

    private static String settingsItem(String item) {
        try {
            // Each item on its own: Tres.format would put them in TRES order.
            return dev.sluice.common.tres.Tres.parse(item).format();
        } catch (IllegalArgumentException e) {
            return item; // a -1 (removes its TRES) is shown as given
        }
    }

    int delete(List<String> words) throws AccountingClient.AccountingException {
        SacctmgrSpecs specs = SacctmgrSpecs.parse(words, List.of("name"));
        DeleteQosRequest.Builder r = DeleteQosRequest.newBuilder().addAllNames(specs.names);
        List<String> deleted = s.client
                .call(DbdRequest.newBuilder().setDeleteQos(r.setCommit(false)))
                .getDeleted()
                .getDeletedList();
        if (deleted.isEmpty()) {
            s.out.println(" Nothing deleted");
            return 1;
        }
        s.out.println(" Deleting QOS(s)...");
        deleted.forEach(n -> s.out.println("  " + n));
        if (s.confirm()) {
            s.client.call(DbdRequest.newBuilder().setDeleteQos(r.setCommit(true)));
        }
        return 0;
    }

    int list(List<String> words) throws AccountingClient.AccountingException {
        ShowConditions c = ShowConditions.parse(words, ShowConditions.Entity.QOS);
        List<PrintField.Column> columns =
                PrintField.parse(c.format().isEmpty() ? SacctmgrSpecs.split(QosValues.DEFAULT) : c.format(), false);
        List<QosEntry> rows = s.client
                .call(DbdRequest.newBuilder()
                        .setListQos(ListQosRequest.newBuilder().addAllNames(c.names())))
                .getListedQos()
                .getQosList();
        SacctmgrShow.print(
                s,
                columns,
                rows.stream()
                        .map(q -> (java.util.function.Function<PrintField, String>) f -> QosValues.of(q, f))
                        .toList());
        return 0;
    }

    private static SacctmgrSpecs parse(List<String> words) {
        List<String> keys = new ArrayList<>(TITLES.keySet());
        keys.add("name");
        keys.add("description");
        keys.add("maxtres");
        keys.add("maxtrespu");
        keys.add("maxtrespa");
        keys.add("maxtresperacct");
        SacctmgrSpecs specs = SacctmgrSpecs.parse(words, keys);
        String perUser = specs.values.remove("maxtrespu");
        if (perUser != null) {
            specs.values.put("maxtresperuser", perUser);
        }
        for (String alias : List.of("maxtrespa", "maxtresperacct")) {
            String perAccount = specs.values.remove(alias);
            if (perAccount != null) {
                specs.values.put("maxtresperaccount", perAccount);
            }
        }
        String maxTres = specs.values.remove("maxtres");
        if (maxTres != null) {
            specs.values.put("maxtresperjob", maxTres);
        }
        return specs;
    }

    /** The values given, checked; {@code lines} gets sacctmgr's "Settings" lines for them. */
    private static QosEntry settings(
            SacctmgrSpecs specs, Set<String> tresTypes, List<String> given, List<String> cleared, List<String> lines) {
        QosEntry.Builder b = QosEntry.newBuilder();
        if (specs.values.containsKey("description")) {
            b.setDescription(specs.get("description"));
            given.add("description");
        }
        for (Map.Entry<String, String> t : TITLES.entrySet()) {
            String v = specs.values.get(t.getKey());
            if (v == null || cleared.contains(t.getKey())) {
                continue;
            }
            String shown = v;
            switch (t.getKey()) {
                case "priority" -> b.setPriority(SacctmgrSpecs.count(v, "Priority"));
                case "gracetime" -> {
                    int secs = SacctmgrSpecs.count(v, "GraceTime");
                    b.setGraceTimeSeconds(secs);
                }
                // Slurm keeps and prints the list by name (lowrq,normal whatever the order given).
                case "preempt" -> {
                    List<String> names = SacctmgrSpecs.split(v.toLowerCase(Locale.ROOT)).stream()
                            .sorted()
                            .toList();
                    b.addAllPreempt(names);
                    shown = String.join(",", names);
                }
                case "preemptexempttime" -> {
                    long secs;
                    try {
                        secs = TimeLimit.parseSeconds(v);
                    } catch (IllegalArgumentException e) {
                        secs = -1;
                    }
                    if (secs < 0 || secs > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException(" Bad PreemptExemptTime format: PreemptExemptTime=" + v);
                    }
                    b.setPreemptExemptSeconds((int) secs);
                    shown = QosValues.seconds((int) secs);
                }
                case "preemptmode" -> {
                    String m = v.toLowerCase(Locale.ROOT);
                    if (!List.of("cluster", "cancel", "requeue", "suspend", "off")
                            .contains(m)) {
                        throw new IllegalArgumentException(" Unknown preempt mode given '" + v + "'");
                    }
                    b.setPreemptMode(m);
                    shown = m.toUpperCase(Locale.ROOT);
                }
                case "flags" -> {
                    Optional<List<String>> flags = QosFlags.parse(v);
                    if (flags.isEmpty()) {
                        continue; // no flag sacctmgr knows: the flags stay as they are
                    }
                    b.addAllFlags(flags.get());
                    shown = String.join(",", flags.get());
                }
                case "usagefactor" -> {
                    try {
                        b.setUsageFactor(Double.parseDouble(v));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(" Bad UsageFactor value: " + v);
                    }
                    shown = String.format("%.4f", b.getUsageFactor());
                }
                case "grptres" -> b.setGrpTres(shown = tresList(v, tresTypes));
                case "maxtresperjob" -> b.setMaxTresPerJob(shown = tresList(v, tresTypes));
                case "maxtresperuser" -> b.setMaxTresPerUser(shown = tresList(v, tresTypes));
                case "maxtresperaccount" -> b.setMaxTresPerAccount(shown = tresList(v, tresTypes));
                case "maxtrespernode" -> b.setMaxTresPerNode(shown = tresList(v, tresTypes));
                case "usagethreshold" -> {
                    double threshold;
                    try {
                        threshold = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        throw new BadValue("UsageThreshold", v);
                    }
                    b.setUsageThreshold(threshold);
                    shown = String.format("%.4f", threshold);
                }
                case "maxwall" -> {
                    long minutes = TimeLimit.parseMinutes(v);
                    if (minutes < 0 || minutes > Integer.MAX_VALUE) {
                        throw new IllegalArgumentException(" Bad MaxWall time format: " + v);
                    }
                    b.setMaxWallMinutes((int) minutes);
                    shown = AssocValues.wall((int) minutes);
                }
                case "maxjobsperuser" -> b.setMaxJobsPerUser(SacctmgrSpecs.count(v, "MaxJobsPerUser"));
                case "grpjobs" -> b.setGrpJobs(SacctmgrSpecs.count(v, "GrpJobs"));
                case "grpsubmitjobs" -> b.setGrpSubmitJobs(SacctmgrSpecs.count(v, "GrpSubmitJobs"));
                default -> b.setMaxSubmitJobsPerUser(SacctmgrSpecs.count(v, "MaxSubmitJobsPerUser"));
            }
            given.add(t.getKey());
            // sacctmgr 22.05 pads every title to 25 but MaxJobsPerUser's (compat 271).
            String title =
                    t.getKey().equals("maxjobsperuser") ? t.getValue() + " " : String.format("%-25s", t.getValue());
            lines.add("  " + title + "= " + (TRES_KEYS.contains(t.getKey()) ? settingsTres(shown) : shown));
        }
        return b.build();
    }
}
