/**
 * The daemons' side of systemd's service protocol: readiness and stopping notifications
 * ({@code sd_notify}) for {@code Type=notify} units.
 */
package dev.sluice.common.systemd;
