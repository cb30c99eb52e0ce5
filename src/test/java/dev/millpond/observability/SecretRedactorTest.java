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
        // Anything around a secret, as long as the secret stands as a token of its own (see the next test).
        String alphabet = "abc XYZ=:'\"\\/,;()[]{}\n\t_-";
        String separators = " =:'\"\\/,;()[]{}\n\t-";
        for (int i = 0; i < 5_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int part = 0; part < 4; part++) {
                for (int n = random.nextInt(12); n > 0; n--) {
                    text.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                text.append(separators.charAt(random.nextInt(separators.length())));
                text.append(secrets[random.nextInt(secrets.length)]);
                text.append(separators.charAt(random.nextInt(separators.length())));
            }
            String out = redactor.redact(text.toString());
            for (String secret : secrets) {
                assertThat(out).as("input %s", text).doesNotContain(secret);
            }
        }
    }

    @Test
    void generatedSecretsAreMaskedAsWholeTokensButNotInsideLongerIdentifiers() {
        Random random = new Random(11);
        String word = "abcdefghijklmnopqrstuvwxyz0123456789";
        for (int i = 0; i < 2_000; i++) {
            StringBuilder secret = new StringBuilder();
            for (int n = 4 + random.nextInt(12); n > 0; n--) {
                secret.append(word.charAt(random.nextInt(word.length())));
            }
            String s = secret.toString();
            SecretRedactor r = SecretRedactor.fromEnvironment(Map.of("DUCKLAKE_RDS_PASSWORD", s));
            String identifier = "__" + s + "_metadata_lake";
            String line = "table " + identifier + " at s3://b/" + s + "/x: " + s + ".";
            String out = r.redact(line);
            assertThat(out).as(line).isEqualTo("table " + identifier + " at s3://b/***/x: ***.");
        }
    }

    @Test
    void aPasswordThatIsAlsoAWordInNamesLeavesTheNamesAlone() {
        SecretRedactor r = SecretRedactor.fromEnvironment(Map.of("DUCKLAKE_RDS_PASSWORD", "ducklake"));
        String line = "Catalog error: table __ducklake_metadata_lake.ducklake_snapshot missing; Unable to connect to "
                + "Postgres at \"host='db' port='5432' dbname='ducklake' user='ducklake' password='ducklake'\"";
        assertThat(r.redact(line)).isEqualTo("Catalog error: table __ducklake_metadata_lake.ducklake_snapshot missing;"
                + " Unable to connect to Postgres at \"host='db' port='5432' dbname='ducklake' user='ducklake'"
                + " password='***'\"");
        assertThat(r.redact("the password is ducklake")).isEqualTo("the password is ***");
    }

    @Test
    void aBarePasswordOfSeveralWordsIsMaskedWhole() {
        SecretRedactor none = SecretRedactor.fromEnvironment(Map.of());
        assertThat(none.redact("password=two words")).isEqualTo("password=***");
        assertThat(none.redact("password=two words host=db")).isEqualTo("password=*** host=db");
        assertThat(none.redact("{\"password\": \"a b\", \"user\": \"u\"}")).isEqualTo("{\"password\": \"***\", \"user\": \"u\"}");
        Random random = new Random(5);
        for (int i = 0; i < 1_000; i++) {
            String[] words = new String[1 + random.nextInt(4)];
            for (int w = 0; w < words.length; w++) {
                words[w] = Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
            }
            String password = String.join(" ", words);
            String out = none.redact("connect failed: password=" + password);
            for (String w : words) {
                assertThat(out).as(password).doesNotContain(w);
            }
        }
    }

    @Test
    void userInfoInUrlsIsMasked() {
        SecretRedactor none = SecretRedactor.fromEnvironment(Map.of());
        assertThat(none.redact("HOGLAKE_URL=https://svc:hunter2@hoglake:8080/ unreachable"))
                .isEqualTo("HOGLAKE_URL=https://svc:***@hoglake:8080/ unreachable");
        assertThat(none.redact("Push to http://u:p%40ss@pushgateway:9091/metrics/job/x failed"))
                .isEqualTo("Push to http://u:***@pushgateway:9091/metrics/job/x failed");
        assertThat(none.redact("GET https://ghp_abcdef@github.com/x")).isEqualTo("GET https://***@github.com/x");
        assertThat(none.redact("s3://bucket/prefix/a@b.parquet and http://host:8080/x"))
                .isEqualTo("s3://bucket/prefix/a@b.parquet and http://host:8080/x");
    }

    @Test
    void pemPrivateKeysAreMaskedByShapeAndByValueLineByLine() {
        String pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n"
                + "-----END PRIVATE KEY-----\n";
        SecretRedactor none = SecretRedactor.fromEnvironment(Map.of());
        assertThat(none.redact("bad key: " + pem)).doesNotContain("MIIEvQ").doesNotContain("BKcwgg")
                .contains("-----BEGIN PRIVATE KEY-----***-----END PRIVATE KEY-----");
        SecretRedactor known = SecretRedactor.fromEnvironment(Map.of("KAFKA_CONSUMER_SSL_KEY_PEM", pem));
        assertThat(known.redact("line: MIIEvQIBADANBgkqhkiG9w0BAQEFAASC")).isEqualTo("line: ***");
        assertThat(known.redact("BKcwggSjAgEAAoIBAQC7 was the key")).isEqualTo("*** was the key");
    }

    @Test
    void shortValuesAreNotKnownLiterallyBecauseStartupRefusesThem() {
        SecretRedactor r = SecretRedactor.fromEnvironment(Map.of("DUCKLAKE_RDS_PASSWORD", "abc"));
        assertThat(r.toString()).contains("0 known values");
        assertThat(r.redact("password='abc'")).isEqualTo("password='***'");
    }

    @Test
    void variablesThatNameWhereATokenComesFromAreNotSecrets() {
        SecretRedactor r = SecretRedactor.fromEnvironment(Map.of(
                "KAFKA_CONSUMER_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL", "https://idp.example/token"));
        assertThat(r.redact("fetching https://idp.example/token")).isEqualTo("fetching https://idp.example/token");
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

    /** A secret given as a file is known to the redaction like one set directly (the control: unresolved, it is not). */
    @Test
    void aSecretReadFromAFileIsMaskedLikeTheVariable() throws java.io.IOException {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("token", ".txt");
        try {
            java.nio.file.Files.writeString(file, "tok-from-a-file-9f3\n");
            Map<String, String> env = Map.of("MILLPOND_INCLUDE_VALUES_AUTH_TOKEN_FILE", file.toString());
            String line = "polling failed: the server said tok-from-a-file-9f3 is not a valid key";
            SecretRedactor resolved = SecretRedactor.fromEnvironment(
                    dev.millpond.config.SecretFiles.resolve(env).variablesOrThrow());
            assertThat(resolved.redact(line)).doesNotContain("tok-from-a-file").contains("said *** is not");
            assertThat(SecretRedactor.fromEnvironment(env).redact(line)).contains("tok-from-a-file-9f3");
        } finally {
            java.nio.file.Files.delete(file);
        }
    }
}
