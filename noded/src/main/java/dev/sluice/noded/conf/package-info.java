/**
 * Where this node daemon's configuration comes from: {@code slurm.conf} on disk, or configless
 * from the controller ({@code --conf-server}) with a cache in the spool directory so the daemon
 * restarts while the controller is away.
 */
package dev.sluice.noded.conf;
