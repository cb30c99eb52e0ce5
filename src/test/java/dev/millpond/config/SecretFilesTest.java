package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code <NAME>_FILE}: a secret read from a file, with the same rules as the variable itself. */
class SecretFilesTest {

    @TempDir
    Path dir;

    private Path file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    /** Generated secrets, with the line endings secret files come with, reach the loader as if set directly. */
    @Test
    void everySecretVariableIsReadFromItsFileWithoutTheTrailingLineBreak() throws IOException {
        Random random = new Random(32);
        for (int i = 0; i < 50; i++) {
            String secret = randomSecret(random);
            String ending = List.of("", "\n", "\r\n", "\n\n").get(random.nextInt(4));
            for (String name : SecretFiles.VARIABLES) {
                Path path = file(name + i, secret + ending);
                Map<String, String> env = TestEnv.with(name, null, name + "_FILE", path.toString());
                Map<String, String> resolved = SecretFiles.resolve(env).variablesOrThrow();
                assertThat(resolved).as(name).containsEntry(name, secret).doesNotContainKey(name + "_FILE");
            }
        }
    }

    private static String randomSecret(Random random) {
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=_-.:@ 'é✓";
        StringBuilder sb = new StringBuilder();
        int length = 4 + random.nextInt(60);
        for (int i = 0; i < length; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        // Not ending in a blank, which the 4-character rule would strip (a secret never ends in one anyway).
        return sb.toString().strip() + "x";
    }

    @Test
    void theLoaderUsesTheFilesValues() throws IOException {
        Map<String, String> env = TestEnv.with(
                "DUCKLAKE_RDS_PASSWORD", null,
                "DUCKLAKE_RDS_PASSWORD_FILE", file("pw", "from-the-file\n").toString(),
                "DUCKDB_S3_SECRET_ACCESS_KEY", null,
                "DUCKDB_S3_SECRET_ACCESS_KEY_FILE", file("key", "key+from/file=\n").toString());
        MillpondConfig config = ConfigLoader.load(SecretFiles.resolve(env).variablesOrThrow());
        DuckLakeConfig duckLake = (DuckLakeConfig) config.destinationConfig();
        assertThat(duckLake.lake().catalog().password().reveal()).isEqualTo("from-the-file");
        assertThat(duckLake.lake().s3().secretAccessKey().reveal()).isEqualTo("key+from/file=");
        // The control: without the resolution the loader does not know the password.
        assertThatThrownBy(() -> ConfigLoader.load(env)).hasMessageContaining("DUCKLAKE_RDS_PASSWORD is not set");
    }

    /** The file's value meets the variable's rules: a 3-character secret is refused, as it would be directly. */
    @Test
    void aValueFromAFileMeetsTheVariablesRules() throws IOException {
        Map<String, String> env = TestEnv.with("DUCKLAKE_RDS_PASSWORD", null,
                "DUCKLAKE_RDS_PASSWORD_FILE", file("short", "abc\n").toString());
        assertThatThrownBy(() -> ConfigLoader.load(SecretFiles.resolve(env).variablesOrThrow()))
                .hasMessageStartingWith("DUCKLAKE_RDS_PASSWORD is shorter than 4 characters");
    }

    @Test
    void bothSetIsAnErrorNamingBoth() throws IOException {
        Path path = file("pw", "from-the-file");
        SecretFiles.Resolved resolved = SecretFiles.resolve(TestEnv.with("DUCKLAKE_RDS_PASSWORD_FILE",
                path.toString()));
        assertThat(resolved.failure()).hasValueSatisfying(e -> assertThat(e.getMessage())
                .contains("DUCKLAKE_RDS_PASSWORD and DUCKLAKE_RDS_PASSWORD_FILE are both set")
                .doesNotContain("from-the-file").doesNotContain("pg-s3cr3t-pw"));
        assertThatThrownBy(resolved::variablesOrThrow).isSameAs(resolved.failure().get());
        // The variable is kept, so the redaction still knows it while startup reports the problem.
        assertThat(resolved.variables()).containsEntry("DUCKLAKE_RDS_PASSWORD", "pg-s3cr3t-pw");
    }

    @Test
    void anUnreadableFileIsOneLineNamingTheVariableAndPathNeverTheContent() throws IOException {
        Path missing = dir.resolve("missing");
        Path directory = Files.createDirectory(dir.resolve("a-directory"));
        byte[] latin1 = "pässwörd-in-latin-1".getBytes(StandardCharsets.ISO_8859_1);
        Path notUtf8 = Files.write(dir.resolve("latin1"), latin1);
        Path huge = Files.write(dir.resolve("huge"), new byte[(int) SecretFiles.MAX_BYTES + 1]);
        Map<Path, String> cases = Map.of(missing, "no such file", directory, "it is a directory",
                notUtf8, "not UTF-8 text", huge, "larger than");
        cases.forEach((path, why) -> {
            SecretFiles.Resolved resolved = SecretFiles.resolve(TestEnv.with("DUCKLAKE_RDS_PASSWORD", null,
                    "DUCKLAKE_RDS_PASSWORD_FILE", path.toString()));
            assertThat(resolved.failure()).as(why).hasValueSatisfying(e -> {
                assertThat(e.getMessage()).startsWith("DUCKLAKE_RDS_PASSWORD_FILE: cannot read the secret file "
                        + path + " (" + why);
                assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("rd-in-lat");
            });
        });
    }

    @Test
    void aBlankFileVariableCountsAsUnset() {
        Map<String, String> env = TestEnv.with("DUCKLAKE_RDS_PASSWORD_FILE", " ");
        SecretFiles.Resolved resolved = SecretFiles.resolve(env);
        assertThat(resolved.failure()).isEmpty();
        assertThat(resolved.variables()).containsEntry("DUCKLAKE_RDS_PASSWORD", "pg-s3cr3t-pw")
                .doesNotContainKey("DUCKLAKE_RDS_PASSWORD_FILE");
    }

    /**
     * The passthrough's secrets are read from files too, and leave no {@code *_FILE} key behind for it to translate;
     * other {@code *_FILE} variables are not millpond's to read (IRSA's web identity token file is the AWS SDK's).
     */
    @Test
    void passthroughSecretsAreReadAndOtherFileVariablesLeftAlone() throws IOException {
        Path password = file("sasl", "sasl-password\n");
        Map<String, String> env = TestEnv.with(
                "KAFKA_CONSUMER_SECURITY_PROTOCOL", "SASL_SSL",
                "KAFKA_CONSUMER_SASL_MECHANISMS", "SCRAM-SHA-512",
                "KAFKA_CONSUMER_SASL_USERNAME", "millpond",
                "KAFKA_CONSUMER_SASL_PASSWORD_FILE", password.toString(),
                "AWS_WEB_IDENTITY_TOKEN_FILE", "/var/run/secrets/eks.amazonaws.com/serviceaccount/token",
                "SOME_TOKEN_FILE", dir.resolve("not-read").toString());
        Map<String, String> resolved = SecretFiles.resolve(env).variablesOrThrow();
        assertThat(resolved).containsEntry("KAFKA_CONSUMER_SASL_PASSWORD", "sasl-password")
                .doesNotContainKey("KAFKA_CONSUMER_SASL_PASSWORD_FILE")
                .containsEntry("AWS_WEB_IDENTITY_TOKEN_FILE", env.get("AWS_WEB_IDENTITY_TOKEN_FILE"))
                .containsEntry("SOME_TOKEN_FILE", env.get("SOME_TOKEN_FILE"))
                .doesNotContainKeys("AWS_WEB_IDENTITY_TOKEN", "SOME_TOKEN");
        assertThat(ConfigLoader.load(resolved).kafka().consumerProperties().get("sasl.jaas.config"))
                .contains("password=\"sasl-password\"");
        assertThat(SecretFiles.accepts("KAFKA_CONSUMER_SASL_PASSWORD")).isTrue();
        assertThat(SecretFiles.accepts("KAFKA_CONSUMER_SASL_USERNAME")).isFalse();
        assertThat(SecretFiles.accepts("AWS_WEB_IDENTITY_TOKEN")).isFalse();
    }
}
