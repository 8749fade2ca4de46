/**
 * Slurm's duration and timestamp text: time limits ({@code 1-02:03:04}, {@code UNLIMITED}), elapsed
 * times as {@code squeue} prints them, and {@code 2026-11-29T08:30:00} timestamps. Pure functions:
 * the caller supplies every instant and zone; nothing here reads the clock.
 */
package dev.sluice.common.time;
