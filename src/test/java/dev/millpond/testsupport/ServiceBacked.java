package dev.millpond.testsupport;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts a test class in the service lane: it starts a real service or process (the shared broker, PostgreSQL, the S3
 * server, the hoglake test server, the packaged app, another JVM, an external tool). {@code ./mvnw test} runs the
 * untagged classes only, so that lane stays pure and quick; {@code ./mvnw verify} runs this lane after {@code package}
 * and before the {@code *IT} tests. {@link TestLanesTest} fails when an untagged test reaches one of those services, so a
 * new test cannot slip into the quick lane by accident. The lanes and their commands: docs/testing.md.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(ServiceBacked.TAG)
public @interface ServiceBacked {
    /** The JUnit tag; the build's lanes select on it (pom.xml, surefire's executions). */
    String TAG = "services";
}
