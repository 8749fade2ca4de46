package dev.sluice.restd.dbv0038;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.common.tres.Tres;
import dev.sluice.protocol.v1.TresEntry;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** TRES lists in dbv0.0.38's shape: {@code {type, name, id, count}}, a nameless one's name null. */
final class Tres38 {
    /** slurmdbd's placeholder row between the fixed TRES and the GRES, which sacctmgr hides. */
    static final TresEntry DYNAMIC_OFFSET =
            TresEntry.newBuilder().setId(1000).setType("dynamic_offset").build();

    private Tres38() {}

    static ObjectNode entry(TresEntry t, Long count) {
        ObjectNode o = DbEnvelope38.F.objectNode();
        if (count == null) {
            o.putNull("count");
        } else {
            o.put("count", count);
        }
        o.put("id", t.getId());
        Assoc38.nullable(o, "name", t.getName());
        o.put("type", t.getType());
        return o;
    }

    /** {@code gres/gpu} for gres/gpu, {@code cpu} for cpu: the name Slurm's TRES strings use. */
    static String key(TresEntry t) {
        return t.getName().isEmpty() ? t.getType() : t.getType() + "/" + t.getName();
    }

    /**
     * The TRES of a string such as {@code cpu=2,mem=8000M,node=1} in id order, as slurmdbd keeps
     * them; names the database does not know are left out (slurmdbd has no id for them).
     */
    static ArrayNode list(String text, List<TresEntry> known) {
        Map<Integer, ObjectNode> byId = new TreeMap<>();
        Tres tres = text.isBlank() ? Tres.empty() : Tres.parse(text);
        for (TresEntry t : known) {
            if (tres.asMap().containsKey(key(t))) {
                byId.put(t.getId(), entry(t, tres.get(key(t))));
            }
        }
        ArrayNode out = DbEnvelope38.F.arrayNode();
        byId.values().forEach(out::add);
        return out;
    }
}
