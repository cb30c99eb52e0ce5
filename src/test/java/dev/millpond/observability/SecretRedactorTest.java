package dev.millpond.observability;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;
import java.util.Map;
import java.util.Random;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;

/** The redaction rule on the texts the app and its libraries really print, and the filter that applies it. */
class SecretRedactorTest {

    private static final Map<String, String> ENV = Map.of(
            "DUCKLAKE_RDS_PASSWORD", "pg-S3cret'pw",
            "DUCKDB_S3_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "KAFKA_CONSUMER_SASL_PASSWORD", "sasl-pa\"ss",
            "MILLPOND_INCLUDE_VALUES_AUTH_TOKEN", "iv-token-123",
            "POSTHOG_PROJECT_TOKEN", "phc_abcdefgh",
            "KAFKA_TOPIC", "events",
            "DUCKLAKE_RDS_USERNAME", "ducklake");

    private final SecretRedactor redactor = SecretRedactor.fromEnvironment(ENV);

    @Test
    void theLibpqConnectionStringInDuckDbsErrorLosesItsPassword() {
        String line = "IO Error: Unable to connect to Postgres at \"host=127.0.0.1 port=5432 dbname='ducklake' "
                + "user='ducklake' password='pg-S3cret\\'pw'\": server closed the connection unexpectedly";
        String out = redactor.redact(line);
        assertThat(out).doesNotContain("S3cret").contains("password='***'").contains("user='ducklake'")
                .contains("server closed the connection unexpectedly");
    }

    @Test
    void anUnknownPasswordInAConnectionStringIsMaskedByItsShapeAlone() {
        SecretRedactor noKnownValues = SecretRedactor.fromEnvironment(Map.of());
        assertThat(noKnownValues.redact("host=db password=hunter2 dbname=x")).isEqualTo("host=db password=*** dbname=x");
        assertThat(noKnownValues.redact("password='a\\'b c' user='u'")).isEqualTo("password='***' user='u'");
        assertThat(noKnownValues.redact("SET s3_secret_access_key = 'abc/def'")).doesNotContain("abc/def");
        assertThat(noKnownValues.redact("sasl.jaas.config=... required username=\"u\" password=\"p w\";"))
                .doesNotContain("p w").contains("username=\"u\"");
        assertThat(noKnownValues.redact("Authorization: Bearer eyJhbGciOi.x.y")).isEqualTo("Authorization: ***");
        assertThat(noKnownValues.redact("sending bearer abc.def to host")).isEqualTo("sending bearer *** to host");
        assertThat(noKnownValues.redact("GET /b/k?X-Amz-Credential=AKIA%2F20261201&X-Amz-Signature=deadbeef HTTP/1.1"))
                .doesNotContain("deadbeef").doesNotContain("AKIA");
        assertThat(noKnownValues.redact("POSTHOG_PROJECT_TOKEN=phc_x1 set")).doesNotContain("phc_x1");
    }

    @Test
    void knownValuesAreMaskedWhereverTheyAppearAndOrdinaryTextIsLeftAlone() {
        assertThat(redactor.redact("token iv-token-123 refused by endpoint"))
                .isEqualTo("token *** refused by endpoint");
        assertThat(redactor.redact("key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY in a URL")).doesNotContain("wJalr");
        assertThat(redactor.redact("Flush: 500 records, 1234 bytes, 12 columns, write=0.12s"))
                .isEqualTo("Flush: 500 records, 1234 bytes, 12 columns, write=0.12s");
        assertThat(redactor.redact("table events in ducklake")).isEqualTo("table events in ducklake");
    }

    @Test
    void noKnownSecretSurvivesRandomSurroundings() {
        Random random = new Random(7);
        String[] secrets = {"pg-S3cret'pw", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "sasl-pa\"ss", "iv-token-123",
                "phc_abcdefgh"};
        String alphabet = "abc XYZ=:'\"\\/,;()[]{}\n\t_-";
        for (int i = 0; i < 5_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int part = 0; part < 4; part++) {
                for (int n = random.nextInt(12); n > 0; n--) {
                    text.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                text.append(secrets[random.nextInt(secrets.length)]);
            }
            String out = redactor.redact(text.toString());
            for (String secret : secrets) {
                assertThat(out).as("input %s", text).doesNotContain(secret);
            }
        }
    }

    @Test
    void theFilterRewritesTheMessageAndTheExceptionChainButKeepsTypesAndStacks() {
        RedactingLogFilter filter = new RedactingLogFilter(redactor);
        SQLException cause = new SQLException("password='pg-S3cret\\'pw' rejected");
        RuntimeException thrown = new IllegalStateException("wrapped iv-token-123", cause);
        thrown.addSuppressed(new SQLException("ROLLBACK failed for phc_abcdefgh"));
        ExtLogRecord record = new ExtLogRecord(Level.WARNING, "Write attempt %d failed: %s",
                ExtLogRecord.FormatStyle.PRINTF, SecretRedactorTest.class.getName());
        record.setParameters(new Object[]{1, "user='ducklake' password='pg-S3cret\\'pw'"});
        record.setThrown(thrown);

        assertThat(filter.isLoggable(record)).isTrue();

        assertThat(record.getFormattedMessage()).isEqualTo("Write attempt 1 failed: user='ducklake' password='***'");
        String printed = stackTrace(record.getThrown());
        assertThat(printed).doesNotContain("S3cret").doesNotContain("iv-token-123").doesNotContain("phc_abcdefgh")
                .contains("java.lang.IllegalStateException: wrapped ***")
                .contains("Caused by: java.sql.SQLException: password='***' rejected")
                .contains("Suppressed: java.sql.SQLException: ROLLBACK failed for ***")
                .contains("SecretRedactorTest");
    }

    @Test
    void aRecordWithoutSecretsIsLeftAsItIs() {
        RedactingLogFilter filter = new RedactingLogFilter(redactor);
        RuntimeException thrown = new RuntimeException("plain");
        ExtLogRecord record = new ExtLogRecord(Level.INFO, "Flush: %d records", ExtLogRecord.FormatStyle.PRINTF,
                SecretRedactorTest.class.getName());
        record.setParameters(new Object[]{3});
        record.setThrown(thrown);
        assertThat(filter.isLoggable(record)).isTrue();
        assertThat(record.getFormattedMessage()).isEqualTo("Flush: 3 records");
        assertThat(record.getThrown()).isSameAs(thrown);
    }

    private static String stackTrace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
