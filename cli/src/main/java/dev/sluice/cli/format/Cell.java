package dev.sluice.cli.format;

/**
 * Fits one value into a column the way Slurm's print functions do: pad to the width (on the
 * left when right-justified), and cut values that are too long when the field is one Slurm
 * cuts. Slurm cuts most strings ({@code bigone} in {@code %.5j} prints {@code bigon}) but not
 * durations or node lists, whose truncation would lie about the value.
 */
public final class Cell {
    private Cell() {}

    public static String fit(String value, int width, boolean rightJustify, boolean cut) {
        if (width <= 0) {
            return value;
        }
        if (value.length() >= width) {
            return cut ? value.substring(0, width) : value;
        }
        String pad = " ".repeat(width - value.length());
        return rightJustify ? pad + value : value + pad;
    }
}
