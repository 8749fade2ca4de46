package dev.sluice.packaging;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * What a documented command's output and a run's are compared on: the lines as printed, with
 * only what cannot be the same from one run to the next replaced, on both sides alike. Each rule
 * is one line below; a value the rules leave alone must be printed exactly as the page shows it.
 */
final class DocOutput {
    private DocOutput() {}

    private record Rule(String why, UnaryOperator<String> apply) {}

    private static Rule replace(String why, String regex, String with) {
        Pattern p = Pattern.compile(regex);
        return new Rule(why, s -> p.matcher(s).replaceAll(with));
    }

    private static final List<Rule> RULES = List.of(
            // Markdown keeps neither reliably: Slurm pads some lines with blanks (scontrol's
            // "Flags= "), and a page cannot end a code block with an empty line.
            new Rule("trailing blanks of a line", s -> s.stripTrailing()),
            // The wall clock at the time of the run: 2026-12-05T00:27:53 (Slurm's
            // SLURM_TIME_FORMAT=standard, scontrol, sinfo -T, sacctmgr, sreport).
            replace("a date and time", "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d", "YYYY-MM-DDThh:mm:ss"),
            // sdiag's "sdiag output at Sun Dec 06 15:30:00 2026 (1796571000)".
            replace(
                    "a ctime() date and its epoch",
                    "(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \\d]\\d"
                            + " \\d\\d:\\d\\d:\\d\\d \\d{4}( \\(\\d+\\))?",
                    "DAY MON DD hh:mm:ss YYYY"));

    private static final Pattern NUMBER = Pattern.compile("\\d+");

    /**
     * The lines as compared: every rule applied to each, trailing empty lines dropped; in the
     * text {@code varying} matches (where the page says timing decides it), every number is N
     * and every run of blanks one blank.
     */
    static List<String> normalised(List<String> lines, Optional<Pattern> varying) {
        List<String> out = new ArrayList<>();
        for (String line : lines) {
            String s = line;
            for (Rule r : RULES) {
                s = r.apply().apply(s);
            }
            if (varying.isPresent()) {
                // A column's padding changes with the width of the number in it.
                s = varying.get()
                        .matcher(s)
                        .replaceAll(m -> java.util.regex.Matcher.quoteReplacement(
                                NUMBER.matcher(m.group()).replaceAll("N").replaceAll(" +", " ")));
            }
            out.add(s);
        }
        while (!out.isEmpty() && out.getLast().isEmpty()) {
            out.removeLast();
        }
        return out;
    }

    /** The rules, for the failure message: what was left out of the comparison. */
    static String rules() {
        return String.join("; ", RULES.stream().map(Rule::why).toList());
    }
}
