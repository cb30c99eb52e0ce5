package dev.millpond.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority made with the JDK's {@code keytool} (run as a process, since the tool has no
 * public API), and the broker keystore it signs. Clients get the CA as a PEM file, as librdkafka's
 * {@code ssl.ca.location} expects. The broker certificate names {@code 127.0.0.1} and {@code localhost}, so clients
 * keep hostname verification on.
 */
public final class TestCertificateAuthority {

    private static final String PASSWORD = "test-store-pw";
    private static final Path KEYTOOL = Path.of(System.getProperty("java.home"), "bin", "keytool");

    private final Path directory;
    private final Path caKeystore;
    private final Path caPem;

    private TestCertificateAuthority(Path directory) {
        this.directory = directory;
        this.caKeystore = directory.resolve("ca.p12");
        this.caPem = directory.resolve("ca.pem");
    }

    /** A new CA (2048-bit RSA, valid two days) in {@code directory}, which must exist. */
    public static TestCertificateAuthority create(Path directory, String name) {
        TestCertificateAuthority ca = new TestCertificateAuthority(directory);
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=" + name, "-ext", "bc:c", "-keystore", ca.caKeystore.toString(),
                "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.caKeystore.toString(),
                "-storepass", PASSWORD, "-file", ca.caPem.toString());
        return ca;
    }

    /** The CA certificate, PEM encoded: what a client trusts. */
    public Path caPem() {
        return caPem;
    }

    /** A PKCS#12 keystore with a broker key and its certificate chain signed by this CA. */
    public BrokerKeystore issueBrokerKeystore() {
        Path keystore = directory.resolve("broker.p12");
        Path request = directory.resolve("broker.csr");
        Path certificate = directory.resolve("broker.crt");
        String store = keystore.toString();
        keytool("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-keystore", store, "-storetype", "PKCS12", "-storepass", PASSWORD,
                "-keypass", PASSWORD);
        keytool("-certreq", "-alias", "broker", "-keystore", store, "-storepass", PASSWORD, "-file", request.toString());
        keytool("-gencert", "-alias", "ca", "-keystore", caKeystore.toString(), "-storepass", PASSWORD,
                "-infile", request.toString(), "-outfile", certificate.toString(), "-rfc", "-validity", "2",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-ext", "ku:c=digitalSignature,keyEncipherment");
        // The CA goes in first so that keytool can build the chain when the signed reply is imported.
        keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caPem.toString(), "-keystore", store,
                "-storepass", PASSWORD);
        keytool("-importcert", "-alias", "broker", "-file", certificate.toString(), "-keystore", store,
                "-storepass", PASSWORD);
        return new BrokerKeystore(keystore, PASSWORD);
    }

    /**
     * A server certificate (for {@code 127.0.0.1} and {@code localhost}, signed by this CA) and its unencrypted
     * PKCS#8 key as PEM files, as a Postgres server takes them ({@code ssl_cert_file}, {@code ssl_key_file}; the key
     * readable by its owner only).
     */
    public ServerPem issueServerPem() {
        BrokerKeystore keystore = issueBrokerKeystore();
        try {
            java.security.KeyStore store = java.security.KeyStore.getInstance("PKCS12");
            try (var in = java.nio.file.Files.newInputStream(keystore.location())) {
                store.load(in, PASSWORD.toCharArray());
            }
            java.security.Key key = store.getKey("broker", PASSWORD.toCharArray());
            java.security.cert.Certificate certificate = store.getCertificate("broker");
            Path cert = directory.resolve("server.crt");
            Path keyFile = directory.resolve("server.key");
            java.nio.file.Files.writeString(cert, pem("CERTIFICATE", certificate.getEncoded()));
            java.nio.file.Files.writeString(keyFile, pem("PRIVATE KEY", key.getEncoded()));
            java.nio.file.Files.setPosixFilePermissions(keyFile,
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            return new ServerPem(cert, keyFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("could not read the server key back", e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + java.util.Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /** A server certificate and key, PEM encoded. */
    public record ServerPem(Path certificate, Path key) {
    }

    /** A broker's PKCS#12 keystore; the key password equals the store password. */
    public record BrokerKeystore(Path location, String password) {
    }

    private static void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(KEYTOOL.toString());
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            // Read before waiting, so a chatty keytool can never block on a full pipe.
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool did not finish in 60 s: " + command);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("keytool failed (" + process.exitValue() + "): " + command + "\n"
                        + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
