package dev.millpond.observability;

import dev.millpond.testsupport.DuckDbExtensions;
import io.quarkus.logging.json.runtime.JsonFormatter;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.jboss.logmanager.formatters.StructuredFormatter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The leak check in both console formats the writer has (JSON, the production default, in each of its exception
 * renderings, and text), on a real DuckDB failure whose message carries the catalog password: with the redaction
 * filter the formatted line has no password but still says what failed; without it (the positive control) the same
 * check finds the password, so the check is one that can fail.
 */
class LogFormatsLeakTest {

    private static final String PASSWORD = "pw-" + UUID.randomUUID();
    private static SQLException failure;

    @BeforeAll
    static void aRealCatalogConnectionFailure() throws Exception {
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        try (Connection c = DuckDbExtensions.openInMemory(); Statement s = c.createStatement()) {
            s.execute("ATTACH 'host=127.0.0.1 port=" + closed + " dbname=ducklake user=ducklake password=" + PASSWORD
                    + " connect_timeout=2' AS catalog (TYPE postgres)");
        } catch (SQLException e) {
            failure = e;
        }
        assertThat((Object) failure).as("the ATTACH fails").isNotNull();
        assertThat(failure.getMessage()).as("DuckDB prints the connection string").contains(PASSWORD);
    }

    static Stream<Arguments> formats() {
        return Stream.of(
                arguments("text", new PatternFormatter("%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [0][%c{1.}] %s%e%n")),
                arguments("json formatted", json(StructuredFormatter.ExceptionOutputType.FORMATTED)),
                arguments("json detailed", json(StructuredFormatter.ExceptionOutputType.DETAILED)),
                arguments("json detailed and formatted",
                        json(StructuredFormatter.ExceptionOutputType.DETAILED_AND_FORMATTED)));
    }

    private static Formatter json(StructuredFormatter.ExceptionOutputType type) {
        JsonFormatter f = new JsonFormatter();
        f.setExceptionOutputType(type);
        return f;
    }

    private static ExtLogRecord record() {
        ExtLogRecord record = new ExtLogRecord(Level.WARNING, "Write attempt %d failed: %s",
                ExtLogRecord.FormatStyle.PRINTF, LogFormatsLeakTest.class.getName());
        record.setParameters(new Object[]{1, failure.getMessage()});
        IllegalStateException thrown = new IllegalStateException("flush failed: " + failure.getMessage(), failure);
        thrown.addSuppressed(new SQLException("rollback: " + failure.getMessage()));
        record.setThrown(thrown);
        return record;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void noPasswordWithRedactionAndThePasswordWithout(String name, Formatter formatter) {
        Map<String, String> env = Map.of("DUCKLAKE_RDS_PASSWORD", PASSWORD);

        ExtLogRecord unredacted = record();
        assertThat(new RedactingLogFilter(SecretRedactor.fromEnvironment(env), false).isLoggable(unredacted)).isTrue();
        assertThat(formatter.format(unredacted)).as("positive control: the check finds the password").contains(PASSWORD);

        ExtLogRecord redacted = record();
        assertThat(new RedactingLogFilter(SecretRedactor.fromEnvironment(env)).isLoggable(redacted)).isTrue();
        String line = formatter.format(redacted);
        assertThat(line).doesNotContain(PASSWORD).contains("Unable to connect").contains("password=***");
        if (!name.equals("json detailed")) {
            // The detailed JSON rendering names the stand-in's class; every other one the original's.
            assertThat(line).contains("java.lang.IllegalStateException");
        }

        // The filter also masks a password it was not told about, by its shape alone.
        ExtLogRecord byShape = record();
        new RedactingLogFilter(SecretRedactor.fromEnvironment(Map.of())).isLoggable(byShape);
        assertThat(formatter.format(byShape)).doesNotContain(PASSWORD);
    }
}
