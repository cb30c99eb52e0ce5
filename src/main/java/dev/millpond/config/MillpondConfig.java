package dev.millpond.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The validated environment. Built only by {@link ConfigLoader#load(java.util.Map)}.
 *
 * @param bootstrapServers KAFKA_BOOTSTRAP_SERVERS
 * @param topic            KAFKA_TOPIC
 * @param replicaCount     REPLICA_COUNT
 * @param ordinal          trailing {@code -(\d+)} of the pod name
 * @param podName          POD_NAME, else HOSTNAME, else {@code millpond-0}
 * @param destination      MILLPOND_DESTINATION
 * @param groupId          GROUP_ID, or the default derived from destination, topic and table
 * @param flushSizeBytes   FLUSH_SIZE (≤ 0: flush on every non-empty iteration)
 * @param flushIntervalMs  FLUSH_INTERVAL_MS
 * @param fetchMinBytes    FETCH_MIN_BYTES
 * @param fetchMaxWaitMs   FETCH_MAX_WAIT_MS
 * @param consumeBatchSize CONSUME_BATCH_SIZE, floored at 10
 * @param statsIntervalMs  STATS_INTERVAL_MS
 * @param autoOffsetReset  KAFKA_AUTO_OFFSET_RESET
 * @param brokerSource     BROKER_SOURCE, trimmed and lower-cased
 * @param httpPort         MILLPOND_HTTP_PORT
 * @param logLevel         LOG_LEVEL
 * @param logFormat        MILLPOND_LOG_FORMAT
 * @param destinationConfig the selected destination's variable group
 * @param recordHandling   the optional record-handling stages
 * @param kafka            the Java Kafka client properties, passthrough included
 * @param includeValues    the dynamic allowlist source (MILLPOND_INCLUDE_VALUES_*)
 * @param testPauseAfterLakeCommitMs MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS, test-only, default 0: sleep between
 *                         the lake commit and the Kafka commit so a chaos test can kill the process in that window
 * @param sinkOutageBudget MILLPOND_SINK_OUTAGE_BUDGET_S, default 300 s: how long a flush is retried while the catalog
 *                         or the object store is unreachable (0: only the short retry ladder)
 * @param landing          the table-width bound and the rejects table (MILLPOND_MAX_*_COLUMNS*, MILLPOND_REJECTS*)
 * @param overlapWrites    MILLPOND_OVERLAP_WRITES, default true: write a flush on a writer thread while the next one
 *                         is consumed and converted
 * @param logPayloadPreview MILLPOND_LOG_PAYLOAD_PREVIEW, default false: whether the warning for an unparseable record
 *                         carries its first bytes (personal data, and logs are exported)
 * @param partitionRefreshInterval MILLPOND_PARTITION_REFRESH_INTERVAL_S, default 60 s: how often the pump looks for
 *                         partitions added to the topic while it runs (zero: never, as the original)
 */
public record MillpondConfig(
        String bootstrapServers,
        String topic,
        int replicaCount,
        int ordinal,
        String podName,
        Destination destination,
        String groupId,
        long flushSizeBytes,
        long flushIntervalMs,
        int fetchMinBytes,
        int fetchMaxWaitMs,
        int consumeBatchSize,
        long statsIntervalMs,
        AutoOffsetReset autoOffsetReset,
        String brokerSource,
        int httpPort,
        LogLevel logLevel,
        LogFormat logFormat,
        DestinationConfig destinationConfig,
        RecordHandlingConfig recordHandling,
        KafkaClientConfig kafka,
        IncludeValuesConfig includeValues,
        long testPauseAfterLakeCommitMs,
        java.time.Duration sinkOutageBudget,
        LandingLimits landing,
        boolean overlapWrites,
        boolean logPayloadPreview,
        java.time.Duration partitionRefreshInterval) {

    public MillpondConfig {
        Objects.requireNonNull(destinationConfig, "destinationConfig");
        Objects.requireNonNull(recordHandling, "recordHandling");
        Objects.requireNonNull(kafka, "kafka");
        Objects.requireNonNull(includeValues, "includeValues");
    }

    /** DUCKLAKE_TABLE or HOGLAKE_TABLE. */
    public String table() {
        return destinationConfig.table();
    }

    /** The {@code pipeline} metric label: {@code "{KAFKA_TOPIC}-{table}"}. */
    public String pipelineLabel() {
        return topic + "-" + table();
    }

    /** The DuckLake group; fails if another destination is selected. */
    public DuckLakeConfig ducklake() {
        if (destinationConfig instanceof DuckLakeConfig d) {
            return d;
        }
        throw new IllegalStateException("MILLPOND_DESTINATION is " + destination.wireName() + ", not ducklake");
    }

    /** DUCKDB_MEMORY_LIMIT when the destination runs DuckDB and the operator set it; it wins over the budget's. */
    public Optional<String> explicitDuckDbMemoryLimit() {
        return destinationConfig instanceof DuckLakeConfig d ? d.memoryLimit() : Optional.empty();
    }

    /** The sources MILLPOND_VARIANT_COLUMNS names when DuckLake is the destination: the companions it writes. */
    public int variantCompanions() {
        return destinationConfig instanceof DuckLakeConfig d ? d.variantColumns().sources().size() : 0;
    }

    /** The hoglake group; fails if another destination is selected. */
    public HoglakeConfig hoglake() {
        if (destinationConfig instanceof HoglakeConfig h) {
            return h;
        }
        throw new IllegalStateException("MILLPOND_DESTINATION is " + destination.wireName() + ", not hoglake");
    }

    /**
     * The GROUP_ID default. The DuckLake form is frozen (changing it loses committed offsets); other
     * destinations carry their name so a shadow deployment cannot share the offset namespace it shadows.
     */
    public static String defaultGroupId(Destination destination, String topic, String table) {
        return destination == Destination.DUCKLAKE
                ? "millpond-" + topic + "-" + table
                : "millpond-" + destination.wireName() + "-" + topic + "-" + table;
    }

    /** The original's {@code client.id}: {@code millpond-{topic}-{table}-{ordinal}}. */
    public static String defaultClientId(String topic, String table, int ordinal) {
        return "millpond-" + topic + "-" + table + "-" + ordinal;
    }
}
