package dev.sluice.ctld.sched;

import dev.sluice.ctld.select.NodeCapacity;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * A capacity map derived from another, node by node as read: same nodes, same order, each
 * node's capacity worked out by {@link #get}. The timeline's views of a later time and of
 * reserved resources are such maps; read-only to their users.
 */
abstract class DerivedCapacity extends AbstractMap<String, NodeCapacity> {
    /** The map this one derives from: its nodes and their order. */
    protected final Map<String, NodeCapacity> under;

    DerivedCapacity(Map<String, NodeCapacity> under) {
        this.under = under;
    }

    @Override
    public abstract NodeCapacity get(Object key);

    @Override
    public boolean containsKey(Object key) {
        return under.containsKey(key);
    }

    @Override
    public int size() {
        return under.size();
    }

    @Override
    public Set<Entry<String, NodeCapacity>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, NodeCapacity>> iterator() {
                Iterator<String> names = under.keySet().iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return names.hasNext();
                    }

                    @Override
                    public Entry<String, NodeCapacity> next() {
                        String name = names.next();
                        return new SimpleImmutableEntry<>(name, get(name));
                    }
                };
            }

            @Override
            public int size() {
                return under.size();
            }
        };
    }
}
