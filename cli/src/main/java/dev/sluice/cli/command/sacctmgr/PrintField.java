package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.format.FieldTable;
import dev.sluice.cli.format.FormatItem;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns sacctmgr knows, with Slurm 22.05's titles and widths, and the names {@code format=}
 * picks them by (src/sacctmgr/common.c, _get_print_field). One table for every entity, as in
 * Slurm: an entity prints blank for a field it has no value for. {@link #parse} tries the names
 * in Slurm's order, a name matching when the word given is a prefix of it at least as long as
 * its minimum, so {@code MaxTRESPU} never falls to {@code MaxTRES}.
 */
enum PrintField {
    ACCT("Account", 10, null),
    ACTIONRAW("ActionRaw", 10, null),
    ACTION("Action", 20, null),
    ACTOR("Actor", 10, null),
    ADMIN("Admin", 9, null),
    ALLOWED("% Allowed", 10, null),
    ASSOC_NAME("Assocs", 10, null),
    TRES("TRES", 20, null),
    CLASS("Class", 9, null),
    CLUSTER_NODES("Cluster Nodes", 20, null),
    CLUSTER("Cluster", 10, null),
    COORDS("Coord Accounts", 20, null),
    CHOST("ControlHost", 15, null),
    CPORT("ControlPort", 12, null),
    COUNT("Count", 6, null),
    CALLOWED("# Allowed", 10, null),
    CALLOWED_USED("# Used", 10, CALLOWED),
    CPUS("CPU Cnt", 7, null),
    DACCT("Def Acct", 10, null),
    DQOS("Def QOS", 9, null),
    DWCKEY("Def WCKey", 10, null),
    DESC("Descr", 20, null),
    DURATION("Duration", 13, null),
    EVENTRAW("EventRaw", 8, null),
    EVENT("Event", 7, null),
    FEATURES("Features", 20, null),
    FEDERATION("Federation", 10, null),
    FEDSTATE("FedState", 12, null),
    FEDSTATERAW("FedStateRaw", 11, null),
    FLAGS("Flags", 20, null),
    GRACE("GraceTime", 10, null),
    GRPC("GrpCPUs", 8, null),
    GRPCM("GrpCPUMins", 11, null),
    GRPCRM("GrpCPURunMins", 13, null),
    GRPT("GrpTRES", 13, null),
    GRPTM("GrpTRESMins", 13, null),
    GRPTRM("GrpTRESRunMins", 13, null),
    GRPJ("GrpJobs", 7, null),
    GRPMEM("GrpMem", 7, null),
    GRPN("GrpNodes", 8, null),
    GRPS("GrpSubmit", 9, null),
    GRPW("GrpWall", 11, null),
    ID("ID", 6, null),
    INFO("Info", 20, null),
    LFT("LFT", 6, null),
    SERVERTYPE("ServerType", 10, null),
    MAXCM("MaxCPUMins", 11, null),
    MAXCRM("MaxCPURunMinsPU", 15, null),
    MAXC("MaxCPUs", 8, null),
    MAXCU("MaxCPUsPU", 9, null),
    MAXT("MaxTRES", 13, null),
    MAXTN("MaxTRESPerNode", 14, null),
    MAXTM("MaxTRESMins", 13, null),
    MAXTRMA("MaxTRESRunMinsPA", 15, null),
    MAXTRM("MaxTRESRunMinsPU", 15, null),
    MAXTA("MaxTRESPA", 13, null),
    MAXTU("MaxTRESPU", 13, null),
    MAXJ("MaxJobs", 7, null),
    MAXJAA("MaxJobsAccruePA", 15, null),
    MAXJAU("MaxJobsAccruePU", 15, null),
    MAXJPA("MaxJobsPA", 9, null),
    MAXJ_MAXJOBSPU("MaxJobsPU", 9, MAXJ),
    MAXN("MaxNodes", 8, null),
    MAXNU("MaxNodesPU", 10, null),
    MINPT("MinPrioThres", 12, null),
    MAXS("MaxSubmit", 9, null),
    MAXSA("MaxSubmitPA", 11, null),
    MAXS_MAXSUBMITPU("MaxSubmitPU", 11, MAXS),
    MAXW("MaxWall", 11, null),
    MINC("MinCPUs", 8, null),
    MINT("MinTRES", 13, null),
    NAME("Name", 10, null),
    NODECNT("NodeCount", 9, null),
    NODEINX("NodeInx", 9, null),
    NODENAME("NodeName", -15, null),
    ORG("Org", 20, null),
    PID("ParentID", 8, null),
    PNAME("ParentName", 10, null),
    PART("Partition", 10, null),
    SELECT("PluginIDSelect", 14, null),
    PREEM("PreemptMode", 11, null),
    PREE("Preempt", 10, null),
    PRXMPT("PreemptExemptTime", 19, null),
    PRIO("Priority", 10, null),
    PROBLEM("Problem", 40, null),
    QOS("QOS", 20, null),
    QOS_RAW("QOS_RAW", 10, null),
    REASON("Reason", 30, null),
    RGT("RGT", 6, null),
    RPC_VERSION("RPC", 5, null),
    SERVER("Server", 10, null),
    FAIRSHARE("Share", 9, null),
    STATERAW("StateRaw", 8, null),
    STATE("State", 6, null),
    TS("Time", 19, null),
    TIMEELIGIBLE("TimeEligible", 19, null),
    TIMEEND("TimeEnd", 19, null),
    TIMESTART("TimeStart", 19, null),
    TIMESUBMIT("TimeSubmit", 19, null),
    TYPE("Type", 8, null),
    UNUSED("UnusedWall", 10, null),
    UF("UsageFactor", 11, null),
    UT("UsageThres", 10, null),
    LF("LimitFactor", 11, null),
    ALLOCATED("% Allocated", 11, null),
    USER("User", 10, null),
    WCKEYS("WCKeys", 20, null),
    WHERE("Where", 20, null);

    private final String title;
    private final int width;
    private final PrintField sameAs;

    PrintField(String title, int width, PrintField sameAs) {
        this.title = title;
        this.width = width;
        this.sameAs = sameAs;
    }

    String title() {
        return title;
    }

    int width() {
        return width;
    }

    /** The field whose value this one prints: MaxJobsPU is MaxJobs under another title. */
    PrintField kind() {
        return sameAs == null ? this : sameAs;
    }

    /** A column of a listing: a field and its width ({@code %N} or the field's own). */
    record Column(PrintField field, int width) {
        FieldTable.Column column() {
            return new FieldTable.Column(field.title(), width);
        }
    }

    private record Rule(String name, int min, PrintField field) {
        boolean matches(String word) {
            return word.length() >= min
                    && word.length() <= name.length()
                    && name.regionMatches(true, 0, word, 0, word.length());
        }
    }

    /**
     * {@code format=} items ({@code name} or {@code name%width}) as columns. In a tree listing
     * the Account column is 20 wide and left-justified, so that its indentation shows.
     *
     * @throws IllegalArgumentException with Slurm's {@code Unknown field 'x'}
     */
    static List<Column> parse(List<String> items, boolean tree) {
        List<Column> out = new ArrayList<>();
        for (String item : items) {
            FormatItem parsed = FormatItem.parse(item);
            String name = parsed.name();
            // atoi: leading digits (and sign) count, anything else is 0, which keeps the default.
            int width = parsed.width();
            PrintField f = RULES.stream()
                    .filter(r -> r.matches(name))
                    .map(Rule::field)
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("Unknown field '" + name + "'"));
            int def = f == ACCT && tree ? -20 : f.width();
            out.add(new Column(f, width != 0 ? width : def));
        }
        return out;
    }

    static List<Column> parse(String commaList, boolean tree) {
        return parse(SacctmgrSpecs.split(commaList), tree);
    }

    private static final List<Rule> RULES = List.of(
            new Rule("Account", 3, ACCT),
            new Rule("Acct", 4, ACCT),
            new Rule("ActionRaw", 7, ACTIONRAW),
            new Rule("Action", 4, ACTION),
            new Rule("Actor", 4, ACTOR),
            new Rule("AdminLevel", 2, ADMIN),
            new Rule("Allowed", 2, ALLOWED),
            new Rule("Associations", 2, ASSOC_NAME),
            new Rule("TRES", 2, TRES),
            new Rule("Classification", 3, CLASS),
            new Rule("ClusterNodes", 8, CLUSTER_NODES),
            new Rule("Clusters", 2, CLUSTER),
            new Rule("Coordinators", 2, COORDS),
            new Rule("ControlHost", 8, CHOST),
            new Rule("ControlPort", 8, CPORT),
            new Rule("Count", 3, COUNT),
            new Rule("CountAllowed", 6, CALLOWED),
            new Rule("CountUsed", 6, CALLOWED_USED),
            new Rule("CPUCount", 2, CPUS),
            new Rule("DefaultAccount", 8, DACCT),
            new Rule("DefaultQOS", 8, DQOS),
            new Rule("DefaultWCKey", 8, DWCKEY),
            new Rule("Description", 3, DESC),
            new Rule("Duration", 2, DURATION),
            new Rule("EventRaw", 6, EVENTRAW),
            new Rule("Event", 2, EVENT),
            new Rule("Features", 3, FEATURES),
            new Rule("Federation", 3, FEDERATION),
            new Rule("FedState", 4, FEDSTATE),
            new Rule("FedStateRaw", 9, FEDSTATERAW),
            new Rule("Flags", 2, FLAGS),
            new Rule("GraceTime", 3, GRACE),
            new Rule("GrpCPUs", 6, GRPC),
            new Rule("GrpCPUMins", 7, GRPCM),
            new Rule("GrpCPURunMins", 7, GRPCRM),
            new Rule("GrpTRES", 7, GRPT),
            new Rule("GrpTRESMins", 7, GRPTM),
            new Rule("GrpTRESRunMins", 7, GRPTRM),
            new Rule("GrpJobs", 4, GRPJ),
            new Rule("GrpMemory", 4, GRPMEM),
            new Rule("GrpNodes", 4, GRPN),
            new Rule("GrpSubmitJobs", 4, GRPS),
            new Rule("GrpWall", 4, GRPW),
            new Rule("ID", 2, ID),
            new Rule("Info", 2, INFO),
            new Rule("LFT", 1, LFT),
            new Rule("servertype", 10, SERVERTYPE),
            new Rule("MaxCPUMinsPerJob", 7, MAXCM),
            new Rule("MaxCPURunMinsPerUser", 7, MAXCRM),
            new Rule("MaxCPURunMinsPU", 7, MAXCRM),
            new Rule("MaxCPUsPerJob", 7, MAXC),
            new Rule("MaxCPUsPerUser", 11, MAXCU),
            new Rule("MaxCPUsPU", 9, MAXCU),
            new Rule("MaxTRES", 7, MAXT),
            new Rule("MaxTRESPerJob", 11, MAXT),
            new Rule("MaxTRESPerNode", 11, MAXTN),
            new Rule("MaxTRESMinsPerJob", 8, MAXTM),
            new Rule("MaxTRESRunMinsPerAccount", 18, MAXTRMA),
            new Rule("MaxTRESRunMinsPerAcct", 18, MAXTRMA),
            new Rule("MaxTRESRunMinsPA", 15, MAXTRMA),
            new Rule("MaxTRESRunMinsPerUser", 8, MAXTRM),
            new Rule("MaxTRESRunMinsPU", 8, MAXTRM),
            new Rule("MaxTRESPerAccount", 11, MAXTA),
            new Rule("MaxTRESPerAcct", 11, MAXTA),
            new Rule("MaxTRESPA", 9, MAXTA),
            new Rule("MaxTRESPerUser", 11, MAXTU),
            new Rule("MaxTRESPU", 9, MAXTU),
            new Rule("MaxJobs", 4, MAXJ),
            new Rule("MaxJobsAccruePerAccount", 17, MAXJAA),
            new Rule("MaxJobsAccruePerAcct", 17, MAXJAA),
            new Rule("MaxJobsAccruePA", 15, MAXJAA),
            new Rule("MaxJobsAccruePerUser", 17, MAXJAU),
            new Rule("MaxJobsAccruePU", 15, MAXJAU),
            new Rule("MaxJobsPerAccount", 11, MAXJPA),
            new Rule("MaxJobsPerAcct", 11, MAXJPA),
            new Rule("MaxJobsPA", 9, MAXJPA),
            new Rule("MaxJobsPerUser", 11, MAXJ_MAXJOBSPU),
            new Rule("MaxJobsPU", 9, MAXJ_MAXJOBSPU),
            new Rule("MaxNodesPerJob", 4, MAXN),
            new Rule("MaxNodesPerUser", 12, MAXNU),
            new Rule("MaxNodesPU", 10, MAXNU),
            new Rule("MinPrioThreshold", 4, MINPT),
            new Rule("MaxSubmitJobs", 4, MAXS),
            new Rule("MaxSubmitJobsPerAccount", 17, MAXSA),
            new Rule("MaxSubmitJobsPerAcct", 17, MAXSA),
            new Rule("MaxSubmitJobsPA", 15, MAXSA),
            new Rule("MaxSubmitPA", 11, MAXSA),
            new Rule("MaxSubmitJobsPerUser", 10, MAXS_MAXSUBMITPU),
            new Rule("MaxSubmitJobsPU", 10, MAXS_MAXSUBMITPU),
            new Rule("MaxSubmitPU", 6, MAXS_MAXSUBMITPU),
            new Rule("MaxWallDurationPerJob", 4, MAXW),
            new Rule("MinCPUsPerJob", 7, MINC),
            new Rule("MinTRESPerJob", 7, MINT),
            new Rule("Name", 2, NAME),
            new Rule("NodeCount", 5, NODECNT),
            new Rule("NodeInx", 5, NODEINX),
            new Rule("NodeNames", 5, NODENAME),
            new Rule("Organization", 1, ORG),
            new Rule("ParentID", 7, PID),
            new Rule("ParentName", 7, PNAME),
            new Rule("Partition", 4, PART),
            new Rule("PluginIDSelect", 2, SELECT),
            new Rule("PreemptMode", 8, PREEM),
            new Rule("Preempt", 7, PREE),
            new Rule("PreemptExemptTime", 8, PRXMPT),
            new Rule("Priority", 3, PRIO),
            new Rule("Problem", 1, PROBLEM),
            new Rule("QOSLevel", 3, QOS),
            new Rule("QOSRAWLevel", 4, QOS_RAW),
            new Rule("Reason", 1, REASON),
            new Rule("RGT", 1, RGT),
            new Rule("RPC", 1, RPC_VERSION),
            new Rule("Server", 3, SERVER),
            new Rule("Share", 1, FAIRSHARE),
            new Rule("FairShare", 2, FAIRSHARE),
            new Rule("StateRaw", 6, STATERAW),
            new Rule("State", 1, STATE),
            new Rule("TimeStamp", 2, TS),
            new Rule("TimeEligible", 6, TIMEELIGIBLE),
            new Rule("Eligible", 2, TIMEELIGIBLE),
            new Rule("TimeEnd", 6, TIMEEND),
            new Rule("End", 2, TIMEEND),
            new Rule("TimeStart", 7, TIMESTART),
            new Rule("Start", 3, TIMESTART),
            new Rule("TimeSubmit", 6, TIMESUBMIT),
            new Rule("Submit", 2, TIMESUBMIT),
            new Rule("TRES", 2, TRES),
            new Rule("Type", 2, TYPE),
            new Rule("UnusedWall", 2, UNUSED),
            new Rule("UsageFactor", 6, UF),
            new Rule("UsageThreshold", 6, UT),
            new Rule("LimitFactor", 6, LF),
            new Rule("Allocated", 7, ALLOCATED),
            new Rule("User", 1, USER),
            new Rule("WCKeys", 2, WCKEYS),
            new Rule("Where", 2, WHERE));
}
