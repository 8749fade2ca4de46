package dev.sluice.cli.command.scontrol;

import dev.sluice.common.hostlist.HostList;
import java.util.ArrayList;
import java.util.List;

/**
 * The names {@code scontrol show node LIST} looks up, in the list's order, repeats kept (Slurm
 * 22.05 shows {@code n1,n1} twice). An item with an unclosed bracket is a name of its own, as
 * 22.05's host list makes it (observed on the oracle): the text before the bracket with a
 * {@code ]} after it ({@code bogus[1} is {@code bogus]}), or, with nothing before the bracket,
 * the text after it ({@code [abc} is {@code abc}); commas after such a bracket still separate
 * items. {@link HostList} itself rejects such lists, as other commands do.
 */
final class NodeNames {
    private NodeNames() {}

    /** @throws IllegalArgumentException for a list Slurm cannot parse either ({@code n[2-1]}) */
    static List<String> of(String list) {
        List<String> names = new ArrayList<>();
        for (String item : items(list)) {
            int open = item.lastIndexOf('[');
            if (open >= 0 && item.indexOf(']', open) < 0) {
                String before = item.substring(0, open);
                names.add(before.isEmpty() ? item.substring(open + 1) : before + "]");
            } else {
                names.addAll(HostList.expand(item));
            }
        }
        return names;
    }

    /** Split at commas outside closed brackets ({@code n[1,3],m1}); an unclosed {@code [} is text. */
    private static List<String> items(String list) {
        List<String> items = new ArrayList<>();
        StringBuilder item = new StringBuilder();
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            int close = c == '[' ? list.indexOf(']', i) : -1;
            if (close > 0) {
                item.append(list, i, close + 1);
                i = close;
            } else if (c == ',') {
                items.add(item.toString());
                item.setLength(0);
            } else {
                item.append(c);
            }
        }
        items.add(item.toString());
        return items.stream().filter(s -> !s.isEmpty()).toList();
    }
}
