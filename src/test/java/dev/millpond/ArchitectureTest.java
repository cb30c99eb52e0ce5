package dev.millpond;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package rules of docs/architecture.md ("Where each concern lives"), checked on the compiled main classes: what
 * each package may use, the DuckLake access package shared by the sink and the tools, a sink contract that names no
 * destination, no cycles. A rule changed here changes in that page too.
 */
class ArchitectureTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.millpond");

    private static final String P = "dev.millpond.";

    /**
     * Each package (ArchUnit's notation: {@code ..} takes in the sub-packages) and the packages of this project it may
     * use besides itself and {@code vocabulary}, which every layer may use. {@code app} wires everything and is left
     * out; nothing may use it but the replay of rejects (below).
     */
    private static final Map<String, List<String>> MAY_USE = new LinkedHashMap<>();

    static {
        MAY_USE.put("vocabulary..", List.of());
        MAY_USE.put("config..", List.of());
        MAY_USE.put("convert..", List.of());
        MAY_USE.put("observability..", List.of("config.."));
        MAY_USE.put("memory..", List.of("config.."));
        MAY_USE.put("kafka..", List.of("config..", "observability.."));
        MAY_USE.put("includevalues..", List.of("config..", "observability..", "memory.."));
        MAY_USE.put("stages..", List.of("config..", "observability.."));
        MAY_USE.put("sinks", List.of("config..", "observability.."));
        MAY_USE.put("ducklake..", List.of("config..", "observability.."));
        MAY_USE.put("sinks.ducklake..", List.of("sinks", "ducklake..", "config..", "observability.."));
        MAY_USE.put("sinks.hoglake", List.of("sinks", "sinks.hoglake.catalog..", "sinks.hoglake.parquet..",
                "sinks.hoglake.schema..", "config..", "observability.."));
        MAY_USE.put("sinks.hoglake.catalog..", List.of("config..", "observability.."));
        MAY_USE.put("sinks.hoglake.parquet..", List.of("sinks.hoglake.catalog..", "config..", "observability.."));
        MAY_USE.put("sinks.hoglake.schema..", List.of("sinks.hoglake.catalog..", "sinks.hoglake.parquet..",
                "config..", "observability.."));
        MAY_USE.put("pump..", List.of("kafka..", "convert..", "stages..", "sinks", "config..", "observability.."));
        // The replay of rejects takes the writer's own path (its sink through app.SinkFactory, the pump's stages);
        // only RejectsReplay may reach those, see replayOfRejectsAloneUsesTheWritersPieces.
        MAY_USE.put("maintenance..", List.of("ducklake..", "sinks", "kafka..", "config..", "observability..",
                "app..", "pump..", "convert..", "stages..", "includevalues..", "memory.."));
    }

    @Test
    void eachPackageUsesOnlyWhatArchitectureMdSays() {
        List<ArchRule> rules = new ArrayList<>();
        for (Map.Entry<String, List<String>> rule : MAY_USE.entrySet()) {
            List<String> allowed = new ArrayList<>();
            allowed.add(P + rule.getKey());
            allowed.add(P + "vocabulary..");
            rule.getValue().forEach(p -> allowed.add(P + p));
            DescribedPredicate<JavaClass> elsewhereInMillpond = resideInAPackage("dev.millpond..")
                    .and(not(resideInAnyPackage(allowed.toArray(String[]::new))));
            rules.add(noClasses().that().resideInAPackage(P + rule.getKey())
                    .should().dependOnClassesThat(elsewhereInMillpond)
                    .as(P + rule.getKey() + " uses only " + String.join(", ", allowed.subList(1, allowed.size())))
                    .allowEmptyShould(true)); // a package without classes is reported below, after the violations
        }
        // One report for every package that breaks its rule, not only the first.
        CompositeArchRule.of(rules).because("docs/architecture.md lists what each package uses").check(MAIN);
        List<String> empty = MAY_USE.keySet().stream()
                .filter(p -> MAIN.stream().noneMatch(resideInAPackage(P + p)::test)).toList();
        assertThat(empty).as("packages with a rule but no classes (renamed or gone? update the rules and"
                + " docs/architecture.md)").isEmpty();
    }

    @Test
    void theToolsReachTheLakeThroughTheAccessPackageNotTheWritersSink() {
        noClasses().that().resideInAPackage(P + "maintenance..")
                .should().dependOnClassesThat().resideInAnyPackage(P + "sinks.ducklake..", P + "sinks.hoglake..")
                .because("the attachment, SQL, catalog location and S3 settings the tools share with the DuckLake"
                        + " sink live in dev.millpond.ducklake; a replay writes through the Sink interface")
                .check(MAIN);
    }

    @Test
    void theDuckLakeAccessPackageUsesNeitherItsSinkNorItsTools() {
        noClasses().that().resideInAPackage(P + "ducklake..")
                .should().dependOnClassesThat().resideInAnyPackage(P + "sinks..", P + "maintenance..", P + "pump..",
                        P + "app..")
                .check(MAIN);
    }

    @Test
    void theSinkContractNamesNoDestination() {
        noClasses().that().resideInAPackage(P + "sinks")
                .should().dependOnClassesThat().resideInAnyPackage(P + "sinks.ducklake..", P + "sinks.hoglake..",
                        "org.duckdb..", "org.apache.arrow.c..", "org.apache.arrow.vector.ipc..")
                .because("the pump hands a sink Arrow batches; how one destination scans them (DuckDB through the"
                        + " Arrow C stream) is that destination's business")
                .check(MAIN);
    }

    @Test
    void replayOfRejectsAloneUsesTheWritersPieces() {
        noClasses().that(resideInAPackage(P + "maintenance..").and(not(partOf(P + "maintenance.RejectsReplay"))))
                .should().dependOnClassesThat().resideInAnyPackage(P + "app..", P + "sinks", P + "pump..",
                        P + "convert..", P + "stages..", P + "includevalues..", P + "memory..")
                .because("a replayed record takes exactly the writer's path; the other tools reach the lake through"
                        + " dev.millpond.ducklake")
                .check(MAIN);
    }

    @Test
    void topLevelPackagesHaveNoCycles() {
        slices().matching(P + "(*)..").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void sinkPackagesHaveNoCycles() {
        slices().matching(P + "sinks.(**)").should().beFreeOfCycles().check(MAIN);
    }

    /** The class and the classes nested in it (records, lambdas' holders). */
    private static DescribedPredicate<JavaClass> partOf(String name) {
        return DescribedPredicate.describe(name + " and its nested classes",
                c -> c.getName().equals(name) || c.getName().startsWith(name + "$"));
    }
}
