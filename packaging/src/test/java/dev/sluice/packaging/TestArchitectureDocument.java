package dev.sluice.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's "Every package" table names exactly the packages the modules' main code
 * has: a package added without a line there, or a line left for a package that is gone, fails.
 */
class TestArchitectureDocument {
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern ROW = Pattern.compile("^\\| `(dev\\.sluice(?:\\.[a-z0-9]+)+)` \\|", Pattern.MULTILINE);

    @Test
    void everyPackageHasItsLineAndEveryLineItsPackage() throws IOException {
        Set<String> documented = new TreeSet<>();
        String doc = Files.readString(REPO.resolve("docs/architecture.md"));
        Matcher m = ROW.matcher(doc.substring(doc.indexOf("## Every package")));
        while (m.find()) {
            assertThat(documented.add(m.group(1)))
                    .as("listed twice: %s", m.group(1))
                    .isTrue();
        }
        assertThat(documented).isEqualTo(mainPackages());
    }

    /** The packages of every module's main code, each found by its package-info.java. */
    private static Set<String> mainPackages() throws IOException {
        Set<String> packages = new TreeSet<>();
        try (Stream<Path> modules = Files.list(REPO)) {
            for (Path main : modules.map(m -> m.resolve("src/main/java"))
                    .filter(Files::isDirectory)
                    .toList()) {
                try (Stream<Path> files = Files.walk(main)) {
                    files.filter(f -> f.getFileName().toString().equals("package-info.java"))
                            .map(f -> main.relativize(f.getParent()).toString().replace('/', '.'))
                            .forEach(packages::add);
                }
            }
        }
        // The walk found the modules, not an empty tree.
        assertThat(packages).contains("dev.sluice.ctld.state", "dev.sluice.cli.command.squeue");
        return packages;
    }
}
