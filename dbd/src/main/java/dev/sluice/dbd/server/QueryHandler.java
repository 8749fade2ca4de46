package dev.sluice.dbd.server;

import static java.util.Objects.requireNonNull;

import dev.sluice.common.error.ErrorCode;
import dev.sluice.common.slurm.DbdMessageType;
import dev.sluice.common.text.ControlCharacters;
import dev.sluice.dbd.model.RpcStatistics;
import dev.sluice.dbd.store.AssociationEdits;
import dev.sluice.dbd.store.AssociationStore;
import dev.sluice.dbd.store.JobEdits;
import dev.sluice.dbd.store.JobQueries;
import dev.sluice.dbd.store.QosStore;
import dev.sluice.dbd.store.TresStore;
import dev.sluice.dbd.store.UsageQueries;
import dev.sluice.dbd.store.WckeyStore;
import dev.sluice.protocol.Frames;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DbdResponse;
import dev.sluice.protocol.v1.Identity;
import dev.sluice.protocol.v1.JobQueryResult;
import dev.sluice.protocol.v1.SlurmError;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Answers the user commands' requests (sacct, sacctmgr, sreport). One request in, one response out. */
final class QueryHandler {
    private static final Logger log = LoggerFactory.getLogger(QueryHandler.class);

    private final JobQueries queries;
    private final AssociationStore associations;
    private final AssociationEdits edits;
    private final QosStore qos;
    private final UsageQueries usage;
    private final TresStore tres;
    private final WckeyStore wckeys;
    private final JobEdits jobEdits;
    private final Set<Long> operators;
    private final PolicyChanges changed;
    private final Statistics stats;

    /** @param operators uids that may change associations (root and the daemon's own user, its SlurmUser) */
    QueryHandler(
            JobQueries queries,
            AssociationStore associations,
            AssociationEdits edits,
            QosStore qos,
            UsageQueries usage,
            TresStore tres,
            WckeyStore wckeys,
            JobEdits jobEdits,
            Set<Long> operators,
            PolicyChanges changed,
            Statistics stats) {
        this.queries = requireNonNull(queries, "queries is null");
        this.associations = requireNonNull(associations, "associations is null");
        this.edits = requireNonNull(edits, "edits is null");
        this.qos = requireNonNull(qos, "qos is null");
        this.usage = requireNonNull(usage, "usage is null");
        this.tres = requireNonNull(tres, "tres is null");
        this.wckeys = requireNonNull(wckeys, "wckeys is null");
        this.jobEdits = requireNonNull(jobEdits, "jobEdits is null");
        this.operators = Set.copyOf(operators);
        this.changed = requireNonNull(changed, "changed is null");
        this.stats = requireNonNull(stats, "stats is null");
    }

    /** Answers, then counts the request under its slurmdbd type and its caller (even a refused one, as slurmdbd does). */
    DbdResponse handle(DbdRequest request) {
        long started = System.nanoTime();
        DbdResponse answer = answer(request);
        DbdMessageType type = RpcTypes.of(request);
        if (type != null) {
            Identity who = request.getIdentity();
            stats.count(
                    new RpcStatistics.Key(type.name(), type.number()),
                    new RpcStatistics.Key(who.getUserName(), Integer.toUnsignedLong(who.getUid())),
                    (System.nanoTime() - started) / 1000);
        }
        return answer;
    }

    private DbdResponse answer(DbdRequest request) {
        DbdResponse.Builder out = DbdResponse.newBuilder()
                .setProtocolVersion(Frames.PROTOCOL_VERSION)
                .setRequestId(request.getRequestId());
        if (request.getProtocolVersion() != Frames.PROTOCOL_VERSION) {
            return out.setError(error(ErrorCode.PROTOCOL_VERSION_ERROR, ErrorCode.PROTOCOL_VERSION_ERROR.text()))
                    .build();
        }
        boolean changes = switch (request.getBodyCase()) {
            case ADD_ACCOUNTS,
                    ADD_USERS,
                    ADD_CLUSTERS,
                    DELETE_ASSOC,
                    MODIFY_ASSOC,
                    ADD_QOS,
                    MODIFY_QOS,
                    DELETE_QOS,
                    CLEAR_STATS -> true;
            default -> false;
        };
        // slurmdbd shows its statistics and the wckeys to operators only (RC 2002 to a plain user).
        boolean operatorsOnly = changes
                || request.getBodyCase() == DbdRequest.BodyCase.GET_STATS
                || request.getBodyCase() == DbdRequest.BodyCase.LIST_WCKEYS;
        if (operatorsOnly
                && !operators.contains(
                        Integer.toUnsignedLong(request.getIdentity().getUid()))) {
            return out.setError(error(ErrorCode.ACCESS_DENIED, ErrorCode.ACCESS_DENIED.text()))
                    .build();
        }
        long uid = Integer.toUnsignedLong(request.getIdentity().getUid());
        try {
            // A job's comments are shown by sacct to every user, as the names below.
            if (changes || request.getBodyCase() == DbdRequest.BodyCase.MODIFY_JOBS) {
                // Names, descriptions and organizations are shown to every user by sacctmgr,
                // sacct and squeue: no control character may forge lines there.
                refuseControlCharacters(request);
            }
            switch (request.getBodyCase()) {
                case QUERY_JOBS ->
                    out.setJobs(JobQueryResult.newBuilder()
                            .addAllJobs(queries.find(request.getQueryJobs()))
                            .build());
                case ADD_ACCOUNTS -> out.setAdded(associations.addAccounts(request.getAddAccounts()));
                case ADD_USERS -> out.setAdded(associations.addUsers(request.getAddUsers()));
                case ADD_CLUSTERS -> out.setAdded(associations.addClusters(request.getAddClusters()));
                case LIST_ASSOC -> out.setListed(associations.list(request.getListAssoc()));
                case DELETE_ASSOC -> out.setDeleted(associations.delete(request.getDeleteAssoc()));
                case MODIFY_ASSOC -> out.setModified(edits.modify(request.getModifyAssoc()));
                case ADD_QOS -> out.setAdded(qos.add(request.getAddQos()));
                case MODIFY_QOS -> out.setModified(qos.modify(request.getModifyQos()));
                case LIST_QOS -> out.setListedQos(qos.list(request.getListQos()));
                case DELETE_QOS -> out.setDeleted(qos.delete(request.getDeleteQos()));
                case QUERY_USAGE -> out.setUsage(usage.report(request.getQueryUsage()));
                case QUERY_RESERVATIONS ->
                    out.setReservations(usage.reservations(
                            request.getQueryReservations(),
                            java.time.Instant.now().getEpochSecond()));
                case LIST_TRES -> out.setListedTres(tres.list(request.getListTres()));
                case LIST_WCKEYS -> out.setListedWckeys(wckeys.list(request.getListWckeys()));
                // Not operators only: a job's owner changes its own record (jobEdits decides).
                case MODIFY_JOBS ->
                    out.setModified(jobEdits.modify(
                            request.getModifyJobs(), new JobEdits.Caller(uid, operators.contains(uid))));
                case GET_STATS -> out.setStats(StatsWire.of(stats.read(), stats.now()));
                // The clear itself is the first request counted after it (as slurmdbd counts it).
                case CLEAR_STATS -> stats.clear();
                case BODY_NOT_SET -> out.setError(error(ErrorCode.INVALID_ARGUMENT, "empty request"));
            }
            // Held controller asks wake (a preview rolled back, but a spurious wake costs one read).
            if (changes && !out.hasError() && request.getBodyCase() != DbdRequest.BodyCase.CLEAR_STATS) {
                changed.changed();
            }
        } catch (JobEdits.Denied e) {
            out.setError(error(ErrorCode.ACCESS_DENIED, ErrorCode.ACCESS_DENIED.text()));
        } catch (IllegalArgumentException e) {
            // A refusal in the command's own words (sacctmgr prints it as is).
            out.setError(error(ErrorCode.INVALID_ARGUMENT, e.getMessage()));
        } catch (SQLException | RuntimeException e) {
            log.warn("query failed: {}", e.toString());
            out.setError(error(ErrorCode.UNEXPECTED, "accounting database: " + e.getMessage()));
        }
        return out.build();
    }

    /** The first text field, at any depth, holding a control character: refused with its name. */
    private static void refuseControlCharacters(com.google.protobuf.Message message) {
        for (var e : message.getAllFields().entrySet()) {
            var field = e.getKey();
            List<?> values = field.isRepeated() ? (List<?>) e.getValue() : List.of(e.getValue());
            for (Object v : values) {
                if (v instanceof String text) {
                    ControlCharacters.refusal(field.getName(), text).ifPresent(why -> {
                        throw new IllegalArgumentException(why);
                    });
                } else if (v instanceof com.google.protobuf.Message nested) {
                    refuseControlCharacters(nested);
                }
            }
        }
    }

    private static SlurmError error(ErrorCode code, String message) {
        return SlurmError.newBuilder()
                .setCode(code.number())
                .setMessage(message)
                .build();
    }
}
