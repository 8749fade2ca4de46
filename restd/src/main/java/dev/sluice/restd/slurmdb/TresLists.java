package dev.sluice.restd.slurmdb;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.cli.command.sacct.AccountingClient.AccountingException;
import dev.sluice.protocol.v1.DbdRequest;
import dev.sluice.protocol.v1.ListTresRequest;
import dev.sluice.protocol.v1.TresEntry;
import dev.sluice.restd.controller.AccountingSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A TRES limit of the newer data parsers ({@code [{"type": "gres", "name": "gpu", "count": 2}]})
 * as sluice-dbd keeps it ({@code gres/gpu=2}): each TRES one the database knows, else refused
 * with slurmrestd's words; for QOS and association limits alike.
 */
final class TresLists {
    private TresLists() {}

    /** The TRES the database knows. */
    static List<TresEntry> known(AccountingSession dbd) throws AccountingException {
        return dbd.call(DbdRequest.newBuilder().setListTres(ListTresRequest.getDefaultInstance()))
                .getListedTres()
                .getTresList();
    }

    /** Empty when no TRES is given (absent, null, an empty list). */
    static Optional<String> text(JsonNode list, String path, List<TresEntry> known) throws DbWrites.BadBody {
        if (list.isMissingNode() || list.isNull() || (list.isArray() && list.isEmpty())) {
            return Optional.empty();
        }
        if (!list.isArray()) {
            throw new DbWrites.BadBody(path + " must be a list of TRES");
        }
        List<String> items = new ArrayList<>();
        for (JsonNode item : list) {
            String type = item.path("type").asText("");
            String name = item.path("name").isTextual() ? item.path("name").asText() : "";
            JsonNode count = item.path("count");
            if (!count.isIntegralNumber()) {
                throw new DbWrites.BadBody(path + " needs each TRES's count");
            }
            TresEntry t = known.stream()
                    .filter(e ->
                            e.getType().equalsIgnoreCase(type) && e.getName().equalsIgnoreCase(name))
                    .findFirst()
                    .orElseThrow(() -> new DbWrites.BadBody("Couldn't find TRES matching name:"
                            + (name.isEmpty() ? "(null)" : name) + " type:" + type + " in " + path));
            String key = t.getName().isEmpty() ? t.getType() : t.getType() + "/" + t.getName();
            items.add(key + "=" + count.asLong());
        }
        return Optional.of(String.join(",", items));
    }
}
