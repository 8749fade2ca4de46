/**
 * Log layout helpers referenced from {@code logback.xml}: the daemons log to standard error,
 * with timestamps on a terminal and without them under systemd's journal (which stamps lines
 * itself and reads a {@code <N>} priority prefix).
 */
package dev.sluice.common.log;
