package dev.sluice.cli.command.sacctmgr;

import dev.sluice.cli.command.sacct.AccountingClient;
import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.SlurmLimits;
import dev.sluice.common.time.SlurmTimestamp;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ModifiedJob;
import dev.sluice.protocol.v1.ModifyJobsRequest;
import dev.sluice.protocol.v1.ModifyResult;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code sacctmgr modify job [where] JobID=N[,M] [Cluster=C] set DerivedExitCode=N Comment=T
 * AdminComment=T SystemComment=T NewWCKey=W}: changes finished (or running) jobs' accounting
 * records. Key names, their shortest prefixes and the texts are Slurm 22.05's (compat 293, 294):
 * {@code Modified jobs...} with one {@code ID submitted at TIME} line per job, {@code Nothing
 * modified} with the daemon's reason, an unknown option printed on stdout and ignored, an
 * unknown condition or a value without {@code =} refused. The jobs are picked by id only:
 * Slurm's Users=, Accounts=, WCKeys=, StartTime= and EndTime= conditions are refused by name.
 */
final class SacctmgrJobs {
    /** sacctmgr's first words for a job: {@code j}, {@code jo}, {@code job}. */
    static boolean names(String word) {
        return ShowConditions.is(word, "job", 1);
    }

    /** A word sacctmgr stops at ({@code fatal:}): nothing else is read or asked. */
    static final class Fatal extends Exception {
        Fatal(String message) {
            super(message);
        }
    }

    /** What the words ask for; {@code failed} when sacctmgr would stop before asking. */
    static final class Parsed {
        final ModifyJobsRequest.Builder request = ModifyJobsRequest.newBuilder();
        boolean conditions;
        boolean changes;
        boolean failed;
        /** A Slurm condition Sluice does not pick jobs by; null when none was given. */
        String unsupported;
        /** {@code Cluster=} names; empty: the local cluster. */
        final List<String> clusters = new ArrayList<>();
    }

    private final Session s;

    SacctmgrJobs(Session s) {
        this.s = s;
    }

    /**
     * Reads the words as sacctmgr 22.05's job_functions.c does: conditions until {@code set},
     * changes until {@code where}; messages go to {@code out} and {@code err} as it prints them.
     */
    static Parsed parse(List<String> words, PrintStream out, PrintStream err) throws Fatal {
        Parsed p = new Parsed();
        boolean inSet = false;
        for (String w : words) {
            int eq = w.indexOf('=');
            String key = eq < 0 ? w : w.substring(0, eq);
            String value = eq < 0 ? "" : w.substring(eq + 1);
            if (!inSet) {
                if (eq < 0 && ShowConditions.is(w, "set", 3)) {
                    inSet = true;
                } else if (eq < 0 && ShowConditions.is(w, "where", 5)) {
                    // sacctmgr's keyword before the conditions
                } else if (ShowConditions.is(key, "accounts", 1)
                        || ShowConditions.is(key, "accts", 1)
                        || ShowConditions.is(key, "endtime", 1)
                        || ShowConditions.is(key, "starttime", 1)
                        || ShowConditions.is(key, "wckeys", 1)
                        || ShowConditions.is(key, "users", 1)) {
                    p.unsupported = key;
                    p.conditions = true;
                } else if (ShowConditions.is(key, "cluster", 1)) {
                    for (String c : value.split(",")) {
                        if (!c.isEmpty()) {
                            p.clusters.add(c);
                        }
                    }
                } else if (ShowConditions.is(key, "jobid", 1)) {
                    for (String id : value.split(",")) {
                        p.request.addJobIds(jobId(id));
                    }
                    p.conditions = true;
                } else {
                    err.println(" Unknown condition: " + w + "\n Use keyword 'set' to modify value");
                    p.failed = true;
                }
                continue;
            }
            if (ShowConditions.is(w, "where", 5)) {
                inSet = false;
            } else if (eq < 0 && ShowConditions.is(w, "set", 3)) {
                // repeated keyword
            } else if (eq < 0) {
                err.println(" Bad format on " + w + ": End your option with an '=' sign");
                p.failed = true;
            } else if (ShowConditions.is(key, "derivedexitcode", 12) || ShowConditions.is(key, "derivedec", 9)) {
                Long n = unsigned(unquoted(value));
                if (n == null) {
                    err.println("sacctmgr: error: Invalid value for DerivedExitCode (" + unquoted(value) + ")");
                } else {
                    p.request.setDerivedExitStatus((int) (long) n);
                    p.changes = true;
                }
            } else if (ShowConditions.is(key, "comment", 7)
                    || ShowConditions.is(key, "derivedexitstring", 12)
                    || ShowConditions.is(key, "derivedes", 9)) {
                p.request.setComment(unquoted(value));
                p.changes = true;
            } else if (ShowConditions.is(key, "admincomment", 12)) {
                p.request.setAdminComment(unquoted(value));
                p.changes = true;
            } else if (ShowConditions.is(key, "systemcomment", 13)) {
                p.request.setSystemComment(unquoted(value));
                p.changes = true;
            } else if (ShowConditions.is(key, "newwckey", 1)) {
                p.request.setWckey(unquoted(value).toLowerCase(Locale.ROOT));
                p.changes = true;
            } else {
                // Printed on stdout and not counted as an error (job_functions.c).
                out.println(" Unknown option: " + w + "\n Use keyword 'where' to modify condition");
            }
        }
        return p;
    }

    int modify(List<String> words) throws AccountingClient.AccountingException {
        Parsed p;
        try {
            p = parse(words, s.out, s.err);
        } catch (Fatal e) {
            s.err.println("sacctmgr: fatal: " + e.getMessage());
            return 1;
        }
        if (p.failed) {
            return 1;
        }
        if (!p.changes) {
            s.err.println(" You didn't give me anything to set");
            return 1;
        }
        if (p.unsupported != null || p.request.getJobIdsCount() == 0) {
            String by = p.unsupported == null ? "no condition" : p.unsupported + "=";
            s.err.println("sacctmgr: error: Sluice picks the jobs to modify by JobID= only, not by " + by);
            return 1;
        }
        if (p.clusters.size() > 1) {
            s.err.println("sacctmgr: error: Sluice modifies the jobs of one cluster at a time");
            return 1;
        }
        p.request.setCluster(p.clusters.isEmpty() ? s.conf.clusterName() : p.clusters.get(0));
        ModifyResult preview;
        try {
            preview = s.client
                    .call(DbdRequest.newBuilder().setModifyJobs(p.request.setCommit(false)))
                    .getModified();
        } catch (AccountingClient.AccountingException e) {
            if (e.code() != ErrorCode.ACCESS_DENIED.number()) {
                throw e;
            }
            return s.noPrivilege();
        }
        if (preview.getJobsCount() == 0) {
            s.out.println(" Nothing modified");
            s.err.println("sacctmgr: accounting_storage/slurmdbd: acct_storage_p_modify_job: " + preview.getNote());
            return 1;
        }
        s.out.println(" Modified jobs...");
        ZoneId zone = s.inv.clock().getZone();
        for (ModifiedJob j : preview.getJobsList()) {
            s.out.println("  " + describe(j, zone));
        }
        if (s.confirm()) {
            s.client.call(DbdRequest.newBuilder().setModifyJobs(p.request.setCommit(true)));
        }
        return 0;
    }

    /** slurmdbd's name for a changed job: {@code 5000000 submitted at 2026-12-06T18:55:26}. */
    static String describe(ModifiedJob j, ZoneId zone) {
        return Integer.toUnsignedString(j.getJobId()) + " submitted at "
                + SlurmTimestamp.format(Instant.ofEpochSecond(j.getSubmitTime()), zone);
    }

    /** A job id of JobID=: a positive number; anything else ends sacctmgr. */
    private static int jobId(String text) throws Fatal {
        if (!text.matches("[0-9]{1,10}")
                || Long.parseLong(text) == 0
                || Long.parseLong(text) > SlurmLimits.MAX_UINT32) {
            throw new Fatal("Bad job/step specified: " + text);
        }
        return (int) Long.parseLong(text);
    }

    /**
     * sacctmgr's number reading (strtol): leading digits count and the rest is ignored ({@code
     * 1:2} is 1); none at all is refused (null); a negative number is INFINITE.
     */
    static Long unsigned(String text) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("^\\s*([+-]?)([0-9]+)").matcher(text);
        if (!m.find()) {
            return text.isEmpty() ? 0L : null;
        }
        if (m.group(1).equals("-")) {
            return SlurmLimits.INFINITE;
        }
        String digits = m.group(2);
        long n = digits.length() > 18 ? Long.MAX_VALUE : Long.parseLong(digits);
        return n & SlurmLimits.MAX_UINT32;
    }

    /** sacctmgr's quote stripping: one leading quote goes, and the value ends at the next quote. */
    static String unquoted(String value) {
        int from = !value.isEmpty() && (value.charAt(0) == '"' || value.charAt(0) == '\'') ? 1 : 0;
        int to = from;
        while (to < value.length() && value.charAt(to) != '"' && value.charAt(to) != '\'') {
            to++;
        }
        return value.substring(from, to);
    }
}
