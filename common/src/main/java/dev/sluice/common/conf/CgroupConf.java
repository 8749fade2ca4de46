package dev.sluice.common.conf;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A checked {@code cgroup.conf} (cgroup.conf(5)) with Slurm's defaults for the keys noded acts on;
 * {@link #value} answers any other key as written.
 */
public final class CgroupConf {

    private final Map<String, String> values;

    CgroupConf(Map<String, String> values) {
        Map<String, String> v = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        v.putAll(values);
        this.values = Collections.unmodifiableMap(v);
    }

    /** Defaults only, for a cluster without {@code cgroup.conf}. */
    public static CgroupConf defaults() {
        return new CgroupConf(Map.of());
    }

    public Optional<String> value(String key) {
        return Optional.ofNullable(values.get(key));
    }

    private boolean bool(String key) {
        String v = values.get(key);
        return v != null
                && (v.equalsIgnoreCase("yes")
                        || v.equalsIgnoreCase("true")
                        || v.equals("1")
                        || v.equalsIgnoreCase("up"));
    }

    private double percent(String key, double dflt) {
        String v = values.get(key);
        return v == null ? dflt : Double.parseDouble(v.strip());
    }

    /** {@code CgroupPlugin}: {@code autodetect} (default), {@code cgroup/v1} or {@code cgroup/v2}. */
    public String cgroupPlugin() {
        return values.getOrDefault("CgroupPlugin", "autodetect");
    }

    public String cgroupMountpoint() {
        return values.getOrDefault("CgroupMountpoint", "/sys/fs/cgroup");
    }

    public boolean constrainCores() {
        return bool("ConstrainCores");
    }

    public boolean constrainDevices() {
        return bool("ConstrainDevices");
    }

    public boolean constrainRamSpace() {
        return bool("ConstrainRAMSpace");
    }

    public boolean constrainSwapSpace() {
        return bool("ConstrainSwapSpace");
    }

    /** Percent of the job's memory request allowed (default 100). */
    public double allowedRamSpacePercent() {
        return percent("AllowedRAMSpace", 100);
    }

    /** Percent of the job's memory request allowed as extra swap (default 0). */
    public double allowedSwapSpacePercent() {
        return percent("AllowedSwapSpace", 0);
    }

    public double maxRamPercent() {
        return percent("MaxRAMPercent", 100);
    }

    public double maxSwapPercent() {
        return percent("MaxSwapPercent", 100);
    }

    /** MB (default 30). */
    public long minRamSpaceMb() {
        String v = values.get("MinRAMSpace");
        return v == null ? 30 : Long.parseLong(v.strip());
    }

    public boolean ignoreSystemd() {
        return bool("IgnoreSystemd");
    }

    public boolean enableControllers() {
        return bool("EnableControllers");
    }
}
