/**
 * Job confinement with Linux cgroups, as Slurm's task/cgroup and proctrack/cgroup plugins do it:
 * a cgroup per job with its memory limit, its CPU set and the GRES device files it was not
 * allocated denied, on cgroup v1 ({@link dev.sluice.noded.confine.CgroupV1}) or v2
 * ({@link dev.sluice.noded.confine.CgroupV2}, devices through an eBPF program). What to confine
 * ({@link dev.sluice.noded.confine.ConfinementPolicy}), the device rules and the eBPF program
 * are pure; the backends only write files and make the two bpf(2) calls.
 */
package dev.sluice.noded.confine;
