package dev.millpond.config;

import dev.millpond.maintenance.MaintenanceSettings;
import dev.millpond.maintenance.PushgatewayTiming;
import dev.millpond.maintenance.cli.MaintenanceCli;
import dev.millpond.maintenance.metrics.CatalogMetricsCli;
import dev.millpond.testsupport.TestEnv;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/configuration.md against the code. The variables the writer and its tools read are taken from the code itself:
 * each reader of the environment runs against a map that records every name it asks for (with every optional
 * feature turned on, so every branch reads; nothing reads a variable through Quarkus's own configuration, which
 * {@code ConfigDoorTest} enforces), and the name-shaped string literals of the main sources
 * cover the branches no run here reaches (the exporter's daemon, which needs a live lake). Every such variable must
 * have a row in the reference, and every row must name such a variable. A literal default in a row must be the one
 * the code applies: in an environment that sets the variable (its feature on), setting it to its documented default
 * instead of leaving it unset must change nothing a reader returns.
 */
class ConfigurationReferenceTest {

    private static final Path REFERENCE = Path.of("docs/configuration.md");
    private static final String PASSTHROUGH = Env.PASSTHROUGH_PREFIX + "*";

    /** Environment-variable-shaped literals in the main sources (a prefix ending in {@code _} is not a variable). */
    private static final Pattern VARIABLE_LITERAL = Pattern.compile(
            "\"((?:MILLPOND|DUCKLAKE|DUCKDB|HOGLAKE|KAFKA|COMPACTION|POSTHOG|PUSHGATEWAY|OTEL|AWS)_[A-Z0-9_]*[A-Z0-9])\"");

    private static final Pattern ROW = Pattern.compile("^\\| `([A-Z][A-Z0-9_]*\\*?)` \\| ([^|]*?) \\|", Pattern.MULTILINE);
    private static final Pattern LITERAL_DEFAULT = Pattern.compile("`([^`]*)`");

    /** One row of the reference: the variable and its default when the row gives a fixed value. */
    record Documented(String name, Optional<String> defaultValue) {
    }

    /** Something that reads the environment, the environment it reads, and whether its result can be compared. */
    record Reader(String name, Map<String, String> env, Function<Map<String, String>, Object> read,
            boolean comparable) {
    }

    // ---- the environments: every optional feature on, so every branch of the loader reads its variables ----

    /** DuckLake with every optional group set; POD_NAME unset so HOSTNAME is read, AWS_REGION unset for its fallback. */
    static Map<String, String> duckLakeEverything() {
        return TestEnv.with(
                "POD_NAME", null,
                "HOSTNAME", "millpond-2",
                "MILLPOND_DESTINATION", "ducklake",
                "GROUP_ID", "a-group",
                "FLUSH_SIZE", "5000000",
                "FLUSH_INTERVAL_MS", "7000",
                "FETCH_MIN_BYTES", "65536",
                "FETCH_MAX_WAIT_MS", "250",
                "CONSUME_BATCH_SIZE", "500",
                "STATS_INTERVAL_MS", "10000",
                "KAFKA_AUTO_OFFSET_RESET", "latest",
                "BROKER_SOURCE", "msk",
                "MILLPOND_HTTP_PORT", "9000",
                "LOG_LEVEL", "DEBUG",
                "MILLPOND_LOG_FORMAT", "text",
                "DUCKLAKE_SCHEMA", "analytics",
                "DUCKLAKE_RDS_PORT", "6432",
                "DUCKLAKE_RDS_DATABASE", "catalog",
                "DUCKLAKE_RDS_USERNAME", "writer",
                "DUCKLAKE_RDS_SSLMODE", "require",
                "DUCKLAKE_MAX_RETRY_COUNT", "20",
                "DUCKLAKE_PARTITION_BY", "year(_inserted_at)",
                "DUCKDB_MEMORY_LIMIT", "300MiB",
                "DUCKDB_S3_REGION", "eu-west-1",
                "DUCKDB_S3_ENDPOINT", "minio:9000",
                "DUCKDB_S3_USE_SSL", "false",
                "DUCKDB_S3_URL_STYLE", "path",
                "MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION", "true",
                "MILLPOND_LAKE_OFFSETS", "false",
                "MILLPOND_VARIANT_COLUMNS", "properties",
                "MILLPOND_TYPED_COLUMNS", "team_id:bigint,uuid:uuid",
                "MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id",
                "MILLPOND_FILTER_VALUES", "1,2",
                "MILLPOND_FILTER_DROP_FIELD_NAME", "event",
                "MILLPOND_FILTER_DROP_VALUES", "$spam",
                "MILLPOND_SORT_BY", "team_id",
                "MILLPOND_INCLUDE_VALUES_URL", "https://allow.internal/teams",
                "MILLPOND_INCLUDE_VALUES_MODE", "authoritative",
                "MILLPOND_INCLUDE_VALUES_AUTH_HEADER_NAME", "X-Token",
                "MILLPOND_INCLUDE_VALUES_AUTH_TOKEN", "allow-token",
                "MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S", "30",
                "MILLPOND_INCLUDE_VALUES_REMOVAL_POLLS", "3",
                "MILLPOND_INCLUDE_VALUES_REQUEST_TIMEOUT_S", "5",
                "MILLPOND_INCLUDE_VALUES_STARTUP_TIMEOUT_S", "30",
                "MILLPOND_MAX_TABLE_COLUMNS", "500",
                "MILLPOND_MAX_NEW_COLUMNS_PER_FLUSH", "50",
                "MILLPOND_REJECTS", "false",
                "MILLPOND_REJECTS_MAX_VALUE_BYTES", "1000000",
                "MILLPOND_OVERLAP_WRITES", "false",
                "MILLPOND_SINK_OUTAGE_BUDGET_S", "60",
                "MILLPOND_PARTITION_REFRESH_INTERVAL_S", "30",
                "MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", "5",
                "KAFKA_CONSUMER_SECURITY_PROTOCOL", "SASL_SSL",
                "KAFKA_CONSUMER_SASL_MECHANISMS", "OAUTHBEARER",
                "AWS_DEFAULT_REGION", "eu-west-1",
                "AWS_ROLE_SESSION_NAME", "ingest",
                "POSTHOG_PROJECT_TOKEN", "phc-project-token",
                "POSTHOG_LOGS_ENDPOINT", "https://eu.i.posthog.com/i/v1/logs",
                "POSTHOG_LOGS_ALLOW_INSECURE_HTTP", "true",
                "MILLPOND_INCLUDE_VALUES_ALLOW_INSECURE_HTTP", "true",
                "MILLPOND_LOG_PAYLOAD_PREVIEW", "true",
                "MILLPOND_SERVICE_NAMESPACE", "ingest",
                "MILLPOND_SERVICE_VERSION", "sha256-abc",
                "MILLPOND_SERVICE_INSTANCE_ID", "events",
                "OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=test",
                "COMPACTION_MAX_RETRY_COUNT", "50",
                "COMPACTION_THREADS", "4",
                "COMPACTION_MEMORY_LIMIT", "2GB",
                "COMPACTION_MAX_FILES", "40",
                "COMPACTION_MAX_OUTPUTS_PER_CALL", "3",
                "DUCKLAKE_METRICS_PORT", "9200",
                "DUCKLAKE_METRICS_LIVENESS_TIMEOUT", "60",
                "DUCKLAKE_METRICS_PUSH_URL", "http://pushgateway.internal:9091/metrics/job/ducklake-metrics",
                "DUCKLAKE_METRICS_CONFIG", "/etc/queries.yaml",
                "DUCKLAKE_METRICS_DISABLE", "table_sizes",
                "DUCKLAKE_METRICS_MEMORY_LIMIT", "256MB",
                "MILLPOND_DUCKDB_EXTENSION_DIR", "/extensions",
                "MILLPOND_MEMORY_LIMIT", "1Gi",
                "MILLPOND_STOP_DEADLINE_S", "30",
                "MILLPOND_PUMP_AUTOSTART", "false",
                "MILLPOND_MAINTENANCE_DAYS", "3",
                "MILLPOND_MAINTENANCE_MEMORY_LIMIT", "256MB",
                "MILLPOND_MAINTENANCE_THREADS", "2",
                "MILLPOND_MAINTENANCE_MAX_COMPACTED_FILES", "40",
                "MILLPOND_MAINTENANCE_COMPACT_TIER1_EVERY", "15m",
                "MILLPOND_MAINTENANCE_COMPACT_TIER1_CRON", "0 */15 * * * ?",
                "MILLPOND_MAINTENANCE_COMPACT_TIER2_EVERY", "15m",
                "MILLPOND_MAINTENANCE_COMPACT_TIER2_CRON", "0 */15 * * * ?",
                "MILLPOND_MAINTENANCE_COMPACT_TIER3_EVERY", "15m",
                "MILLPOND_MAINTENANCE_COMPACT_TIER3_CRON", "0 */15 * * * ?",
                "MILLPOND_MAINTENANCE_MAINTAIN_EVERY", "15m",
                "MILLPOND_MAINTENANCE_MAINTAIN_CRON", "0 */15 * * * ?",
                "MILLPOND_MAINTENANCE_FLUSH_INLINED_EVERY", "15m",
                "MILLPOND_MAINTENANCE_FLUSH_INLINED_CRON", "0 */15 * * * ?",
                "DUCKLAKE_TENANT", "events");
    }

    /** Hoglake with every optional variable set. */
    static Map<String, String> hoglakeEverything() {
        return TestEnv.with(TestEnv.minimal(),
                "MILLPOND_DESTINATION", "hoglake",
                "HOGLAKE_URL", "http://hoglake.internal:8080",
                "HOGLAKE_ALLOW_INSECURE_HTTP", "true",
                "HOGLAKE_CATALOG", "millpond",
                "HOGLAKE_NAMESPACE", "analytics",
                "HOGLAKE_TABLE", "events",
                "HOGLAKE_DATA_PATH", "s3://lake/hoglake",
                "HOGLAKE_S3_ACCESS_KEY", "AKIAHOGLAKE",
                "HOGLAKE_S3_SECRET_KEY", "hoglake-secret",
                "HOGLAKE_S3_ENDPOINT", "http://s3.internal:9000",
                "HOGLAKE_S3_REGION", "eu-west-1",
                "HOGLAKE_PARTITION_BY", "day(timestamp)",
                "HOGLAKE_MAX_RETRY_COUNT", "4",
                "HOGLAKE_REQUEST_TIMEOUT_S", "30",
                "POSTHOG_PROJECT_TOKEN", "phc-project-token");
    }

    /** The environment's readers, each on the environments that exercise it. */
    static List<Reader> readers() {
        Map<String, String> duck = duckLakeEverything();
        Map<String, String> hog = hoglakeEverything();
        Map<String, String> noLake = new HashMap<>(Map.of("DUCKLAKE_TENANT", "events"));
        return List.of(
                new Reader("ConfigLoader (DuckLake)", duck, ConfigLoader::load, true),
                new Reader("ConfigLoader (hoglake)", hog, ConfigLoader::load, true),
                new Reader("LakeAccessConfig (the tools)", duck, LakeAccessConfig::fromEnvironment, true),
                new Reader("MaintenanceSettings (the tools)", duck, MaintenanceSettings::fromEnvironment, true),
                new Reader("OtlpLogSettings (DuckLake)", duck, env -> OtlpLogSettings.fromEnvironment(env, () -> "v"),
                        true),
                new Reader("OtlpLogSettings (hoglake)", hog, env -> OtlpLogSettings.fromEnvironment(env, () -> "v"),
                        true),
                // Which <NAME>_FILE variables are looked for (none is set here, so no file is read).
                new Reader("SecretFiles (DuckLake)", duck, SecretFiles::resolve, false),
                new Reader("SecretFiles (hoglake)", hog, SecretFiles::resolve, false),
                new Reader("CompactionDefaults (ducklake-maintenance compact)", duck,
                        CompactionDefaults::fromEnvironment, true),
                new Reader("MetricsExporterConfig (ducklake-metrics)", duck, MetricsExporterConfig::fromEnvironment,
                        true),
                new Reader("MemoryLimit", duck, MemoryLimit::fromEnvironment, true),
                new Reader("WriterProcessConfig", duck, env -> WriterProcessConfig.load(env, new Properties()), true),
                new Reader("PushgatewayTiming", duck, env -> PushgatewayTiming.start("reference", env), false),
                // Both tools end with exit code 1 at the lake's settings here (none are set), after reading their own.
                new Reader("ducklake-maintenance compact", noLake,
                        env -> MaintenanceCli.run(env, new PrintWriter(new StringWriter()), "compact", "--tier", "1"),
                        false),
                new Reader("ducklake-metrics --once", noLake, env -> CatalogMetricsCli.command(env,
                        new PrintWriter(new StringWriter())).execute("--once"), false));
    }

    // ---- the tests ----

    @Test
    void everyVariableTheCodeReadsIsDocumented() {
        Set<String> documented = documented().keySet();
        Map<String, String> undocumented = new TreeMap<>();
        readByTheCode().forEach((name, where) -> {
            if (!documented.contains(name) && !(name.startsWith(Env.PASSTHROUGH_PREFIX)
                    && documented.contains(PASSTHROUGH))) {
                undocumented.put(name, where);
            }
        });
        assertThat(undocumented).as("variables read by the code (→ where) without a row in " + REFERENCE).isEmpty();
    }

    @Test
    void everyDocumentedVariableIsReadByTheCode() {
        Map<String, String> read = readByTheCode();
        Set<String> unknown = new TreeSet<>(documented().keySet());
        unknown.removeAll(read.keySet());
        unknown.remove(PASSTHROUGH);
        assertThat(unknown).as("rows of " + REFERENCE + " naming a variable nothing reads").isEmpty();
        assertThat(read.keySet()).as("the passthrough is read").anyMatch(n -> n.startsWith(Env.PASSTHROUGH_PREFIX));
    }

    @Test
    void documentedDefaultsAreTheOnesTheCodeApplies() {
        Map<String, Documented> documented = documented();
        List<Reader> readers = readers();
        Map<Reader, Recording> recordings = new LinkedHashMap<>();
        readers.forEach(r -> recordings.put(r, Recording.of(r.read(), r.env())));

        Set<String> checked = new TreeSet<>();
        List<String> wrong = new ArrayList<>();
        for (Documented doc : documented.values()) {
            if (doc.defaultValue().isEmpty()) {
                continue;
            }
            String name = doc.name();
            String value = doc.defaultValue().get();
            for (Reader reader : readers) {
                Recording recording = recordings.get(reader);
                // Compared where the environment sets the variable, i.e. where its feature is on: a default means
                // nothing where the feature is off (a mode without its URL is refused, whatever the mode).
                if (reader.comparable() && reader.env().containsKey(name) && recording.names().contains(name)) {
                    Map<String, String> without = TestEnv.with(reader.env(), name, null);
                    Map<String, String> withDefault = TestEnv.with(reader.env(), name, value);
                    Object unset = outcome(reader.read(), without);
                    Object set = outcome(reader.read(), withDefault);
                    if (!Objects.equals(unset, set)) {
                        wrong.add(name + "=" + value + " changes what " + reader.name() + " returns: " + set
                                + " instead of " + unset);
                    }
                    checked.add(name);
                }
                String recorded = recording.defaults().get(name);
                if (recorded != null) {
                    if (!recorded.equals(value)) {
                        wrong.add(name + ": documented " + value + ", " + reader.name() + " falls back to " + recorded);
                    }
                    checked.add(name);
                }
            }
        }
        assertThat(wrong).as("documented defaults the code does not apply").isEmpty();

        Set<String> unchecked = new TreeSet<>();
        documented.values().stream().filter(d -> d.defaultValue().isPresent()).map(Documented::name)
                .filter(n -> !checked.contains(n)).forEach(unchecked::add);
        assertThat(unchecked).as("documented defaults no reader here could check").isEmpty();
    }

    /** A control for the check above: a default that is not the code's is caught. */
    @Test
    void aWrongDefaultChangesWhatTheLoaderReturns() {
        Map<String, String> env = TestEnv.with(duckLakeEverything(), "FLUSH_SIZE", null);
        assertThat(ConfigLoader.load(env)).isEqualTo(ConfigLoader.load(TestEnv.with(env)));
        assertThat(ConfigLoader.load(TestEnv.with(env, "FLUSH_SIZE", "104857600")))
                .isEqualTo(ConfigLoader.load(env));
        assertThat(ConfigLoader.load(TestEnv.with(env, "FLUSH_SIZE", "104857601")))
                .isNotEqualTo(ConfigLoader.load(env));
    }

    /** The README's minimum configurations load as they are, and use only documented variables. */
    @Test
    void theReadmesMinimumConfigurationsLoad() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        int section = readme.indexOf("## Minimum configuration");
        assertThat(section).as("README section").isNotNegative();
        String text = readme.substring(section, readme.indexOf("\n## ", section + 1));
        Matcher block = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL).matcher(text);
        List<Map<String, String>> configurations = new ArrayList<>();
        while (block.find()) {
            Map<String, String> env = new HashMap<>();
            for (String line : block.group(1).split("\n")) {
                String assignment = line.replaceAll("\\s+#.*$", "").strip();
                if (!assignment.isEmpty() && !assignment.startsWith("#")) {
                    int eq = assignment.indexOf('=');
                    env.put(assignment.substring(0, eq), assignment.substring(eq + 1));
                }
            }
            configurations.add(env);
        }
        assertThat(configurations).hasSize(2);
        Set<Destination> destinations = new TreeSet<>();
        for (Map<String, String> env : configurations) {
            assertThat(documented().keySet()).containsAll(env.keySet());
            destinations.add(ConfigLoader.load(env).destination());
        }
        assertThat(destinations).containsExactly(Destination.DUCKLAKE, Destination.HOGLAKE);
    }

    // ---- what the code reads ----

    /** Every variable the code reads → one place that reads it. */
    static Map<String, String> readByTheCode() {
        Map<String, String> read = new TreeMap<>();
        for (Reader reader : readers()) {
            Recording.of(reader.read(), reader.env()).names().forEach(n -> read.putIfAbsent(n, reader.name()));
        }
        literalsInMainSources().forEach(read::putIfAbsent);
        return read;
    }

    /** A reader's result, or the message of the configuration error it failed with (compared like a result). */
    private static Object outcome(Function<Map<String, String>, Object> read, Map<String, String> env) {
        try {
            return read.apply(env);
        } catch (ConfigException e) {
            return "ConfigException: " + e.getMessage();
        }
    }

    /** The names a reader asked for, and the fallbacks it passed to {@code getOrDefault}. */
    record Recording(Set<String> names, Map<String, String> defaults) {
        static Recording of(Function<Map<String, String>, Object> read, Map<String, String> env) {
            RecordingEnv recording = new RecordingEnv(env);
            read.apply(recording); // an environment here that fails to load fails the test: it would read less
            return new Recording(Set.copyOf(recording.names), Map.copyOf(recording.defaults));
        }
    }

    /** The environment as a map that remembers which names were asked for; iterating it (secret scans) is not asking. */
    static final class RecordingEnv extends AbstractMap<String, String> {
        private final Map<String, String> vars;
        final Set<String> names = new TreeSet<>();
        final Map<String, String> defaults = new TreeMap<>();

        RecordingEnv(Map<String, String> vars) {
            this.vars = vars;
        }

        @Override
        public String get(Object key) {
            names.add((String) key);
            return vars.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            names.add((String) key);
            return vars.containsKey(key);
        }

        @Override
        public String getOrDefault(Object key, String fallback) {
            names.add((String) key);
            if (fallback != null) {
                defaults.put((String) key, fallback);
            }
            return vars.getOrDefault(key, fallback);
        }

        @Override
        public Set<Entry<String, String>> entrySet() {
            return vars.entrySet();
        }
    }

    /** Variable-shaped string literals of src/main/java → the file that holds one. */
    static Map<String, String> literalsInMainSources() {
        Map<String, String> found = new TreeMap<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = VARIABLE_LITERAL.matcher(Files.readString(file));
                while (m.find()) {
                    found.putIfAbsent(m.group(1), file.getFileName().toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    // ---- the reference ----

    /** The rows of docs/configuration.md's tables; each variable has exactly one. */
    static Map<String, Documented> documented() {
        String text;
        try {
            text = Files.readString(REFERENCE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Documented> rows = new TreeMap<>();
        List<String> duplicates = new ArrayList<>();
        Matcher row = ROW.matcher(text);
        while (row.find()) {
            String cell = row.group(2).strip();
            Matcher literal = LITERAL_DEFAULT.matcher(cell);
            Optional<String> value = literal.matches() ? Optional.of(literal.group(1)) : Optional.empty();
            if (rows.put(row.group(1), new Documented(row.group(1), value)) != null) {
                duplicates.add(row.group(1));
            }
        }
        assertThat(duplicates).as("variables documented twice in " + REFERENCE).isEmpty();
        assertThat(rows).as("rows in " + REFERENCE).hasSizeGreaterThan(50);
        return rows;
    }
}
