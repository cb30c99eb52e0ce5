package dev.millpond.config;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Locations;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.util.List;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.conditions.ArchConditions.callMethodWhere;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;

/**
 * One door for configuration: the writer, the tools and the exporter read their environment, system properties and
 * Quarkus configuration only in {@code dev.millpond.config}, which parses each variable once into typed records that
 * the rest of the code is handed. Anything else reading the process's configuration would be a second door, with its
 * own defaults and its own way of failing (docs/architecture.md).
 */
class ConfigDoorTest {

    private static final String CONFIG = "dev.millpond.config..";

    /**
     * The one exception, forced by a library: the AWS SDK behind MSK IAM takes the region and the STS session name
     * only as system properties (or its own variables), so {@code kafka.MskIamSettings} sets them from the validated
     * configuration, and reads them first only to leave an operator's explicit {@code -Daws.region} alone.
     */
    private static final String AWS_SDK_SETTINGS = "dev.millpond.kafka.MskIamSettings";

    /** The main classes only, read from their directory: scanning the classpath's jars for the package is slow. */
    private static final JavaClasses MAIN = new ClassFileImporter().importLocations(
            Locations.of(List.of(mainClasses())));

    @Test
    void onlyConfigReadsTheEnvironment() {
        ArchRule rule = noClasses().that().resideOutsideOfPackage(CONFIG)
                .should(callMethodWhere(target(owner(name(System.class.getName())))
                        .and(target(name("getenv")))))
                .because("variables are parsed once, by dev.millpond.config");
        rule.check(MAIN);
    }

    @Test
    void onlyConfigReadsSystemProperties() {
        ArchRule rule = noClasses().that().resideOutsideOfPackage(CONFIG)
                .and(not(com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf(mskIamSettings())))
                .should(callMethodWhere(target(owner(name(System.class.getName())))
                        .and(target(nameMatching("getProperty|getProperties")))))
                .orShould(callMethodWhere(target(owner(nameMatching("java\\.lang\\.(Long|Integer|Boolean)")))
                        .and(target(nameMatching("getLong|getInteger|getBoolean")))))
                .because("test hooks and other -D settings are read by dev.millpond.config (TestHooks)");
        rule.check(MAIN);
    }

    @Test
    void onlyConfigUsesQuarkusConfiguration() {
        ArchRule rule = noClasses().that().resideOutsideOfPackage(CONFIG)
                .should().dependOnClassesThat(resideInAPackage("org.eclipse.microprofile.config..")
                        .or(resideInAPackage("io.smallrye.config..")))
                .because("@ConfigProperty, ConfigProvider and @ConfigMapping would read variables past the"
                        + " loader's validation");
        rule.check(MAIN);
    }

    @Test
    void noScheduleIsAConfigurationExpression() {
        // Two @Scheduled on one method compile to their container, Scheduled.Schedules.
        ArchRule rule = noMethods().should().beAnnotatedWith("io.quarkus.scheduler.Scheduled")
                .orShould().beAnnotatedWith("io.quarkus.scheduler.Scheduled$Schedules")
                .because("@Scheduled(every = \"${...}\") reads its variable through Quarkus; schedules are read by"
                        + " dev.millpond.config and handed to io.quarkus.scheduler.Scheduler");
        rule.check(MAIN);
    }

    private static URL mainClasses() {
        return ConfigLoader.class.getProtectionDomain().getCodeSource().getLocation();
    }

    private static Class<?>[] mskIamSettings() {
        try {
            return new Class<?>[]{Class.forName(AWS_SDK_SETTINGS, false, ConfigDoorTest.class.getClassLoader())};
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("the documented exception moved: update " + AWS_SDK_SETTINGS, e);
        }
    }
}
