/**
 * Readers for Slurm's configuration files ({@code slurm.conf}, {@code gres.conf}, {@code
 * cgroup.conf}) producing immutable, typed records, and the {@code --check-config} report.
 *
 * <p>Pipeline: {@link dev.sluice.common.conf.ConfLexer} turns text into logical lines of {@code
 * Key=Value} pairs (comments, continuations, quotes, {@code Include}); {@link
 * dev.sluice.common.conf.SlurmConfKeys} says what every key Slurm documents is and whether Sluice
 * acts on it; {@link dev.sluice.common.conf.SlurmConfReader} validates values and builds {@link
 * dev.sluice.common.conf.SlurmConf} with its nodes, partitions and node sets. Every rejection is a
 * {@link dev.sluice.common.conf.ConfigException} naming file, line and key.
 *
 * <p>File access is confined to {@link dev.sluice.common.conf.IncludeResolver#filesystem} and the
 * {@code read(Path)} entry points; everything else works on strings. No threads, no clock.
 */
package dev.sluice.common.conf;
