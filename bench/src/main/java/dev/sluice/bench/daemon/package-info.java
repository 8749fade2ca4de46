/**
 * What the process-level benchmarks ({@code scripts/bench-ctld}, {@code scripts/bench-dbd})
 * share: their command-line options ({@link dev.sluice.bench.daemon.BenchArgs}), and how they
 * start a real daemon as a child process, wait for the ports it reports and measure its CPU
 * ({@link dev.sluice.bench.daemon.ChildDaemon}, {@link dev.sluice.bench.daemon.DaemonCommands}).
 */
package dev.sluice.bench.daemon;
