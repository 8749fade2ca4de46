/**
 * Memory sizes as Slurm reads ({@code --mem=4G}, {@code DefMemPerCPU=2048}) and prints them ({@code
 * mem=16000M}, {@code 4G}). Pure functions over megabytes, Slurm's unit for memory.
 */
package dev.sluice.common.units;
