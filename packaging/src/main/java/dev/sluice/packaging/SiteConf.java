package dev.sluice.packaging;

import dev.sluice.common.hostlist.HostList;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./sluice up --slurm-conf FILE}: a site's slurm.conf made to run on this one host. Only
 * what cannot be true here changes — the controller's address, each node's address (node names,
 * CPUs, GRES and every other key stay), the accounting daemon's address — and the daemons
 * listen on 127.0.0.1 only, as {@code ./sluice up}'s own cluster does. The site's ports go: the
 * daemons here start on port 0, and {@link LocalClusterFiles#stampPorts} writes in the ones the
 * controller and sluice-dbd bound; each node daemon registers its own. Pure: text in, text out.
 */
final class SiteConf {
    private SiteConf() {}

    /**
     * @param slurmConf the rewritten file
     * @param nodes every configured node, in the file's order: one local node daemon each
     * @param accounting whether the file sends accounting to a slurmdbd (one is started)
     */
    record Rewritten(String slurmConf, List<String> nodes, boolean accounting) {}

    static Rewritten rewrite(String text) {
        List<String> out = new ArrayList<>();
        List<String> nodes = new ArrayList<>();
        boolean accounting = false;
        boolean controller = false;
        boolean communication = false;
        for (String line : text.split("\n", -1)) {
            String body = stripComment(line).strip();
            String key = body.contains("=")
                    ? body.substring(0, body.indexOf('=')).strip().toLowerCase(Locale.ROOT)
                    : "";
            String value =
                    body.contains("=") ? body.substring(body.indexOf('=') + 1).strip() : "";
            switch (key) {
                case "slurmctldhost", "controlmachine" -> {
                    // One host: the first controller stays (under its own name), backups go.
                    if (!controller) {
                        String name = value.contains("(") ? value.substring(0, value.indexOf('(')) : value;
                        out.add("SlurmctldHost=" + name + "(127.0.0.1)");
                        controller = true;
                    }
                }
                case "controladdr",
                        "backupcontroller",
                        "backupaddr",
                        "slurmctldport",
                        "accountingstoragehost",
                        "accountingstorageport" -> {
                    // Replaced below or by the line above.
                }
                case "accountingstoragetype" -> {
                    accounting = value.equalsIgnoreCase("accounting_storage/slurmdbd");
                    out.add(line);
                }
                case "communicationparameters" -> {
                    communication = true;
                    out.add(line.strip()
                            + (value.toLowerCase(Locale.ROOT).contains("noctldinaddrany")
                                    ? ""
                                    : ",NoCtldInAddrAny,NoInAddrAny"));
                }
                case "nodename" -> out.add(node(body, nodes));
                default -> out.add(line);
            }
        }
        while (!out.isEmpty() && out.getLast().isEmpty()) {
            out.removeLast();
        }
        out.add("# Added by `sluice up --slurm-conf`: every daemon on this host, on loopback only;");
        out.add("# the ports follow once their daemons have bound them.");
        if (!communication) {
            out.add("CommunicationParameters=NoCtldInAddrAny,NoInAddrAny");
        }
        if (accounting) {
            out.add("AccountingStorageHost=127.0.0.1");
        }
        return new Rewritten(String.join("\n", out) + "\n", List.copyOf(nodes), accounting);
    }

    /** A NodeName line with this host's address and no port: its daemon registers the one it bound. */
    private static String node(String body, List<String> nodes) {
        List<String> words = words(body);
        String names = words.getFirst().substring(words.getFirst().indexOf('=') + 1);
        if (names.equalsIgnoreCase("DEFAULT")) {
            return body;
        }
        nodes.addAll(HostList.expand(names));
        StringBuilder s = new StringBuilder(words.getFirst());
        for (String w : words.subList(1, words.size())) {
            String k = w.contains("=") ? w.substring(0, w.indexOf('=')).toLowerCase(Locale.ROOT) : w;
            if (!k.equals("nodeaddr") && !k.equals("nodehostname") && !k.equals("port")) {
                s.append(' ').append(w);
            }
        }
        s.append(" NodeHostname=localhost NodeAddr=127.0.0.1");
        return s.toString();
    }

    /** Words split at blanks, a double-quoted value kept whole. */
    private static List<String> words(String body) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean quoted = false;
        for (char c : body.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            }
            if (!quoted && Character.isWhitespace(c)) {
                if (!w.isEmpty()) {
                    words.add(w.toString());
                    w.setLength(0);
                }
            } else {
                w.append(c);
            }
        }
        if (!w.isEmpty()) {
            words.add(w.toString());
        }
        return words;
    }

    private static String stripComment(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }
}
