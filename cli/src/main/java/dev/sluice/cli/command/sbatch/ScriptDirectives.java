package dev.sluice.cli.command.sbatch;

import dev.sluice.cli.command.submit.SubmitException;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the {@code #SBATCH} directives of a batch script. Pure.
 *
 * <p>Rules, checked against Slurm 22.05's sbatch: a directive is a line that starts with
 * {@code #SBATCH} in column one (case matters; {@code #SBATCH--nice=5} counts). Blank lines and
 * other comment lines are skipped; the first line that is neither ends the scan, so directives
 * after the first command are ignored. Words split on white space; single or double quotes
 * group (and are removed); a word starting with {@code #} starts a comment. A quote left open
 * is fatal, with the file name and line number.
 */
final class ScriptDirectives {
    private static final String PREFIX = "#SBATCH";

    private ScriptDirectives() {}

    /** The directive words in script order, ready for the option parser. */
    static List<String> scan(String script, String fileName) throws SubmitException {
        List<String> words = new ArrayList<>();
        String[] lines = script.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.startsWith(PREFIX)) {
                words.addAll(split(line.substring(PREFIX.length()), fileName, i + 1));
                continue;
            }
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            break;
        }
        return words;
    }

    static List<String> split(String text, String fileName, int lineNo) throws SubmitException {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        // Slurm quotes the line from the end of the last complete word in its message.
        int lastWordEnd = 0;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                    lastWordEnd = i;
                }
                i++;
            } else if (c == '#' && !inWord) {
                break;
            } else if (c == '"' || c == '\'') {
                int close = text.indexOf(c, i + 1);
                if (close < 0) {
                    throw new SubmitException(
                            1,
                            "fatal: " + fileName + ": line " + lineNo + ": Unmatched `" + c + "` in ["
                                    + text.substring(lastWordEnd) + "]");
                }
                word.append(text, i + 1, close);
                inWord = true;
                i = close + 1;
            } else {
                word.append(c);
                inWord = true;
                i++;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
