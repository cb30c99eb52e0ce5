package dev.millpond.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The {@code KAFKA_CONSUMER_*} passthrough, translated rather than passed on blindly (docs/decisions.md,
 * "librdkafka passthrough keys are translated, not ignored"). {@code KAFKA_CONSUMER_<X>} names the
 * librdkafka property {@code <x>} (lower case, {@code _} → {@code .}); this class is the one table that maps
 * each librdkafka consumer property to its Java-client equivalent:
 *
 * <ul>
 *   <li><b>same</b>: identical name and meaning in both clients, passed through;</li>
 *   <li><b>renamed</b>: a different Java name with the same meaning;</li>
 *   <li><b>special</b>: translated by code below (SASL credentials → {@code sasl.jaas.config}, PEM files →
 *       PEM trust/key stores, fetch-buffer bound, values whose encoding differs);</li>
 *   <li><b>owned</b>: set by the pump; a passthrough is overridden with one warning;</li>
 *   <li><b>dropped</b>: librdkafka-only tuning with no effect on what is consumed or committed, dropped with
 *       one warning;</li>
 *   <li><b>refused</b>: no Java equivalent and dropping it would change semantics (security, auth, delivery);
 *       startup fails naming the variable.</li>
 * </ul>
 * A name not in the table is not a librdkafka consumer property (librdkafka itself refuses unknown
 * properties at startup), so it fails startup too.
 */
public final class LibrdkafkaTranslation {

    public static final String PREFIX = "KAFKA_CONSUMER_";

    /**
     * librdkafka's consumer fetch-queue bound ({@code queued.max.messages.kbytes}) that the original defaulted
     * to 16384 KiB. The Java consumer has no separate pre-fetch queue: it keeps at most one completed fetch per
     * partition, and each fetch returns at most {@code max.partition.fetch.bytes} for a partition. So the bound
     * maps to {@code max.partition.fetch.bytes = kbytes × 1024}, and the default 16384 KiB becomes 16 MiB.
     */
    public static final int DEFAULT_QUEUED_MAX_MESSAGES_KBYTES = 16384;

    /**
     * librdkafka's default {@code isolation.level}; the Java consumer's is {@code read_uncommitted}, which would
     * hand the pump the records of aborted transactions.
     */
    public static final String DEFAULT_ISOLATION_LEVEL = "read_committed";

    enum Kind { SAME, RENAMED, SPECIAL, OWNED, DROPPED, REFUSED }

    record Rule(Kind kind, String javaKey, String note) {
    }

    private static final Map<String, Rule> TABLE;

    static {
        Map<String, Rule> t = new TreeMap<>();
        // Identical name and meaning.
        for (String k : List.of("bootstrap.servers", "client.id", "client.rack", "check.crcs",
                "fetch.max.bytes", "metadata.max.age.ms", "reconnect.backoff.ms", "reconnect.backoff.max.ms",
                "retry.backoff.ms", "retry.backoff.max.ms", "socket.connection.setup.timeout.ms",
                "metadata.recovery.strategy", "metadata.recovery.rebootstrap.trigger.ms", "client.dns.lookup",
                "allow.auto.create.topics", "ssl.key.password", "ssl.keystore.password",
                "sasl.kerberos.service.name", "sasl.kerberos.min.time.before.relogin")) {
            t.put(k, new Rule(Kind.SAME, k, null));
        }
        // Same meaning, other name.
        t.put("metadata.broker.list", new Rule(Kind.RENAMED, "bootstrap.servers", null));
        t.put("socket.timeout.ms", new Rule(Kind.RENAMED, "request.timeout.ms", null));
        // Translated by code.
        for (String k : List.of("security.protocol", "sasl.mechanisms", "sasl.mechanism", "sasl.username",
                "sasl.password", "ssl.ca.location", "ssl.ca.pem", "ssl.certificate.location", "ssl.key.location",
                "ssl.certificate.pem", "ssl.key.pem", "ssl.keystore.location",
                "ssl.endpoint.identification.algorithm", "enable.ssl.certificate.verification",
                "queued.max.messages.kbytes", "fetch.message.max.bytes", "max.partition.fetch.bytes",
                "connections.max.idle.ms", "socket.send.buffer.bytes", "socket.receive.buffer.bytes",
                "auto.offset.reset", "isolation.level")) {
            t.put(k, new Rule(Kind.SPECIAL, null, null));
        }
        // Owned by the pump: overridden, as in the original.
        for (String k : List.of("group.id", "enable.auto.commit", "auto.commit.enable", "enable.auto.offset.store",
                "fetch.min.bytes", "fetch.wait.max.ms", "max.poll.interval.ms", "statistics.interval.ms",
                "auto.commit.interval.ms", "offset.store.method")) {
            t.put(k, new Rule(Kind.OWNED, null, "set by millpond"));
        }
        // librdkafka-only tuning: no effect on what is consumed or committed.
        for (String k : List.of("socket.keepalive.enable", "socket.nagle.disable", "log.connection.close",
                "log.queue", "log.thread.name", "debug", "enable.random.seed", "api.version.request",
                "api.version.request.timeout.ms", "api.version.fallback.ms", "broker.version.fallback",
                "broker.address.ttl", "broker.address.family", "socket.max.fails", "socket.blocking.max.ms",
                "reconnect.backoff.jitter.ms", "topic.metadata.refresh.interval.ms",
                "topic.metadata.refresh.fast.interval.ms", "topic.metadata.refresh.fast.cnt",
                "topic.metadata.refresh.sparse", "topic.metadata.propagation.max.ms", "topic.blacklist",
                "message.max.bytes", "message.copy.max.bytes", "receive.message.max.bytes",
                "max.in.flight.requests.per.connection", "max.in.flight", "queued.min.messages",
                "fetch.queue.backoff.ms", "fetch.error.backoff.ms", "enable.partition.eof",
                "coordinator.query.interval.ms", "consume.callback.max.messages", "session.timeout.ms",
                "heartbeat.interval.ms", "partition.assignment.strategy", "group.instance.id",
                "group.protocol", "group.protocol.type", "group.remote.assignor", "ssl.ca.certificate.stores",
                "enable.metrics.push")) {
            t.put(k, new Rule(Kind.DROPPED, null, "librdkafka-only tuning, no Java client equivalent"));
        }
        // No Java equivalent, and dropping would change security or authentication.
        String tls = "no Java client equivalent (OpenSSL-specific TLS setting); dropping it would weaken or change"
                + " the TLS handshake";
        for (String k : List.of("ssl.cipher.suites", "ssl.curves.list", "ssl.sigalgs.list", "ssl.crl.location",
                "ssl.providers", "ssl.engine.location", "ssl.engine.id")) {
            t.put(k, new Rule(Kind.REFUSED, null, tls));
        }
        String krb = "Kerberos ticket handling differs in the Java client (JAAS Krb5LoginModule); not supported";
        for (String k : List.of("sasl.kerberos.principal", "sasl.kerberos.keytab", "sasl.kerberos.kinit.cmd")) {
            t.put(k, new Rule(Kind.REFUSED, null, krb));
        }
        String oauth = "only MSK IAM OAUTHBEARER (sasl.mechanisms=OAUTHBEARER alone) is supported";
        for (String k : List.of("sasl.oauthbearer.config", "enable.sasl.oauthbearer.unsecure.jwt",
                "sasl.oauthbearer.method", "sasl.oauthbearer.client.id", "sasl.oauthbearer.client.secret",
                "sasl.oauthbearer.client.credentials.client.id", "sasl.oauthbearer.client.credentials.client.secret",
                "sasl.oauthbearer.scope", "sasl.oauthbearer.extensions", "sasl.oauthbearer.token.endpoint.url",
                "sasl.oauthbearer.grant.type", "sasl.oauthbearer.assertion.algorithm",
                "sasl.oauthbearer.assertion.private.key.file", "sasl.oauthbearer.assertion.private.key.passphrase",
                "sasl.oauthbearer.assertion.private.key.pem", "sasl.oauthbearer.assertion.file",
                "sasl.oauthbearer.assertion.claim.aud", "sasl.oauthbearer.assertion.claim.exp.seconds",
                "sasl.oauthbearer.assertion.claim.iss", "sasl.oauthbearer.assertion.claim.jti.include",
                "sasl.oauthbearer.assertion.claim.nbf.seconds", "sasl.oauthbearer.assertion.claim.sub",
                "sasl.oauthbearer.assertion.jwt.template.file", "sasl.oauthbearer.metadata.authentication.type",
                "https.ca.location", "https.ca.pem")) {
            t.put(k, new Rule(Kind.REFUSED, null, oauth));
        }
        for (String k : List.of("plugin.library.paths", "interceptors")) {
            t.put(k, new Rule(Kind.REFUSED, null, "librdkafka plugins have no Java client equivalent"));
        }
        TABLE = Collections.unmodifiableMap(t);
    }

    private static final Set<String> SECURITY_PROTOCOLS = Set.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");
    private static final Set<String> SASL_MECHANISMS =
            Set.of("GSSAPI", "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER");

    /** The result of translating the passthrough. */
    public record Result(Map<String, String> properties, Optional<String> saslMechanism, List<String> warnings) {
        public Result {
            properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
            warnings = List.copyOf(warnings);
        }
    }

    private LibrdkafkaTranslation() {
    }

    /** {@code KAFKA_CONSUMER_SECURITY_PROTOCOL} → {@code security.protocol}. */
    public static String librdkafkaKey(String variable) {
        return variable.substring(PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
    }

    /** The librdkafka passthrough in the environment: librdkafka key → variable name, sorted by variable. */
    static Map<String, String> passthroughVariables(Map<String, String> env) {
        Map<String, String> byKey = new LinkedHashMap<>();
        new TreeMap<>(env).keySet().stream().filter(v -> v.startsWith(PREFIX)).forEach(v -> {
            String key = librdkafkaKey(v);
            String previous = byKey.putIfAbsent(key, v);
            if (previous != null) {
                throw new ConfigException(previous + " and " + v + " both set librdkafka property " + key);
            }
        });
        return byKey;
    }

    /** Translate every {@code KAFKA_CONSUMER_*} variable of {@code env}. */
    public static Result translate(Map<String, String> env) {
        return new Translator(env).run();
    }

    private static final class Translator {
        private final Map<String, String> env;
        private final Map<String, String> vars; // librdkafka key -> variable name
        private final Map<String, String> props = new LinkedHashMap<>();
        private final Map<String, String> setBy = new LinkedHashMap<>(); // java key -> variable name
        private final List<String> warnings = new ArrayList<>();

        Translator(Map<String, String> env) {
            this.env = env;
            this.vars = passthroughVariables(env);
        }

        private String value(String key) {
            return env.get(vars.get(key));
        }

        private void put(String variable, String javaKey, String value) {
            String previous = setBy.putIfAbsent(javaKey, variable);
            if (previous != null && !previous.equals(variable)) {
                throw new ConfigException(previous + " and " + variable + " both set the Java client property "
                        + javaKey + "; set only one");
            }
            props.put(javaKey, value);
        }

        Result run() {
            if (vars.containsKey("auto.offset.reset")) {
                throw new ConfigException(
                        "KAFKA_CONSUMER_AUTO_OFFSET_RESET is not honored — use KAFKA_AUTO_OFFSET_RESET");
            }
            for (Map.Entry<String, String> e : vars.entrySet()) {
                String key = e.getKey();
                String variable = e.getValue();
                Rule rule = TABLE.get(key);
                if (rule == null) {
                    throw new ConfigException(variable + " (librdkafka property '" + key
                            + "') is not a librdkafka consumer property millpond can translate to the Java client");
                }
                switch (rule.kind()) {
                    case SAME, RENAMED -> put(variable, rule.javaKey(), env.get(variable));
                    case OWNED -> warnings.add(variable + " (" + key + ") is ignored: " + rule.note());
                    case DROPPED -> warnings.add(variable + " (" + key + ") is dropped: " + rule.note());
                    case REFUSED -> throw new ConfigException(variable + " (librdkafka property '" + key
                            + "') cannot be honored: " + rule.note());
                    case SPECIAL -> { } // below, in a fixed order
                }
            }
            securityProtocol();
            Optional<String> mechanism = saslMechanism();
            saslCredentials(mechanism);
            truststore();
            keystore();
            endpointIdentification();
            certificateVerification();
            fetchBound();
            idleAndBuffers();
            isolationLevel();
            return new Result(props, mechanism, warnings);
        }

        private void securityProtocol() {
            if (!vars.containsKey("security.protocol")) {
                return;
            }
            String variable = vars.get("security.protocol");
            String v = value("security.protocol").strip().toUpperCase(Locale.ROOT);
            if (!SECURITY_PROTOCOLS.contains(v)) {
                throw new ConfigException(variable + " must be one of plaintext, ssl, sasl_plaintext, sasl_ssl, got '"
                        + value("security.protocol") + "'");
            }
            put(variable, "security.protocol", v);
        }

        /** {@code sasl.mechanisms} (and its librdkafka alias {@code sasl.mechanism}) → {@code sasl.mechanism}. */
        private Optional<String> saslMechanism() {
            String chosen = null;
            for (String key : List.of("sasl.mechanisms", "sasl.mechanism")) {
                if (!vars.containsKey(key)) {
                    continue;
                }
                String variable = vars.get(key);
                String v = value(key).strip().toUpperCase(Locale.ROOT);
                if (!SASL_MECHANISMS.contains(v)) {
                    throw new ConfigException(variable + " must be one of GSSAPI, PLAIN, SCRAM-SHA-256, SCRAM-SHA-512,"
                            + " OAUTHBEARER, got '" + value(key) + "'");
                }
                if (chosen != null && !chosen.equals(v)) {
                    throw new ConfigException("KAFKA_CONSUMER_SASL_MECHANISMS and KAFKA_CONSUMER_SASL_MECHANISM"
                            + " disagree ('" + chosen + "' vs '" + v + "'); set only KAFKA_CONSUMER_SASL_MECHANISMS");
                }
                if (key.equals("sasl.mechanism")) {
                    warnings.add(variable + " is librdkafka's alias of sasl.mechanisms; prefer"
                            + " KAFKA_CONSUMER_SASL_MECHANISMS");
                }
                if (chosen == null) {
                    setBy.put("sasl.mechanism", variable);
                    props.put("sasl.mechanism", v);
                }
                chosen = v;
            }
            return Optional.ofNullable(chosen);
        }

        private void saslCredentials(Optional<String> mechanism) {
            boolean user = vars.containsKey("sasl.username");
            boolean pass = vars.containsKey("sasl.password");
            if (!user && !pass) {
                return;
            }
            if (user != pass) {
                throw new ConfigException("KAFKA_CONSUMER_SASL_USERNAME and KAFKA_CONSUMER_SASL_PASSWORD must be set"
                        + " together");
            }
            String m = mechanism.orElse("GSSAPI");
            String module;
            if (m.equals("PLAIN")) {
                module = "org.apache.kafka.common.security.plain.PlainLoginModule";
            } else if (m.startsWith("SCRAM-")) {
                module = "org.apache.kafka.common.security.scram.ScramLoginModule";
            } else {
                throw new ConfigException("KAFKA_CONSUMER_SASL_USERNAME/KAFKA_CONSUMER_SASL_PASSWORD are only used"
                        + " with KAFKA_CONSUMER_SASL_MECHANISMS=PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 (got " + m + ")");
            }
            put(vars.get("sasl.username"), "sasl.jaas.config", module + " required username=\""
                    + jaasEscape(value("sasl.username")) + "\" password=\"" + jaasEscape(value("sasl.password"))
                    + "\";");
        }

        /** {@code ssl.ca.location} / {@code ssl.ca.pem} → a PEM truststore (the Java client reads PEM itself). */
        private void truststore() {
            if (vars.containsKey("ssl.ca.location") && vars.containsKey("ssl.ca.pem")) {
                throw new ConfigException("KAFKA_CONSUMER_SSL_CA_LOCATION and KAFKA_CONSUMER_SSL_CA_PEM are mutually"
                        + " exclusive");
            }
            if (vars.containsKey("ssl.ca.location")) {
                String variable = vars.get("ssl.ca.location");
                String path = value("ssl.ca.location").strip();
                if (path.equals("probe")) {
                    warnings.add(variable + "=probe: the Java client uses the JVM's default trust store");
                    return;
                }
                if (Files.isDirectory(Path.of(path))) {
                    throw new ConfigException(variable + " names a directory; the Java client needs one PEM file"
                            + " holding the CA certificate(s)");
                }
                put(variable, "ssl.truststore.location", path);
                put(variable, "ssl.truststore.type", "PEM");
            } else if (vars.containsKey("ssl.ca.pem")) {
                String variable = vars.get("ssl.ca.pem");
                put(variable, "ssl.truststore.certificates", value("ssl.ca.pem"));
                put(variable, "ssl.truststore.type", "PEM");
            }
        }

        /**
         * Client certificate. librdkafka keeps certificate and key in separate PEM files; the Java client's PEM
         * keystore file must hold both, so separate files are read here and passed as
         * {@code ssl.keystore.certificate.chain} + {@code ssl.keystore.key} (the key must be PKCS#8). A PKCS#12
         * {@code ssl.keystore.location} maps to {@code ssl.keystore.type=PKCS12}.
         */
        private void keystore() {
            boolean certLoc = vars.containsKey("ssl.certificate.location");
            boolean keyLoc = vars.containsKey("ssl.key.location");
            boolean certPem = vars.containsKey("ssl.certificate.pem");
            boolean keyPem = vars.containsKey("ssl.key.pem");
            boolean p12 = vars.containsKey("ssl.keystore.location");
            int sources = (certLoc || keyLoc ? 1 : 0) + (certPem || keyPem ? 1 : 0) + (p12 ? 1 : 0);
            if (sources > 1) {
                throw new ConfigException("Only one client-certificate source may be set: KAFKA_CONSUMER_SSL_CERTIFICATE_"
                        + "LOCATION/_KEY_LOCATION, KAFKA_CONSUMER_SSL_CERTIFICATE_PEM/_KEY_PEM or"
                        + " KAFKA_CONSUMER_SSL_KEYSTORE_LOCATION");
            }
            if (p12) {
                String variable = vars.get("ssl.keystore.location");
                put(variable, "ssl.keystore.location", value("ssl.keystore.location"));
                put(variable, "ssl.keystore.type", "PKCS12");
            } else if (certLoc || keyLoc) {
                if (certLoc != keyLoc) {
                    throw new ConfigException("KAFKA_CONSUMER_SSL_CERTIFICATE_LOCATION and"
                            + " KAFKA_CONSUMER_SSL_KEY_LOCATION must be set together");
                }
                String certVar = vars.get("ssl.certificate.location");
                String keyVar = vars.get("ssl.key.location");
                String cert = value("ssl.certificate.location").strip();
                String key = value("ssl.key.location").strip();
                if (cert.equals(key)) {
                    put(certVar, "ssl.keystore.location", cert);
                } else {
                    put(certVar, "ssl.keystore.certificate.chain", readFile(certVar, cert));
                    put(keyVar, "ssl.keystore.key", readFile(keyVar, key));
                }
                put(certVar, "ssl.keystore.type", "PEM");
            } else if (certPem || keyPem) {
                if (certPem != keyPem) {
                    throw new ConfigException("KAFKA_CONSUMER_SSL_CERTIFICATE_PEM and KAFKA_CONSUMER_SSL_KEY_PEM must be"
                            + " set together");
                }
                String certVar = vars.get("ssl.certificate.pem");
                put(certVar, "ssl.keystore.certificate.chain", value("ssl.certificate.pem"));
                put(vars.get("ssl.key.pem"), "ssl.keystore.key", value("ssl.key.pem"));
                put(certVar, "ssl.keystore.type", "PEM");
            }
        }

        private static String readFile(String variable, String path) {
            try {
                return Files.readString(Path.of(path));
            } catch (IOException | RuntimeException e) {
                throw new ConfigException(variable + ": cannot read '" + path + "' (" + e.getClass().getSimpleName()
                        + ")");
            }
        }

        /** librdkafka {@code none} disables hostname verification; the Java client spells that as empty. */
        private void endpointIdentification() {
            String key = "ssl.endpoint.identification.algorithm";
            if (!vars.containsKey(key)) {
                return;
            }
            String variable = vars.get(key);
            String v = value(key).strip().toLowerCase(Locale.ROOT);
            switch (v) {
                case "none" -> put(variable, key, "");
                case "https" -> put(variable, key, "https");
                default -> throw new ConfigException(variable + " must be 'none' or 'https', got '" + value(key) + "'");
            }
        }

        /**
         * The Java client always verifies the broker certificate chain (turning that off needs a custom
         * {@code ssl.engine.factory.class}); we refuse rather than connect with weaker checks than configured —
         * or than the operator believes. {@code true} is the Java behaviour and needs nothing.
         */
        private void certificateVerification() {
            String key = "enable.ssl.certificate.verification";
            if (!vars.containsKey(key)) {
                return;
            }
            String variable = vars.get(key);
            Boolean b = librdkafkaBool(value(key));
            if (b == null) {
                throw new ConfigException(variable + " must be true or false, got '" + value(key) + "'");
            }
            if (!b) {
                throw new ConfigException(variable + "=false cannot be honored: the Java client always verifies the"
                        + " broker certificate. Provide the broker's CA with KAFKA_CONSUMER_SSL_CA_LOCATION (and"
                        + " KAFKA_CONSUMER_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM=none to skip only the hostname check)");
            }
        }

        /**
         * {@code queued.max.messages.kbytes} (original default 16384) → {@code max.partition.fetch.bytes} in
         * bytes; librdkafka's {@code fetch.message.max.bytes} and {@code max.partition.fetch.bytes} are the same
         * Java key. At most one of the three may be set.
         */
        private void fetchBound() {
            if (vars.containsKey("queued.max.messages.kbytes")) {
                String variable = vars.get("queued.max.messages.kbytes");
                long kb = PythonInt.parseLong(variable, value("queued.max.messages.kbytes"));
                if (kb < 1 || kb > 2097151) {
                    throw new ConfigException(variable + " must be between 1 and 2097151, got '"
                            + value("queued.max.messages.kbytes") + "'");
                }
                put(variable, "max.partition.fetch.bytes", Long.toString(kb * 1024));
            }
            for (String key : List.of("fetch.message.max.bytes", "max.partition.fetch.bytes")) {
                if (vars.containsKey(key)) {
                    String variable = vars.get(key);
                    put(variable, "max.partition.fetch.bytes",
                            Integer.toString(PythonInt.parseInt(variable, value(key))));
                }
            }
        }

        /** Both clients name the same two levels; librdkafka matches them case-insensitively. */
        private void isolationLevel() {
            String key = "isolation.level";
            if (!vars.containsKey(key)) {
                return;
            }
            String variable = vars.get(key);
            String v = value(key).strip().toLowerCase(Locale.ROOT);
            if (!v.equals("read_committed") && !v.equals("read_uncommitted")) {
                throw new ConfigException(variable + " must be read_committed or read_uncommitted, got '" + value(key)
                        + "'");
            }
            put(variable, key, v);
        }

        /** librdkafka uses 0 for "disabled"/"system default" where the Java client uses -1. */
        private void idleAndBuffers() {
            translateZeroToMinusOne("connections.max.idle.ms", "connections.max.idle.ms");
            translateZeroToMinusOne("socket.send.buffer.bytes", "send.buffer.bytes");
            translateZeroToMinusOne("socket.receive.buffer.bytes", "receive.buffer.bytes");
        }

        private void translateZeroToMinusOne(String key, String javaKey) {
            if (!vars.containsKey(key)) {
                return;
            }
            String variable = vars.get(key);
            long v = PythonInt.parseLong(variable, value(key));
            put(variable, javaKey, Long.toString(v == 0 ? -1 : v));
        }
    }

    static Boolean librdkafkaBool(String raw) {
        return switch (raw.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1" -> Boolean.TRUE;
            case "false", "0" -> Boolean.FALSE;
            default -> null;
        };
    }

    /** Inside a double-quoted JAAS option value, backslash and double quote are escaped with a backslash. */
    static String jaasEscape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** The table, for documentation and tests: librdkafka key → kind. */
    static Map<String, Rule> table() {
        return TABLE;
    }
}
