/**
 * The daemons' logging: one framework (slf4j, written by logback; gRPC's java.util.logging and
 * the JDK's System.Logger, which writes through java.util.logging, routed into it, {@link dev.sluice.common.log.DaemonLogging}), one line
 * format (slurmctld's, referenced from {@code logback.xml}: timestamps on a terminal, a
 * {@code <N>} priority under systemd's journal), and {@link dev.sluice.common.log.QuietLog}, the
 * one short, rate-limited line a refused or junk connection is worth.
 */
package dev.sluice.common.log;
