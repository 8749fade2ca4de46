/**
 * Slurm's {@code -o} format strings ({@code "%.18i %.9P %20j %R"}) and column rendering, shared by
 * squeue and sinfo, and print_fields' table layout ({@link dev.sluice.cli.format.FieldTable}) of
 * sacct, sacctmgr and sreport. Pure: takes strings, returns strings; what each letter means belongs to the
 * command that owns the letter.
 */
package dev.sluice.cli.format;
