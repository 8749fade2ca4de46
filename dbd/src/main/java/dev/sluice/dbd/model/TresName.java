package dev.sluice.dbd.model;

/**
 * A TRES name split as Slurm's tres table keeps it: {@code gres/gpu} is type {@code gres}, name
 * {@code gpu}; {@code cpu} is type {@code cpu}, empty name.
 */
public record TresName(String type, String name) {
    public static TresName parse(String full) {
        int slash = full.indexOf('/');
        return slash < 0 ? new TresName(full, "") : new TresName(full.substring(0, slash), full.substring(slash + 1));
    }

    public String full() {
        return name.isEmpty() ? type : type + "/" + name;
    }
}
