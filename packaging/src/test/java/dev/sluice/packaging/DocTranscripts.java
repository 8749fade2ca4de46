package dev.sluice.packaging;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The terminal transcripts of a Markdown page: indented code blocks (four spaces) whose first
 * line is a {@code $ command}, each command followed by the lines it prints. A command may span
 * lines as a shell reads them: a here-document ({@code cat >> f <<'END'}) runs to its
 * {@code END} line, a line ending in a backslash goes on in the next.
 *
 * <p>Which cluster a block runs on is said by its first command, as a reader takes it: {@code
 * ./sluice up ARGS} starts one with those arguments, {@code source .sluice/sluice.env} alone a
 * default {@code ./sluice up} (two nodes, node1 and node2); any other first command goes on in
 * the cluster of the block before it on the page (its jobs and reservations still there, its job
 * numbers going on).
 *
 * <p>Where timing decides a number the page shows (how long a job was suspended, CPU-seconds
 * used), a comment the reader does not see, on the line before the block's blank line, says
 * where: {@code <!-- example: numbers vary in REGEX -->}, the digits of the text REGEX matches
 * (in any line of the block) not compared, nor how many blanks pad them.
 */
final class DocTranscripts {
    private DocTranscripts() {}

    /** One command and the lines it prints, as the page shows them (indentation taken off). */
    record Step(int line, String command, List<String> expected) {
        /** {@code ./sluice up ARGS}: the runner starts the cluster itself (the page shows no output). */
        Optional<List<String>> upArguments() {
            if (!command.equals("./sluice up") && !command.startsWith("./sluice up ")) {
                return Optional.empty();
            }
            String rest = command.substring("./sluice up".length()).strip();
            return Optional.of(rest.isEmpty() ? List.of() : List.of(rest.split("\\s+")));
        }

        /**
         * A line that changes the shell the next commands run in: {@code source}, {@code export},
         * or a variable set alone ({@code U=...}, {@code H=(...)}, {@code T=$(...)}).
         */
        boolean setsUpShell() {
            return command.startsWith("source ")
                    || command.startsWith(". ")
                    || command.startsWith("export ")
                    || ASSIGNMENT.matcher(command).matches();
        }
    }

    /**
     * A transcript: where it is ({@code docs/x.md:153}), its steps, and the cluster it needs:
     * the {@code ./sluice up} arguments of a new one, or empty to go on in the one before.
     */
    record Block(String where, List<Step> steps, Optional<List<String>> newCluster, Optional<Pattern> varying) {}

    private static final Pattern ASSIGNMENT =
            Pattern.compile("[A-Za-z_]\\w*=(\\(.*\\)|\\$\\(.*\\)|\"[^\"]*\"|[^\\s;&|]*)");
    private static final Pattern HEREDOC = Pattern.compile("<<-?\\s*['\"]?(\\w+)['\"]?");
    private static final Pattern VARYING = Pattern.compile("^<!-- example: numbers vary in (.+) -->$");

    static List<Block> parse(String page, String name) {
        List<String> lines = page.lines().toList();
        List<Block> blocks = new ArrayList<>();
        boolean fenced = false;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            boolean opens =
                    l.startsWith("    $ ") && (i == 0 || lines.get(i - 1).isBlank());
            if (fenced || !opens) {
                continue;
            }
            int end = i;
            while (end < lines.size()
                    && (lines.get(end).startsWith("    ") || lines.get(end).isBlank())) {
                end++;
            }
            while (end > i && lines.get(end - 1).isBlank()) {
                end--;
            }
            Optional<Pattern> varying = Optional.empty();
            Matcher marker = VARYING.matcher(i >= 2 ? lines.get(i - 2) : "");
            if (marker.matches()) {
                varying = Optional.of(Pattern.compile(marker.group(1)));
            }
            blocks.add(block(lines.subList(i, end), name, i + 1, varying));
            i = end - 1;
        }
        return blocks;
    }

    private static Block block(List<String> raw, String name, int firstLine, Optional<Pattern> varying) {
        List<String> text =
                raw.stream().map(l -> l.length() >= 4 ? l.substring(4) : "").toList();
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < text.size(); ) {
            String l = text.get(i);
            if (!l.startsWith("$ ")) {
                throw new IllegalArgumentException(name + ":" + (firstLine + i) + ": output before any command");
            }
            StringBuilder command = new StringBuilder(l.substring(2));
            int line = firstLine + i;
            i++;
            // A line ending in a backslash goes on in the next, as the shell reads it.
            while (command.toString().endsWith("\\") && i < text.size()) {
                command.append('\n').append(text.get(i++));
            }
            Matcher heredoc = HEREDOC.matcher(l);
            if (heredoc.find()) {
                String word = heredoc.group(1);
                while (i < text.size() && !text.get(i).equals(word)) {
                    command.append('\n').append(text.get(i++));
                }
                if (i == text.size()) {
                    throw new IllegalArgumentException(name + ":" + line + ": here-document without its " + word);
                }
                command.append('\n').append(text.get(i++));
            }
            List<String> expected = new ArrayList<>();
            while (i < text.size() && !text.get(i).startsWith("$ ")) {
                expected.add(text.get(i++));
            }
            steps.add(new Step(line, command.toString(), List.copyOf(expected)));
        }
        Step first = steps.getFirst();
        Optional<List<String>> cluster = first.upArguments();
        if (cluster.isEmpty() && first.command().equals("source .sluice/sluice.env")) {
            cluster = Optional.of(List.of());
        }
        return new Block(name + ":" + firstLine, List.copyOf(steps), cluster, varying);
    }
}
