package dev.sluice.cli.command.submit;

import dev.sluice.cli.Invocation;
import dev.sluice.cli.UserDirectory;
import java.util.Optional;

/**
 * Slurm 22.05's checks of {@code --uid}, {@code --gid}, {@code --priority} and {@code
 * --get-user-env}, which its option parser makes as it reads each (sbatch, srun and salloc share
 * them), and the value {@code -v} lists for each. Messages and exit statuses were read off real
 * sbatch, as root and as an ordinary user.
 */
final class ValueChecks {
    /** Slurm's NO_VAL - 1, what {@code --priority=TOP} stands for; -v prints it as a signed int. */
    private static final long PRIORITY_TOP = 0xfffffffdL;

    private ValueChecks() {}

    static void check(SubmitOptions o, Invocation inv) throws SubmitException {
        if (o.has("uid")) {
            requireRoot("--uid", inv);
            if (uid(o.get("uid"), inv.users()).isEmpty()) {
                throw new SubmitException(255, "error: Invalid --uid specification");
            }
        }
        if (o.has("gid")) {
            requireRoot("--gid", inv);
            if (gid(o.get("gid"), inv.users()).isEmpty()) {
                throw new SubmitException(255, "error: Invalid --gid specification");
            }
        }
        if (o.has("priority")) {
            long p = priority(o.get("priority"));
            if (p < 0) {
                throw new SubmitException(255, "error: Priority must be >= 0");
            }
            if (p > PRIORITY_TOP && !o.get("priority").equalsIgnoreCase("TOP")) {
                throw new SubmitException(255, "error: Priority must be < " + (PRIORITY_TOP + 1));
            }
        }
        if (o.has("get-user-env") && getUserEnv(o.get("get-user-env")).isEmpty()) {
            throw new SubmitException(255, "error: Invalid --get-user-env specification");
        }
    }

    // Only root may submit as someone else, and Slurm says so whatever the value.
    private static void requireRoot(String option, Invocation inv) throws SubmitException {
        if (inv.caller().uid() != 0) {
            throw new SubmitException(255, "error: " + option + " only permitted by root user");
        }
    }

    /** A user name, or the number of a user the user database knows (Slurm's uid_from_string). */
    static Optional<Long> uid(String value, UserDirectory users) {
        Optional<Long> byName = users.uid(value);
        if (byName.isPresent()) {
            return byName;
        }
        return number(value).filter(n -> users.userName(n).isPresent());
    }

    /** A group name, or the number of a group the group database knows. */
    static Optional<Long> gid(String value, UserDirectory users) {
        Optional<Long> byName = users.gid(value);
        if (byName.isPresent()) {
            return byName;
        }
        return number(value).filter(n -> users.groupName(n).isPresent());
    }

    private static Optional<Long> number(String value) {
        if (value.isEmpty() || value.length() > 10 || !value.chars().allMatch(Character::isDigit)) {
            return Optional.empty();
        }
        long n = Long.parseLong(value);
        return n <= Integer.MAX_VALUE ? Optional.of(n) : Optional.empty();
    }

    /** {@code TOP}, or strtoll's reading of the value (text that is no number is 0). */
    static long priority(String value) {
        if (value.equalsIgnoreCase("TOP")) {
            return PRIORITY_TOP;
        }
        return Strtol.leading(value).value();
    }

    /** How -v lists a priority: Slurm keeps it in a signed int. */
    static String shownPriority(String value) {
        return Integer.toString((int) priority(value));
    }

    /**
     * {@code --get-user-env[=timeout][S|L]} as -v lists it ({@code 5L}, {@code 0S}, {@code 0}),
     * empty for a value Slurm refuses: after the number only {@code S} or {@code L} may follow,
     * and what follows that letter is not looked at.
     */
    static Optional<String> getUserEnv(String value) {
        Strtol.Result r = Strtol.leading(value);
        String rest = value.substring(r.end());
        if (rest.isEmpty()) {
            return Optional.of(Long.toString(r.value()));
        }
        char mode = Character.toUpperCase(rest.charAt(0));
        return mode == 'S' || mode == 'L' ? Optional.of(r.value() + String.valueOf(mode)) : Optional.empty();
    }

    /** C's strtol on a value: leading blanks, a sign and digits; what it read and where it stopped. */
    static final class Strtol {
        record Result(long value, int end) {}

        private Strtol() {}

        static Result leading(String s) {
            int i = 0;
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            int start = i;
            if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
                i++;
            }
            int digits = i;
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            if (i == digits) {
                // No digits: strtol reads nothing, and the end is the start of the text.
                return new Result(0, 0);
            }
            long v;
            try {
                v = Long.parseLong(s.substring(start, i).replace("+", ""));
            } catch (NumberFormatException e) {
                v = s.charAt(start) == '-' ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            return new Result(v, i);
        }
    }
}
