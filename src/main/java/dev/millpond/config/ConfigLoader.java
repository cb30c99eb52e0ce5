package dev.millpond.config;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the environment into a {@link MillpondConfig}, with the original's variable names, defaults,
 * validation and messages (docs/decisions.md, "Same names and shapes as the original"). Every rule about a
 * variable lives in this package.
 *
 * <p>The loader composes per-group parsers: the core group, then exactly one destination group (chosen by
 * MILLPOND_DESTINATION; the other destination's variables are never read), then the record-handling group,
 * then the Kafka client properties (which need the table for the default group id and client id).
 */
public final class ConfigLoader {
    private static final System.Logger LOG = System.getLogger(ConfigLoader.class.getName());

    static final Pattern PARTITION_BY = Pattern.compile("[a-zA-Z0-9_(),\\s]+");
    private static final Pattern ORDINAL = Pattern.compile("-([0-9]+)$");

    static final String DEFAULT_POD_NAME = "millpond-0";
    static final int MIN_CONSUME_BATCH_SIZE = 10;
    static final int DEFAULT_HTTP_PORT = 8000;
    static final int MAX_POLL_INTERVAL_MS = 600_000;

    /** One parser per destination group. */
    private static final Map<Destination, Function<Env, DestinationConfig>> DESTINATION_GROUPS;

    static {
        Map<Destination, Function<Env, DestinationConfig>> m = new EnumMap<>(Destination.class);
        m.put(Destination.DUCKLAKE, ConfigLoader::parseDuckLake);
        m.put(Destination.HOGLAKE, HoglakeConfigParser::parse);
        DESTINATION_GROUPS = m;
    }

    /** The record-handling group (MILLPOND_TYPED_COLUMNS, MILLPOND_FILTER_*, MILLPOND_SORT_BY). */
    private static final Function<Env, RecordHandlingConfig> RECORD_HANDLING = RecordHandlingParser::parse;

    private ConfigLoader() {
    }

    /**
     * Load from the process environment (secret files read, {@link ProcessEnvironment}) and log the passthrough
     * warnings once.
     */
    public static MillpondConfig fromSystemEnvironment() {
        MillpondConfig config = load(ProcessEnvironment.variables());
        config.kafka().warnings().forEach(w -> LOG.log(System.Logger.Level.WARNING, w));
        return config;
    }

    /**
     * Validate {@code env} (the process environment) into a config. Pure: reads nothing else, except the
     * client certificate/key files named by the passthrough, and logs nothing.
     *
     * @throws ConfigException naming the variable at fault
     */
    public static MillpondConfig load(Map<String, String> envVars) {
        return load(new Env(envVars));
    }

    /** The variables a successful {@link #load(Map)} of {@code envVars} reads, present or not. */
    static Set<String> variablesRead(Map<String, String> envVars) {
        Env env = new Env(envVars);
        load(env);
        return env.consulted();
    }

    private static MillpondConfig load(Env env) {

        String bootstrapServers = env.required("KAFKA_BOOTSTRAP_SERVERS");
        String topic = env.required("KAFKA_TOPIC");
        int replicaCount = env.requiredInt("REPLICA_COUNT");
        String podName = podName(env);
        int ordinal = parseOrdinal(podName);
        if (ordinal >= replicaCount) {
            throw new ConfigException("Ordinal " + ordinal + " >= REPLICA_COUNT " + replicaCount);
        }
        Destination destination = Destination.parse(env.raw("MILLPOND_DESTINATION"));
        if (destination == Destination.HOGLAKE && VariantColumns.parse(env.raw(VariantColumns.VARIABLE)).enabled()) {
            // Checked before the hoglake group, so this mismatch is reported even when other hoglake variables are wrong.
            // The hoglake service does list a variant column type, but millpond writes its parquet files itself and
            // has no writer for variant groups: refusing says so instead of landing text where a variant was asked for.
            throw new ConfigException(VariantColumns.VARIABLE + " is DuckLake-only: millpond has no write path for"
                    + " hoglake's variant type yet (it writes properties as text there); unset it or use"
                    + " MILLPOND_DESTINATION=ducklake");
        }

        DestinationConfig destinationConfig = DESTINATION_GROUPS.get(destination).apply(env);
        String table = destinationConfig.table();

        String groupId = env.orDefaultIfEmpty("GROUP_ID", MillpondConfig.defaultGroupId(destination, topic, table));
        long flushSize = env.longKnob("FLUSH_SIZE", 104_857_600L);
        long flushIntervalMs = env.longKnob("FLUSH_INTERVAL_MS", 60_000L);
        int fetchMinBytes = env.intKnob("FETCH_MIN_BYTES", 1_048_576);
        int fetchMaxWaitMs = env.intKnob("FETCH_MAX_WAIT_MS", 500);
        int consumeBatchSize = Math.max(MIN_CONSUME_BATCH_SIZE, env.intKnob("CONSUME_BATCH_SIZE", 1000));
        long statsIntervalMs = env.longKnob("STATS_INTERVAL_MS", 5000L);
        AutoOffsetReset autoOffsetReset = AutoOffsetReset.parse(env.orDefault("KAFKA_AUTO_OFFSET_RESET", "earliest"));
        String brokerSource = env.orDefault("BROKER_SOURCE", "").strip().toLowerCase(java.util.Locale.ROOT);
        int httpPort = httpPort(env);
        LogLevel logLevel = LogLevel.parse(env.raw(LogLevel.VARIABLE));
        LogFormat logFormat = LogFormat.parse(env.raw(LogFormat.VARIABLE));
        long testPauseAfterLakeCommitMs = env.longKnob("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", 0L);
        if (testPauseAfterLakeCommitMs < 0) {
            throw new ConfigException("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS must be 0 or more, got "
                    + testPauseAfterLakeCommitMs);
        }

        java.time.Duration sinkOutageBudget = sinkOutageBudget(env);

        RecordHandlingConfig recordHandling = RECORD_HANDLING.apply(env);
        IncludeValuesConfig includeValues = IncludeValuesConfigParser.parse(env, recordHandling.keep());

        KafkaClientConfig kafka = kafkaClient(env, bootstrapServers, topic, table, ordinal, groupId,
                autoOffsetReset, fetchMinBytes, fetchMaxWaitMs);

        env.all(); // the KAFKA_CONSUMER_* passthrough counts among the variables read
        env.requireMaskableSecrets();
        return new MillpondConfig(bootstrapServers, topic, replicaCount, ordinal, podName, destination, groupId,
                flushSize, flushIntervalMs, fetchMinBytes, fetchMaxWaitMs, consumeBatchSize, statsIntervalMs,
                autoOffsetReset, brokerSource, httpPort, logLevel, logFormat, destinationConfig, recordHandling, kafka,
                includeValues, testPauseAfterLakeCommitMs, sinkOutageBudget, LandingLimits.parse(env),
                env.booleanFlag("MILLPOND_OVERLAP_WRITES", true),
                env.booleanFlag("MILLPOND_LOG_PAYLOAD_PREVIEW", false), partitionRefreshInterval(env));
    }

    static final long DEFAULT_PARTITION_REFRESH_INTERVAL_S = 60;
    static final long MAX_PARTITION_REFRESH_INTERVAL_S = 3600;

    /**
     * MILLPOND_PARTITION_REFRESH_INTERVAL_S: how often the pump re-reads the topic's partition count to take up
     * partitions added while it runs; 0 reads it only at startup (the original's behaviour). Capped at an hour, so a
     * new partition never waits longer than that for a reader.
     */
    static java.time.Duration partitionRefreshInterval(Env env) {
        long seconds = env.longKnob("MILLPOND_PARTITION_REFRESH_INTERVAL_S", DEFAULT_PARTITION_REFRESH_INTERVAL_S);
        if (seconds < 0 || seconds > MAX_PARTITION_REFRESH_INTERVAL_S) {
            throw new ConfigException("MILLPOND_PARTITION_REFRESH_INTERVAL_S must be between 0 and "
                    + MAX_PARTITION_REFRESH_INTERVAL_S + " seconds, got " + seconds);
        }
        return java.time.Duration.ofSeconds(seconds);
    }

    static final long DEFAULT_SINK_OUTAGE_BUDGET_S = 300;
    static final long MAX_SINK_OUTAGE_BUDGET_S = 3600;

    /**
     * MILLPOND_SINK_OUTAGE_BUDGET_S: how long a flush keeps being retried while the catalog or object store is
     * unreachable; 0 turns the outage mode off (the short retry ladder only). Capped at an hour: past that a restart
     * is the better way to surface the outage.
     */
    static java.time.Duration sinkOutageBudget(Env env) {
        long seconds = env.longKnob("MILLPOND_SINK_OUTAGE_BUDGET_S", DEFAULT_SINK_OUTAGE_BUDGET_S);
        if (seconds < 0 || seconds > MAX_SINK_OUTAGE_BUDGET_S) {
            throw new ConfigException("MILLPOND_SINK_OUTAGE_BUDGET_S must be between 0 and "
                    + MAX_SINK_OUTAGE_BUDGET_S + " seconds, got " + seconds);
        }
        return java.time.Duration.ofSeconds(seconds);
    }

    /** POD_NAME, else HOSTNAME, else {@code millpond-0}; an empty variable counts as unset. */
    static String podName(Env env) {
        return env.optionalNonEmpty("POD_NAME")
                .or(() -> env.optionalNonEmpty("HOSTNAME"))
                .orElse(DEFAULT_POD_NAME);
    }

    /** The StatefulSet ordinal: the trailing {@code -(\d+)} as an int ({@code x-03} → 3). */
    public static int parseOrdinal(String podName) {
        Matcher m = ORDINAL.matcher(podName);
        if (m.find()) {
            try {
                return Integer.parseInt(m.group(1));
            } catch (NumberFormatException e) {
                // falls through: too large to be an ordinal
            }
        }
        throw new ConfigException("Cannot parse ordinal from pod name '" + podName
                + "' (from POD_NAME, else HOSTNAME): expected a trailing -<number>");
    }

    /** MILLPOND_HTTP_PORT: 0–65535 (0 = ephemeral); unset, empty or blank means 8000. */
    static int httpPort(Env env) {
        String raw = env.raw("MILLPOND_HTTP_PORT");
        if (raw == null || raw.strip().isEmpty()) {
            return DEFAULT_HTTP_PORT;
        }
        int port = PythonInt.parseInt("MILLPOND_HTTP_PORT", raw);
        if (port < 0 || port > 65535) {
            throw new ConfigException("MILLPOND_HTTP_PORT must be between 0 and 65535, got '" + raw + "'");
        }
        return port;
    }

    static DuckLakeConfig parseDuckLake(Env env) {
        String table = SafeIdentifier.require("DUCKLAKE_TABLE", env.required("DUCKLAKE_TABLE"));
        String schema = SafeIdentifier.require("DUCKLAKE_SCHEMA", env.orDefaultIfEmpty("DUCKLAKE_SCHEMA", "main"));
        LakeAccess lake = LakeAccess.parse(env, true);
        int maxRetryCount = env.intKnob("DUCKLAKE_MAX_RETRY_COUNT", 100);
        if (maxRetryCount <= 0) {
            throw new ConfigException("DUCKLAKE_MAX_RETRY_COUNT must be a positive integer, got " + maxRetryCount);
        }
        Optional<String> partitionBy = env.optionalNonEmpty("DUCKLAKE_PARTITION_BY").filter(s -> !s.isBlank());
        partitionBy.ifPresent(p -> {
            if (!PARTITION_BY.matcher(p).matches()) {
                throw new ConfigException("DUCKLAKE_PARTITION_BY contains unsafe characters: '" + p
                        + "' (allowed: letters, digits, _ ( ) , and whitespace)");
            }
            if (!PartitionExpression.isWellFormed(p)) {
                throw new ConfigException("DUCKLAKE_PARTITION_BY is not a comma-separated list of columns or"
                        + " transform calls such as year(_inserted_at): '" + p + "'");
            }
        });
        VariantColumns variantColumns = VariantColumns.parse(env.raw(VariantColumns.VARIABLE));
        boolean lakeOffsets = env.booleanFlag("MILLPOND_LAKE_OFFSETS", true);
        return new DuckLakeConfig(table, schema, lake, maxRetryCount, partitionBy, variantColumns, lakeOffsets);
    }

    private static KafkaClientConfig kafkaClient(Env env, String bootstrapServers, String topic, String table,
            int ordinal, String groupId, AutoOffsetReset autoOffsetReset, int fetchMinBytes, int fetchMaxWaitMs) {
        LibrdkafkaTranslation.Result passthrough = LibrdkafkaTranslation.translate(env.all());

        Map<String, String> base = new LinkedHashMap<>();
        base.put("bootstrap.servers", bootstrapServers);
        base.put("client.id", MillpondConfig.defaultClientId(topic, table, ordinal));
        // librdkafka defaults the original relied on, where the Java client's default differs.
        base.put("max.partition.fetch.bytes",
                Long.toString(LibrdkafkaTranslation.DEFAULT_QUEUED_MAX_MESSAGES_KBYTES * 1024L));
        base.put("allow.auto.create.topics", "false");
        base.put("isolation.level", LibrdkafkaTranslation.DEFAULT_ISOLATION_LEVEL);
        base.putAll(passthrough.properties());

        Map<String, String> consumer = new LinkedHashMap<>(base);
        consumer.put("group.id", groupId);
        consumer.put("auto.offset.reset", autoOffsetReset.kafkaValue());
        consumer.put("enable.auto.commit", "false");
        consumer.put("fetch.min.bytes", Integer.toString(fetchMinBytes));
        consumer.put("fetch.max.wait.ms", Integer.toString(fetchMaxWaitMs));
        consumer.put("max.poll.interval.ms", Integer.toString(MAX_POLL_INTERVAL_MS));

        Optional<MskIamAuth> mskIam = Optional.empty();
        if (passthrough.saslMechanism().filter("OAUTHBEARER"::equals).isPresent()) {
            String region = env.optionalNonEmpty("AWS_REGION")
                    .or(() -> env.optionalNonEmpty("AWS_DEFAULT_REGION"))
                    .orElseThrow(() -> new ConfigException("AWS_REGION or AWS_DEFAULT_REGION must be set when"
                            + " KAFKA_CONSUMER_SASL_MECHANISMS=OAUTHBEARER (MSK IAM)"));
            String session = env.orDefaultIfEmpty("AWS_ROLE_SESSION_NAME", "millpond");
            mskIam = Optional.of(new MskIamAuth(region, session));
        }
        return new KafkaClientConfig(base, consumer, mskIam, passthrough.warnings());
    }
}
