package dev.sluice.ctld.limits;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.error.SlurmException;
import dev.sluice.common.slurm.JobReason;
import dev.sluice.ctld.state.Job;
import dev.sluice.ctld.state.JobRequest;
import java.util.Locale;
import java.util.Optional;

/**
 * The submit-time checks of AccountingStorageEnforce, in Slurm's order: the job needs an
 * association (its account, or the user's default account, for its user and partition), a QOS
 * the association may use, and room under MaxSubmitJobs and GrpSubmitJobs (association and the
 * accounts above it, then QOS per user).
 * Everything else waits in the queue ({@link LimitGate}). Pure.
 */
public final class Admission {
    private Admission() {}

    /**
     * The request under the account and QOS it is admitted with; unchanged when nothing is
     * enforced.
     */
    public static JobRequest resolve(PolicyView view, JobRequest request, String partition, Iterable<Job> jobs) {
        if (!view.enforcement().any()) {
            return withDefaults(view.policy(), request, partition);
        }
        Admitted a = admit(
                view.enforcement(),
                view.policy(),
                request.owner().userName(),
                request.account(),
                request.qos(),
                partition,
                jobs);
        return request.withAccounting(a.account(), a.qos());
    }

    /**
     * A job admitted under a per-job node limit (its QOS's MaxTRESPerJob=node=, its
     * association's MaxTRES=node=, the lower of the two) gets that as its most nodes when it
     * could otherwise have more, as slurmctld caps the request: {@code -n6} or
     * {@code -N1-2 -n6} under node=1 on 4-CPU nodes then fits nowhere and is refused
     * (compat 214, 217). A job asking for more nodes at least ({@code -N2}) is left as it is and
     * waits for the limit instead (compat 169). Unchanged without limits enforced.
     *
     * @param request the job as {@link #resolve} admitted it (its account and QOS)
     */
    public static JobRequest capNodes(PolicyView view, JobRequest request, String partition) {
        if (!view.enforcement().limits()) {
            return request;
        }
        AccountingPolicy policy = view.policy();
        long cap = Limits.NONE;
        Qos qos = request.qos() == null ? null : policy.qos().get(request.qos());
        if (qos != null) {
            cap = qos.limits().maxTresPerJob().get("node");
        }
        String account = request.account() == null ? "" : request.account();
        Optional<Association> assoc = account.isEmpty()
                ? Optional.empty()
                : policy.userAssociation(account, request.owner().userName(), partition);
        if (assoc.isPresent()) {
            long own = policy.effectiveLimits(assoc.get()).maxTresPerJob().get("node");
            cap = cap == Limits.NONE || (own != Limits.NONE && own < cap) ? own : cap;
        }
        JobRequest.Size size = request.size();
        long most = size.maxNodes() > 0 ? size.maxNodes() : size.minNodes() > 0 ? size.minNodes() : Long.MAX_VALUE;
        if (cap == Limits.NONE || size.effectiveMinNodes() > cap || most <= cap) {
            return request;
        }
        return request.withShape(size.minNodes(), (int) cap, size.numTasks(), request.partition());
    }

    /**
     * Without enforcement a job still runs under an association when accounting knows one, as
     * slurmctld fills it in from its association cache: the account it asked for (any case), or
     * else its user's default account ({@code -A nonexistent} runs as {@code Account=root}); and
     * the QOS it asked for if it exists, none if it does not ({@code --qos=bogus} shows
     * {@code QOS=} and sacct {@code Unknown}), else the association's default. With no
     * association at all it keeps the account it asked for and gets QOS {@code normal}.
     */
    private static JobRequest withDefaults(AccountingPolicy policy, JobRequest request, String partition) {
        String user = request.owner().userName();
        String asked = request.account() == null ? "" : request.account().toLowerCase(Locale.ROOT);
        Optional<Association> assoc =
                asked.isEmpty() ? Optional.empty() : policy.userAssociation(asked, user, partition);
        String account = asked;
        if (assoc.isEmpty()) {
            String fallback = policy.defaultAccounts().getOrDefault(user, "");
            assoc = fallback.isEmpty() ? Optional.empty() : policy.userAssociation(fallback, user, partition);
            if (assoc.isPresent()) {
                account = fallback;
            }
        }
        if (assoc.isEmpty()) {
            // No association: no account, but the cluster's "normal" QOS, as Slurm 22.05 gives.
            boolean noQos = request.qos() == null || request.qos().isEmpty();
            return noQos && policy.qos().containsKey("normal")
                    ? request.withAccounting(request.account(), "normal")
                    : request;
        }
        String askedQos = request.qos() == null ? "" : request.qos().toLowerCase(Locale.ROOT);
        String qos = askedQos.isEmpty()
                ? policy.defaultQos(assoc.get())
                : policy.qos().containsKey(askedQos) ? askedQos : "";
        return request.withAccounting(account, qos);
    }

    /** The account and QOS a job runs under once admitted. */
    public record Admitted(String account, String qos) {}

    /**
     * @param account the job's {@code --account}, empty for the user's default
     * @param qos the job's {@code --qos}, empty for the association's default
     * @param jobs the controller's jobs, for MaxSubmitJobs
     * @throws SlurmException with Slurm's error when the job is refused
     */
    public static Admitted admit(
            Enforcement enforce,
            AccountingPolicy policy,
            String user,
            String account,
            String qos,
            String partition,
            Iterable<Job> jobs) {
        String acct = account == null ? "" : account.toLowerCase(Locale.ROOT);
        String q = qos == null ? "" : qos.toLowerCase(Locale.ROOT);
        if (!enforce.associations()) {
            return new Admitted(acct, q);
        }
        if (acct.isEmpty()) {
            acct = policy.defaultAccounts().getOrDefault(user, "");
        }
        Optional<Association> found = acct.isEmpty() ? Optional.empty() : policy.userAssociation(acct, user, partition);
        if (found.isEmpty()) {
            throw new SlurmException(ErrorCode.INVALID_ACCOUNT);
        }
        Association assoc = found.get();
        if (q.isEmpty()) {
            q = policy.defaultQos(assoc);
        }
        if (enforce.qos()
                && (!policy.qos().containsKey(q) || !policy.allowedQos(assoc).contains(q))) {
            throw new SlurmException(ErrorCode.INVALID_QOS);
        }
        if (enforce.limits()) {
            LimitUsage usage = LimitUsage.of(policy, jobs);
            Limits limits = policy.effectiveLimits(assoc);
            Qos qosRecord = policy.qos().get(q);
            // A QOS's MaxSubmitJobsPerUser replaces the association's MaxSubmitJobs (compat 271).
            boolean qosSubmitCap = qosRecord != null && qosRecord.limits().maxSubmitJobs() != Limits.NONE;
            if (!qosSubmitCap
                    && limits.maxSubmitJobs() != Limits.NONE
                    && usage.association(acct, user).active() >= limits.maxSubmitJobs()) {
                throw refused(JobReason.ASSOC_MAX_SUBMIT_JOB_LIMIT);
            }
            // GrpSubmitJobs: the user association's own, then every account above it (not inherited).
            if (limits.grpSubmitJobs() != Limits.NONE
                    && usage.association(acct, user).active() >= limits.grpSubmitJobs()) {
                throw refused(JobReason.ASSOC_GRP_SUBMIT_JOBS_LIMIT);
            }
            for (Association up : policy.lineage(acct)) {
                long cap = up.limits().grpSubmitJobs();
                if (cap != Limits.NONE && usage.account(up.account()).active() >= cap) {
                    throw refused(JobReason.ASSOC_GRP_SUBMIT_JOBS_LIMIT);
                }
            }
            if (qosSubmitCap
                    && usage.qosUser(q, user).active() >= qosRecord.limits().maxSubmitJobs()) {
                throw refused(JobReason.QOS_MAX_SUBMIT_JOB_PER_USER_LIMIT);
            }
            if (qosRecord != null
                    && qosRecord.limits().grpSubmitJobs() != Limits.NONE
                    && usage.qos(q).active() >= qosRecord.limits().grpSubmitJobs()) {
                throw refused(JobReason.QOS_GRP_SUBMIT_JOBS_LIMIT);
            }
        }
        return new Admitted(acct, q);
    }

    /** Refused over a limit: sbatch prints the limit's reason as a line of its own (compat 271). */
    static SlurmException refused(JobReason why) {
        return new SlurmException(ErrorCode.ACCOUNTING_POLICY, ErrorCode.ACCOUNTING_POLICY.text(), why.slurmName());
    }
}
