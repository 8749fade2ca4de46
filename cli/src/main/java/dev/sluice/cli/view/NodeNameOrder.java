package dev.sluice.cli.view;

import java.util.Comparator;

/**
 * Node names in the order Slurm lists them: by the text before the trailing number, then by
 * that number ({@code n2} before {@code n10}), then by the raw name.
 */
public final class NodeNameOrder {
    public static final Comparator<String> NATURAL = Comparator.comparing(NodeNameOrder::prefix)
            .thenComparingLong(NodeNameOrder::number)
            .thenComparing(Comparator.naturalOrder());

    private NodeNameOrder() {}

    private static int digitsStart(String name) {
        int i = name.length();
        while (i > 0 && Character.isDigit(name.charAt(i - 1)) && name.length() - i < 18) {
            i--;
        }
        return i;
    }

    private static String prefix(String name) {
        return name.substring(0, digitsStart(name));
    }

    private static long number(String name) {
        int i = digitsStart(name);
        return i == name.length() ? -1 : Long.parseLong(name.substring(i));
    }
}
