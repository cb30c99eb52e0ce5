package dev.millpond.observability;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.logging.json.runtime.JsonFormatter;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.Level;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Every level a record can carry (JBoss's and the JDK's), through the rewrite every handler applies, then through the
 * formatters the app logs with: the JSON formatter's {@code level} and the text pattern's {@code %p} print Python's
 * name, and the severity — what thresholds compare — is unchanged.
 */
class PythonLevelNamesTest {

    static Stream<Arguments> levels() {
        return Stream.of(
                arguments(Level.FATAL, "CRITICAL"),
                arguments(Level.ERROR, "ERROR"),
                arguments(java.util.logging.Level.SEVERE, "ERROR"),
                arguments(Level.WARN, "WARNING"),
                arguments(java.util.logging.Level.WARNING, "WARNING"),
                arguments(Level.INFO, "INFO"),
                arguments(java.util.logging.Level.CONFIG, "DEBUG"),
                arguments(Level.DEBUG, "DEBUG"),
                arguments(Level.TRACE, "DEBUG"),
                arguments(java.util.logging.Level.FINEST, "DEBUG"));
    }

    @ParameterizedTest(name = "{0} → {1}")
    @MethodSource("levels")
    void formattedWithPythonsName(java.util.logging.Level level, String python) throws Exception {
        RedactingLogFilter filter = new RedactingLogFilter(SecretRedactor.fromEnvironment(Map.of()));
        ExtLogRecord record = new ExtLogRecord(level, "a line", ExtLogRecord.FormatStyle.NO_FORMAT, "test");
        record.setLoggerName("dev.millpond.test");
        assertThat(filter.isLoggable(record)).isTrue();
        assertThat(filter.isLoggable(record)).as("a second handler's pass leaves it as it is").isTrue();

        assertThat(record.getLevel().intValue()).isEqualTo(level.intValue());
        assertThat(new PatternFormatter("%p|%s").format(record)).isEqualTo(python + "|a line");
        String json = new JsonFormatter().format(record);
        assertThat(new ObjectMapper().readTree(json).path("level").asText()).as(json).isEqualTo(python);
        assertThat(PythonLevelNames.nameOf(level)).isEqualTo(python);
    }
}
