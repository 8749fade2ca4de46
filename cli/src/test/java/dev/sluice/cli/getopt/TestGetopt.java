package dev.sluice.cli.getopt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * glibc getopt_long behaviour and messages; the message texts were taken from Slurm 22.05's
 * sbatch and squeue, which print glibc's text (for example {@code sbatch --no=3}).
 */
class TestGetopt {
    private static final OptionTable TABLE = OptionTable.builder()
            .add('N', "nodes", ArgKind.REQUIRED)
            .add('H', "hold", ArgKind.NONE)
            .add('v', "verbose", ArgKind.NONE)
            .add((char) 0, "nodelist", ArgKind.REQUIRED)
            .add((char) 0, "no-requeue", ArgKind.NONE)
            .add((char) 0, "nice", ArgKind.OPTIONAL)
            .add('p', "partition", ArgKind.REQUIRED)
            .unsupported('a', "array", ArgKind.REQUIRED)
            .build();

    private static Getopt.Result parse(String... args) throws GetoptException {
        return Getopt.parse("sbatch", TABLE, List.of(args));
    }

    private static String error(String... args) {
        try {
            parse(args);
        } catch (GetoptException e) {
            return e.getMessage();
        }
        throw new AssertionError("no error for " + List.of(args));
    }

    @Test
    void requiredArgumentInEverySpelling() throws GetoptException {
        for (String[] args : new String[][] {{"-N2"}, {"-N", "2"}, {"--nodes=2"}, {"--nodes", "2"}}) {
            Getopt.Result r = parse(args);
            assertThat(r.options())
                    .extracting(ParsedOption::key, ParsedOption::value)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("nodes", "2"));
        }
    }

    @Test
    void aBadOptionKeepsWhatGetoptHadReturnedBeforeIt() {
        // getopt hands options over one by one: -H and v came before the bad q.
        assertThatThrownBy(() -> parse("-H", "x", "-vq", "-N2"))
                .isInstanceOfSatisfying(
                        GetoptException.class,
                        e -> assertThat(e.before())
                                .extracting(ParsedOption::key)
                                .containsExactly("hold", "verbose"));
        assertThatThrownBy(() -> parse("--bogus", "-H"))
                .isInstanceOfSatisfying(
                        GetoptException.class, e -> assertThat(e.before()).isEmpty());
    }

    @Test
    void uniquePrefixOfALongName() throws GetoptException {
        assertThat(parse("--part=gpu").options().get(0).key()).isEqualTo("partition");
        assertThat(parse("--verb").options().get(0).key()).isEqualTo("verbose");
    }

    @Test
    void bundledFlagsAndAttachedArgument() throws GetoptException {
        Getopt.Result r = parse("-HvN3");
        assertThat(r.options()).extracting(ParsedOption::key).containsExactly("hold", "verbose", "nodes");
        assertThat(r.options().get(2).value()).isEqualTo("3");
    }

    @Test
    void optionalArgumentOnlyAttached() throws GetoptException {
        Getopt.Result r = parse("--nice", "5");
        assertThat(r.options().get(0).value()).isNull();
        assertThat(r.operands()).containsExactly("5");
        assertThat(parse("--nice=5").options().get(0).value()).isEqualTo("5");
    }

    @Test
    void permutesOperandsUnlessToldToStop() throws GetoptException {
        Getopt.Result r = parse("a", "-H", "b", "--", "-v");
        assertThat(r.options()).extracting(ParsedOption::key).containsExactly("hold");
        assertThat(r.operands()).containsExactly("a", "b", "-v");

        OptionTable stop = OptionTable.builder()
                .stopAtFirstOperand()
                .add('H', "hold", ArgKind.NONE)
                .build();
        Getopt.Result s = Getopt.parse("sbatch", stop, List.of("-H", "script.sh", "-H"));
        assertThat(s.options()).hasSize(1);
        assertThat(s.operands()).containsExactly("script.sh", "-H");
    }

    @Test
    void glibcMessages() {
        assertThat(error("--foo")).isEqualTo("sbatch: unrecognized option '--foo'");
        assertThat(error("--foo=bar")).isEqualTo("sbatch: unrecognized option '--foo=bar'");
        assertThat(error("-Z")).isEqualTo("sbatch: invalid option -- 'Z'");
        assertThat(error("-N")).isEqualTo("sbatch: option requires an argument -- 'N'");
        assertThat(error("--nodes")).isEqualTo("sbatch: option '--nodes' requires an argument");
        assertThat(error("--parti")).isEqualTo("sbatch: option '--partition' requires an argument");
        assertThat(error("--hold=3")).isEqualTo("sbatch: option '--hold' doesn't allow an argument");
        assertThat(error("--no=3"))
                .isEqualTo(
                        "sbatch: option '--no=3' is ambiguous; possibilities: '--no-requeue' '--nodelist' '--nodes'");
    }

    @Test
    void exactNameBeatsLongerPrefixMatches() throws GetoptException {
        OptionTable t = OptionTable.builder()
                .add((char) 0, "mem", ArgKind.REQUIRED)
                .add((char) 0, "mem-per-cpu", ArgKind.REQUIRED)
                .build();
        assertThat(Getopt.parse("sbatch", t, List.of("--mem=1G"))
                        .options()
                        .get(0)
                        .key())
                .isEqualTo("mem");
    }

    @Test
    void unsupportedOptionsAreUnrecognizedButStillMakePrefixesAmbiguous() {
        assertThat(error("--array=1-3")).isEqualTo("sbatch: unrecognized option '--array=1-3'");
        assertThat(error("-a", "1")).isEqualTo("sbatch: invalid option -- 'a'");
        assertThatThrownBy(() -> parse("--n=1")).hasMessageContaining("is ambiguous");
    }

    @Test
    void loneDashIsAnOperand() throws GetoptException {
        assertThat(parse("-").operands()).containsExactly("-");
    }

    @Test
    void ambiguityListsTheFirstMatchAndWhatDiffersFromItInTableOrder() {
        // Real srun 22.05: `srun --cpu=1` lists --cpu-bind but not its alias --cpu_bind, and
        // `srun --c=1` lists both (neither is the first match) in srun's own table order.
        OptionTable t = OptionTable.builder()
                .inGivenOrder()
                .add((char) 0, "cluster-constraint", ArgKind.REQUIRED)
                .add('D', "chdir", ArgKind.REQUIRED)
                .add((char) 0, "cpu-bind", ArgKind.REQUIRED)
                .add((char) 0, "cpu_bind", ArgKind.REQUIRED, "cpu-bind")
                .add((char) 0, "cpu-freq", ArgKind.REQUIRED)
                .build();
        assertThatThrownBy(() -> Getopt.parse("srun", t, List.of("--cpu=1")))
                .hasMessage("srun: option '--cpu=1' is ambiguous; possibilities: '--cpu-bind' '--cpu-freq'");
        assertThatThrownBy(() -> Getopt.parse("srun", t, List.of("--c=1")))
                .hasMessage("srun: option '--c=1' is ambiguous; possibilities: '--cluster-constraint' '--chdir'"
                        + " '--cpu-bind' '--cpu_bind' '--cpu-freq'");
    }
}
