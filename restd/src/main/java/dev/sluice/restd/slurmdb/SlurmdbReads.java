package dev.sluice.restd.slurmdb;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.AccountedJob;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdStats;
import dev.sluice.protocol.v1.DeleteQosRequest;
import dev.sluice.protocol.v1.JobQuery;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.ListAssocResult;
import dev.sluice.protocol.v1.ListQosRequest;
import dev.sluice.protocol.v1.ListTresRequest;
import dev.sluice.protocol.v1.QosEntry;
import dev.sluice.protocol.v1.RollupTally;
import dev.sluice.protocol.v1.RpcTally;
import dev.sluice.protocol.v1.StatsRequest;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Envelope;
import dev.sluice.restd.http.Reply;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link SlurmdbApi}'s endpoints answer from sluice-dbd, besides the changes of {@link
 * AccountChanges} and {@link WckeyChanges}: ping, jobs, TRES, accounts, users, associations,
 * QOS (and its deletion), clusters, the daemon's statistics and (none) cloud instances, each asked
 * as sacct and sacctmgr ask it.
 */
final class SlurmdbReads {
    private final String cluster;
    private final SlurmdbApi.Control control;
    private final Clock clock;

    SlurmdbReads(String cluster, SlurmdbApi.Control control, Clock clock) {
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.control = requireNonNull(control, "control is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    Reply ping(AccountingSession dbd, Envelope out) throws AccountingException {
        long started = System.nanoTime();
        dbd.call(DbdRequest.newBuilder().setListTres(ListTresRequest.getDefaultInstance()));
        out.body()
                .putArray("pings")
                .addObject()
                .put("hostname", "slurmdbd")
                .put("responding", true)
                .put("latency", (System.nanoTime() - started) / 1000)
                .put("primary", true);
        return out.reply(200);
    }

    Reply jobs(AccountingSession dbd, Envelope out, JobQuery.Builder query) throws AccountingException {
        Map<String, Integer> ids = tresIds(dbd);
        List<AccountedJob> found =
                dbd.call(DbdRequest.newBuilder().setQueryJobs(query)).getJobs().getJobsList();
        long now = clock.instant().getEpochSecond();
        ArrayNode jobs = out.body().putArray("jobs");
        found.forEach(j -> jobs.add(DbJobJson.of(j, ids, now)));
        return out.reply(200);
    }

    Reply tres(AccountingSession dbd, Envelope out) throws AccountingException {
        ArrayNode list = out.body().putArray("TRES");
        for (TresEntry t : listTres(dbd)) {
            list.addObject().put("type", t.getType()).put("name", t.getName()).put("id", t.getId());
        }
        return out.reply(200);
    }

    Reply accounts(AccountingSession dbd, Envelope out, String name) throws AccountingException {
        ListAssocResult r = listAssoc(dbd, AssocEntity.ACCOUNTS, name);
        out.body().set("accounts", AssocJson.accounts(r));
        return out.reply(200);
    }

    Reply users(AccountingSession dbd, Envelope out, String name) throws AccountingException {
        ListAssocResult r = listAssoc(dbd, AssocEntity.USERS, name);
        out.body().set("users", AssocJson.users(r));
        return out.reply(200);
    }

    Reply associations(AccountingSession dbd, Envelope out, Map<String, String> q) throws AccountingException {
        ListAssocRequest.Builder req = ListAssocRequest.newBuilder().setEntity(AssocEntity.ASSOCIATIONS);
        QueryParams.list(q, "account").forEach(req::addAccounts);
        QueryParams.list(q, "user").forEach(req::addUsers);
        QueryParams.list(q, "cluster").forEach(req::addClusters);
        ListAssocResult r = dbd.call(DbdRequest.newBuilder().setListAssoc(req)).getListed();
        out.body().set("associations", AssocJson.associations(r.getAssociationsList()));
        return out.reply(200);
    }

    Reply qos(AccountingSession dbd, Envelope out, List<String> names) throws AccountingException {
        Map<String, Integer> ids = tresIds(dbd);
        List<QosEntry> found = dbd.call(DbdRequest.newBuilder()
                        .setListQos(ListQosRequest.newBuilder().addAllNames(names)))
                .getListedQos()
                .getQosList();
        out.body().set("qos", QosJson.list(found, ids));
        return out.reply(200);
    }

    /**
     * As sacctmgr delete qos, committed at once (slurmrestd asks no question). Nothing deleted is
     * a warning, as slurmrestd's "found nothing"; a refusal by the daemon deletes nothing.
     */
    Reply deleteQos(AccountingSession dbd, Envelope out, String name) throws AccountingException {
        List<String> deleted = dbd.call(DbdRequest.newBuilder()
                        .setDeleteQos(
                                DeleteQosRequest.newBuilder().addNames(name).setCommit(true)))
                .getDeleted()
                .getDeletedList();
        ArrayNode removed = out.body().putArray("removed_qos");
        deleted.forEach(removed::add);
        if (deleted.isEmpty()) {
            out.warning("slurmdb_qos_remove found nothing", "slurmdbd");
        }
        return out.reply(200);
    }

    /** As sacctmgr show cluster: the clusters, then their root associations. */
    Reply clusters(AccountingSession dbd, Envelope out, String name) throws AccountingException {
        List<String> names = name.isEmpty() ? List.of() : List.of(name);
        List<String> found = listAssoc(dbd, AssocEntity.CLUSTERS, name).getClustersList();
        List<AssociationEntry> roots = dbd.call(DbdRequest.newBuilder()
                        .setListAssoc(ListAssocRequest.newBuilder()
                                .setEntity(AssocEntity.ASSOCIATIONS)
                                .addAccounts("root")
                                .addAllClusters(names)))
                .getListed()
                .getAssociationsList();
        out.body().set("clusters", AssocJson.clusters(found, roots, cluster, control));
        return out.reply(200);
    }

    /**
     * {@code diag}: the daemon's statistics ({@code sacctmgr show stats}; a plain user's refused
     * by the daemon, 2002): the requests by type and by user, and its one rollup, which does the
     * hourly, daily and monthly sums in one cycle, as {@code hourly}.
     */
    Reply diag(AccountingSession dbd, Envelope out) throws AccountingException {
        DbdStats s = dbd.call(DbdRequest.newBuilder().setGetStats(StatsRequest.getDefaultInstance()))
                .getStats();
        ObjectNode stats = out.body().putObject("statistics");
        stats.put("time_start", s.getSince());
        ObjectNode rollups = stats.putObject("rollups");
        if (s.hasInternalRollup()) {
            RollupTally r = s.getInternalRollup();
            ObjectNode hourly = rollups.putObject("hourly");
            hourly.put("count", r.getCycles()).put("last_run", r.getLastRun());
            hourly.putObject("duration")
                    .put("last", r.getLastCycle())
                    .put("max", r.getMaxCycle())
                    .put("time", r.getTotalTime());
        }
        ArrayNode rpcs = stats.putArray("RPCs");
        s.getByTypeList().forEach(t -> tally(rpcs.addObject().put("rpc", t.getName()), t));
        ArrayNode users = stats.putArray("users");
        s.getByUserList().forEach(t -> tally(users.addObject().put("user", t.getName()), t));
        return out.reply(200);
    }

    private static void tally(ObjectNode o, RpcTally t) {
        o.put("count", t.getCount());
        o.putObject("time")
                .put("average", t.getCount() == 0 ? 0 : t.getTotalMicros() / t.getCount())
                .put("total", t.getTotalMicros());
    }

    /**
     * {@code instances} and {@code instance}: the cloud instances slurmdbd records for nodes;
     * sluice-dbd records none, so the list is empty, with slurmrestd's warning for a query that
     * found nothing.
     */
    static Reply instances(Envelope out) {
        out.body().putArray("instances");
        out.warning("slurmdb_instances_get() found nothing", "_dump_instance_cond");
        return out.reply(200);
    }

    private static ListAssocResult listAssoc(AccountingSession dbd, AssocEntity entity, String name)
            throws AccountingException {
        ListAssocRequest.Builder req = ListAssocRequest.newBuilder().setEntity(entity);
        if (!name.isEmpty()) {
            req.addNames(name);
        }
        return dbd.call(DbdRequest.newBuilder().setListAssoc(req)).getListed();
    }

    private static List<TresEntry> listTres(AccountingSession dbd) throws AccountingException {
        return dbd.call(DbdRequest.newBuilder().setListTres(ListTresRequest.getDefaultInstance()))
                .getListedTres()
                .getTresList();
    }

    private static Map<String, Integer> tresIds(AccountingSession dbd) throws AccountingException {
        Map<String, Integer> ids = new HashMap<>();
        for (TresEntry t : listTres(dbd)) {
            ids.put(t.getName().isEmpty() ? t.getType() : t.getType() + "/" + t.getName(), t.getId());
        }
        return ids;
    }
}
