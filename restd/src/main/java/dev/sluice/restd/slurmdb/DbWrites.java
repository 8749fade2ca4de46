package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.AccountEntry;
import dev.sluice.protocol.v1.AssocEntity;
import dev.sluice.protocol.v1.AssociationEntry;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.DeleteAssocRequest;
import dev.sluice.protocol.v1.ListAssocRequest;
import dev.sluice.protocol.v1.UserEntry;
import dev.sluice.restd.controller.AccountingSession;
import dev.sluice.restd.http.Envelope;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What every accounting write of slurmrestd shares, in each data parser version: a body read
 * whole before sluice-dbd is asked; every change tried without committing, then, when none was
 * refused, every one committed, so a refused request (a plain user's: 2002 from the daemon)
 * changes nothing; and a field Sluice does not apply, holding a value, refused by name rather
 * than dropped.
 */
public final class DbWrites {
    /** A body that does not read as the request's schema, or names a field or value not applied. */
    public static final class BadBody extends Exception {
        public BadBody(String message) {
            super(message);
        }
    }

    private DbWrites() {}

    /** Every change tried, then every one committed; the daemon's first refusal ends it unchanged. */
    public static void tryThenCommit(AccountingSession dbd, List<DbdRequest.Builder> changes)
            throws AccountingException {
        for (boolean commit : new boolean[] {false, true}) {
            for (DbdRequest.Builder change : changes) {
                dbd.call(withCommit(change.clone(), commit));
            }
        }
    }

    /** {@code r}, a change, committed or only tried. */
    public static DbdRequest.Builder withCommit(DbdRequest.Builder r, boolean commit) {
        switch (r.getBodyCase()) {
            case ADD_ACCOUNTS -> r.getAddAccountsBuilder().setCommit(commit);
            case ADD_USERS -> r.getAddUsersBuilder().setCommit(commit);
            case ADD_CLUSTERS -> r.getAddClustersBuilder().setCommit(commit);
            case MODIFY_ASSOC -> r.getModifyAssocBuilder().setCommit(commit);
            case ADD_QOS -> r.getAddQosBuilder().setCommit(commit);
            case MODIFY_QOS -> r.getModifyQosBuilder().setCommit(commit);
            case DELETE_ASSOC -> r.getDeleteAssocBuilder().setCommit(commit);
            case DELETE_QOS -> r.getDeleteQosBuilder().setCommit(commit);
            default -> throw new IllegalStateException("not a change: " + r.getBodyCase());
        }
        return r;
    }

    /** The first field of {@code o} not in {@code applied} that holds a value; empty when none does. */
    public static Optional<String> unapplied(JsonNode o, Set<String> applied) {
        for (var fields = o.fields(); fields.hasNext(); ) {
            var f = fields.next();
            if (!applied.contains(f.getKey()) && !empty(f.getValue())) {
                return Optional.of(f.getKey());
            }
        }
        return Optional.empty();
    }

    /**
     * No value: null, an empty string, a container of nothing but such, or a number of the newer
     * parsers that is not set ({@code {"set": false}}).
     */
    public static boolean empty(JsonNode v) {
        if (v.isNull() || v.isMissingNode() || (v.isTextual() && v.asText().isEmpty())) {
            return true;
        }
        if (v.isObject() && v.path("set").isBoolean() && !v.path("set").asBoolean()) {
            return !v.path("infinite").asBoolean(false);
        }
        if (v.isContainerNode()) {
            for (JsonNode child : v) {
                if (!empty(child)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** The body's list under {@code field}, each entry an object. */
    static List<JsonNode> list(Optional<JsonNode> body, String field) throws BadBody {
        JsonNode list = body.map(b -> b.path(field)).orElseThrow(() -> new BadBody("no " + field + " given"));
        if (!list.isArray()) {
            throw new BadBody(field + " must be a list");
        }
        List<JsonNode> items = new ArrayList<>();
        for (JsonNode item : list) {
            if (!item.isObject()) {
                throw new BadBody("each of " + field + " must be an object");
            }
            items.add(item);
        }
        return items;
    }

    /** Refuses the first field of {@code o} holding a value that is not applied, naming it. */
    static void onlyApplied(JsonNode o, Set<String> applied, String where) throws BadBody {
        Optional<String> field = unapplied(o, applied);
        if (field.isPresent()) {
            throw new BadBody("sluice-restd does not apply field '" + where + field.get() + "'");
        }
    }

    /** A string field; absent or null: empty; anything but a string is refused. */
    static Optional<String> text(JsonNode o, String field) throws BadBody {
        JsonNode v = o.path(field);
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            throw new BadBody(field + " must be a string");
        }
        return Optional.of(v.asText().strip());
    }

    /** A list of strings (or one string, as the newer parsers take it); absent: none. */
    static List<String> strings(JsonNode o, String field) throws BadBody {
        JsonNode v = o.path(field);
        List<String> out = new ArrayList<>();
        if (v.isMissingNode() || v.isNull()) {
            return out;
        }
        if (v.isTextual()) {
            out.add(v.asText().strip());
            return out;
        }
        if (!v.isArray()) {
            throw new BadBody(field + " must be a list of strings");
        }
        for (JsonNode s : v) {
            if (!s.isTextual()) {
                throw new BadBody(field + " must be a list of strings");
            }
            out.add(s.asText().strip());
        }
        return out;
    }

    /**
     * A count of the newer parsers: a whole number or {@code {"set", "infinite", "number"}}.
     * Empty when not given (absent or not set); {@link #INFINITE} for no limit.
     */
    static Optional<Long> count(JsonNode v, String path) throws BadBody {
        if (v.isMissingNode() || v.isNull()) {
            return Optional.empty();
        }
        if (v.isObject()) {
            if (v.path("infinite").asBoolean(false)) {
                return Optional.of(INFINITE);
            }
            if (v.has("set") && !v.path("set").asBoolean()) {
                return Optional.empty();
            }
            v = v.path("number");
        }
        if (!v.isIntegralNumber() || v.asLong() < 0 || v.asLong() >= INFINITE) {
            throw new BadBody(path + " must be a whole number, 0 or more");
        }
        return Optional.of(v.asLong());
    }

    /** {@link #count}'s "no limit" (the newer parsers' {@code infinite}). */
    static final long INFINITE = 1L << 32;

    /** slurmdbd's name of a removed association: {@code C = anchor     A = r156       U = alice}. */
    public static String named(AssociationEntry a) {
        String name = String.format("C = %-10s A = %-10s", a.getCluster(), a.getAccount());
        if (!a.getUser().isEmpty()) {
            name += String.format(" U = %-9s", a.getUser());
        }
        return name;
    }

    /**
     * Refuses, by its path, the first leaf of {@code o} holding a value that is neither read
     * ({@code read}: paths such as {@code max/jobs/active}) nor one of {@code others}.
     */
    static void refuseUnapplied(JsonNode o, String prefix, Set<String> read, Set<String> others, String where)
            throws BadBody {
        for (var fields = o.fields(); fields.hasNext(); ) {
            var f = fields.next();
            String path = prefix + f.getKey();
            JsonNode v = f.getValue();
            if (read.contains(path) || others.contains(path) || empty(v)) {
                continue;
            }
            boolean number = v.has("set") || v.has("number") || v.has("infinite");
            if (v.isObject() && !number) {
                refuseUnapplied(v, path + "/", read, others, where);
                continue;
            }
            throw new BadBody("sluice-restd does not apply field '" + where + path + "'");
        }
    }

    /** Which of {@code names} sluice-dbd has as accounts or users. */
    public static Set<String> existing(AccountingSession dbd, AssocEntity entity, List<String> names)
            throws AccountingException {
        var listed = dbd.call(DbdRequest.newBuilder()
                        .setListAssoc(
                                ListAssocRequest.newBuilder().setEntity(entity).addAllNames(names)))
                .getListed();
        return entity == AssocEntity.ACCOUNTS
                ? listed.getAccountsList().stream().map(AccountEntry::getName).collect(Collectors.toSet())
                : listed.getUsersList().stream().map(UserEntry::getName).collect(Collectors.toSet());
    }

    /**
     * An account or user deleted, as {@code sacctmgr -i delete} deletes it: committed at once (the
     * daemon refuses a plain user, 2002, and deletes nothing); none deleted is slurmrestd's warning.
     */
    static List<String> deleteNamed(AccountingSession dbd, Envelope out, AssocEntity entity, String name, String call)
            throws AccountingException {
        List<String> gone = dbd.call(DbdRequest.newBuilder()
                        .setDeleteAssoc(DeleteAssocRequest.newBuilder()
                                .setEntity(entity)
                                .addNames(name)
                                .setCommit(true)))
                .getDeleted()
                .getDeletedList();
        if (gone.isEmpty()) {
            out.warning(call + "() found nothing", "slurmdbd");
        }
        return gone;
    }
}
