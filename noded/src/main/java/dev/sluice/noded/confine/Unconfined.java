package dev.sluice.noded.confine;

import java.nio.file.Path;
import java.util.List;

/** No cgroups on this node (none writable, or cgroup.conf turned them off): jobs run as they are. */
public record Unconfined(String why) implements Confinement {
    @Override
    public String describe() {
        return why;
    }

    @Override
    public boolean confines() {
        return false;
    }

    @Override
    public List<Path> create(JobLimits limits) {
        return List.of();
    }

    @Override
    public List<Path> existing(int jobId) {
        return List.of();
    }

    @Override
    public boolean oomKilled(int jobId) {
        return false;
    }

    @Override
    public void remove(int jobId) {}

    @Override
    public List<Path> createStep(int jobId, String step, List<DeviceFile> denied) {
        return List.of();
    }

    @Override
    public void removeStep(int jobId, String step) {}
}
