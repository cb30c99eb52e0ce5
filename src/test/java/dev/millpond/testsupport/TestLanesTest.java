package dev.millpond.testsupport;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.annotation.Testable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps the quick lane quick: a test class that is not {@link ServiceBacked} must not reach, directly or through the
 * fixtures it uses, anything that starts a service or a process, nor sleep. It reads the compiled test classes, so it
 * sees what a test really calls, not what its name suggests. The lanes: docs/testing.md.
 */
class TestLanesTest {

    /**
     * Starting any of these makes a test service-backed: the shared services, the packaged app, another JVM, any process.
     * Named as strings: a class literal here would make this test depend on them.
     */
    private static final Set<String> SERVICES = Set.of(
            "dev.millpond.testsupport.Services",
            "dev.millpond.testsupport.KafkaBroker",
            "dev.millpond.testsupport.Postgres",
            "dev.millpond.testsupport.S3Server",
            "dev.millpond.testsupport.DuckLakeStack",
            "dev.millpond.testsupport.LakeTopic",
            "dev.millpond.testsupport.AppProcess",
            "dev.millpond.testsupport.LegacyDuckDb",
            "dev.millpond.testsupport.hoglake.HoglakeServer",
            "java.lang.ProcessBuilder");

    /** The servers themselves, for a test that would start one without the fixtures above. */
    private static final List<String> SERVER_PACKAGES = List.of(
            "io.zonky.test.db.postgres.", "org.gaul.s3proxy.", "kafka.server.");

    private static final Pattern MAIN = Pattern.compile("static\\s+void\\s+main\\s*\\(");

    private static final JavaClasses TESTS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
            .importPackages("dev.millpond");

    @Test
    void quickLaneTestsStartNoServiceAndNoProcess() {
        Map<String, String> offenders = new TreeMap<>();
        for (JavaClass test : quickLaneTests()) {
            firstPathTo(test, TestLanesTest::startsAService).ifPresent(path -> offenders.put(test.getName(), path));
        }
        assertThat(offenders)
                .as("test classes outside the service lane that start a service or a process; annotate them"
                        + " @ServiceBacked (or stop them starting one)")
                .isEmpty();
    }

    @Test
    void quickLaneTestsDoNotSleep() {
        Map<String, String> offenders = new TreeMap<>();
        for (JavaClass test : quickLaneTests()) {
            firstPathTo(test, TestLanesTest::sleeps).ifPresent(path -> offenders.put(test.getName(), path));
        }
        assertThat(offenders)
                .as("test classes in the quick lane that sleep; inject the clock or the sleeper, or wait for the event"
                        + " with Awaitility")
                .isEmpty();
    }

    /**
     * Benchmark, demo and dev-stack mains live in src/bench/java, not among the tests. The one main the test tree keeps
     * is the entry of a JVM a test starts itself (the legacy DuckDB of the catalog-format tests).
     */
    @Test
    void mainsLiveInTheBenchFolder() throws IOException {
        Set<String> childProcessEntries = Set.of("dev/millpond/testsupport/LegacyDuckDb.java");
        assertThat(filesWithAMain(Path.of("src/test/java")))
                .as("mains in src/test/java; a benchmark or a demo goes to src/bench/java")
                .containsExactlyElementsOf(childProcessEntries);
        assertThat(filesWithAMain(Path.of("src/bench/java")))
                .as("the guard reads the source folders where the build finds them")
                .contains("dev/millpond/bench/PipelineBenchmark.java", "dev/millpond/demo/DemoMain.java");
    }

    private static List<String> filesWithAMain(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> MAIN.matcher(read(f)).find())
                    .map(f -> root.relativize(f).toString().replace('\\', '/'))
                    .sorted()
                    .toList();
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theGuardSeesBothLanes() {
        // Without this, a broken import (no classes, or no tags read) would make the two checks above pass vacuously.
        List<JavaClass> quick = quickLaneTests();
        assertThat(quick).extracting(JavaClass::getSimpleName).contains("TestLanesTest", "ConfigLoaderTest");
        assertThat(tests(TestLanesTest::isServiceBacked)).extracting(JavaClass::getSimpleName).contains("KafkaBrokerTest");
        // Which service the shortest path meets first depends on the order of the class's dependencies; that it
        // finds one does not.
        assertThat(firstPathTo(TESTS.get("dev.millpond.testsupport.KafkaBrokerTest"), TestLanesTest::startsAService))
                .hasValueSatisfying(path -> assertThat(path).matches("KafkaBrokerTest -> (KafkaBroker|Services)"));
    }

    private static List<JavaClass> quickLaneTests() {
        return tests(test -> !isServiceBacked(test));
    }

    /** The classes surefire runs: top-level, named as surefire's includes name them, holding at least one test. */
    private static List<JavaClass> tests(Predicate<JavaClass> lane) {
        List<JavaClass> tests = new ArrayList<>();
        for (JavaClass c : TESTS) {
            if (c.isTopLevelClass() && !c.getModifiers().contains(JavaModifier.ABSTRACT)
                    && surefireRuns(c.getSimpleName()) && holdsTests(c) && lane.test(c)) {
                tests.add(c);
            }
        }
        return tests;
    }

    private static boolean surefireRuns(String simpleName) {
        return simpleName.startsWith("Test") || simpleName.endsWith("Test") || simpleName.endsWith("Tests")
                || simpleName.endsWith("TestCase");
    }

    private static boolean holdsTests(JavaClass c) {
        return c.getAllMethods().stream().anyMatch(m -> m.isMetaAnnotatedWith(Testable.class))
                || TESTS.stream().anyMatch(inner -> isInside(inner, c) && holdsTests(inner));
    }

    private static boolean isServiceBacked(JavaClass test) {
        return test.isMetaAnnotatedWith(ServiceBacked.class);
    }

    private static boolean isInside(JavaClass inner, JavaClass outer) {
        return inner.getName().startsWith(outer.getName() + "$");
    }

    private static boolean startsAService(JavaClass target) {
        return SERVICES.contains(target.getName())
                || SERVER_PACKAGES.stream().anyMatch(p -> target.getName().startsWith(p));
    }

    /** Calls {@code Thread.sleep} or {@code TimeUnit.sleep} itself. */
    private static boolean sleeps(JavaClass c) {
        for (JavaMethodCall call : c.getMethodCallsFromSelf()) {
            String owner = call.getTargetOwner().getName();
            if (call.getName().equals("sleep")
                    && (owner.equals(Thread.class.getName()) || owner.equals(TimeUnit.class.getName()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The first chain of test classes (breadth first, so the shortest) from {@code test} or one of its nested classes to a
     * class matching {@code target}, as {@code A -> B -> target}; main classes are not followed (they start nothing by
     * themselves in a test).
     */
    private static Optional<String> firstPathTo(JavaClass test, Predicate<JavaClass> target) {
        Map<String, String> cameFrom = new LinkedHashMap<>();
        Deque<JavaClass> queue = new ArrayDeque<>();
        for (JavaClass c : TESTS) {
            if (c.equals(test) || isInside(c, test)) {
                if (target.test(c)) {
                    return Optional.of(c.getSimpleName());
                }
                cameFrom.put(c.getName(), null);
                queue.add(c);
            }
        }
        while (!queue.isEmpty()) {
            JavaClass c = queue.poll();
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                JavaClass next = d.getTargetClass();
                String name = next.getName();
                if (cameFrom.containsKey(name)) {
                    continue;
                }
                cameFrom.put(name, c.getName());
                if (target.test(next)) {
                    return Optional.of(path(cameFrom, name));
                }
                if (TESTS.contain(name)) {
                    queue.add(TESTS.get(name));
                }
            }
        }
        return Optional.empty();
    }

    private static String path(Map<String, String> cameFrom, String end) {
        Deque<String> names = new ArrayDeque<>();
        for (String at = end; at != null; at = cameFrom.get(at)) {
            names.push(at.substring(at.lastIndexOf('.') + 1));
        }
        return String.join(" -> ", names);
    }
}
