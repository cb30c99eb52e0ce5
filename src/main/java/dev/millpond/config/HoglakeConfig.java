package dev.millpond.config;

import java.util.List;
import java.util.Optional;

/**
 * The hoglake variable group (read only when MILLPOND_DESTINATION is hoglake).
 *
 * @param url                HOGLAKE_URL, the control plane's root ({@code /v1} is appended by the client)
 * @param catalog            HOGLAKE_CATALOG, {@code [a-z][a-z0-9_-]{0,62}}
 * @param namespace          HOGLAKE_NAMESPACE, {@code [A-Za-z_][A-Za-z0-9_-]{0,127}}
 * @param table              HOGLAKE_TABLE, same rule as the namespace
 * @param dataPath           HOGLAKE_DATA_PATH: when set, a missing catalog is created with it; an {@code s3://} URI
 * @param s3                 HOGLAKE_S3_*
 * @param partitionBy        HOGLAKE_PARTITION_BY, in order; empty means unpartitioned
 * @param maxRetryCount      HOGLAKE_MAX_RETRY_COUNT, default 8: the whole write-attempt budget
 * @param requestTimeoutSeconds HOGLAKE_REQUEST_TIMEOUT_S, default 45: per HTTP request to the catalog
 */
public record HoglakeConfig(
        String url,
        String catalog,
        String namespace,
        String table,
        Optional<String> dataPath,
        HoglakeS3 s3,
        List<HoglakePartitionField> partitionBy,
        int maxRetryCount,
        double requestTimeoutSeconds) implements DestinationConfig {

    public HoglakeConfig {
        partitionBy = List.copyOf(partitionBy);
    }

    @Override
    public Destination destination() {
        return Destination.HOGLAKE;
    }
}
