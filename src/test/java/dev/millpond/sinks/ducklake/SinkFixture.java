package dev.millpond.sinks.ducklake;

import dev.millpond.convert.ConvertedBatch;
import dev.millpond.convert.JsonToArrow;
import dev.millpond.ducklake.CatalogLocation;
import dev.millpond.ducklake.S3Setting;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.sinks.FlushBatch;
import dev.millpond.testsupport.DuckDbExtensions;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.FaultRelay;
import dev.millpond.testsupport.Services;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A fresh DuckLake (Postgres catalog + S3 bucket) plus the pieces a sink test needs: sinks built from the lake's own
 * environment, metrics it can read back, Arrow batches from JSON lines, and a query connection. Closes everything.
 */
final class SinkFixture implements AutoCloseable {

    static final String TABLE = "events";

    /**
     * Rows in a flush that DuckLake writes as a parquet file: DuckDB 1.5's DuckLake keeps an insert of at most
     * {@code ducklake_default_data_inlining_row_limit} (10) rows in the catalog instead, and a test about data files
     * needs more.
     */
    static final int ABOVE_INLINING_LIMIT = 11;

    final DuckLakeStack lake = Services.newDuckLake();
    final BufferAllocator allocator = new RootAllocator();
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final MillpondMetrics metrics = new MillpondMetrics(registry, "t-" + TABLE, "");
    private final List<AutoCloseable> owned = new ArrayList<>();
    private Connection query;

    DuckLakeSinkSettings settings(Optional<String> partitionBy, Optional<String> memoryLimit, List<String> variants) {
        return new DuckLakeSinkSettings(":memory:", lake.catalog(), lake.dataPath(), "main", TABLE, lake.s3Settings(), 100, memoryLimit,
                partitionBy, variants, DuckDbExtensions.directory().toAbsolutePath(), Optional.empty());
    }

    /**
     * Settings whose catalog connection and S3 endpoint go through the given relays (offsets recorded for
     * {@code groupId}), so a test can take either dependency away under a live sink.
     */
    DuckLakeSinkSettings through(FaultRelay catalogRelay, FaultRelay s3Relay, String groupId) {
        DuckLakeSinkSettings s = recordingOffsets(groupId);
        CatalogLocation.Postgres direct = (CatalogLocation.Postgres) s.catalog();
        CatalogLocation catalog = new CatalogLocation.Postgres(catalogRelay.host(), String.valueOf(catalogRelay.port()),
                direct.database(), direct.user(), direct.password());
        List<S3Setting> s3 = s.s3Settings().stream()
                .map(x -> x.name().equals("s3_endpoint") ? new S3Setting("s3_endpoint",
                        s3Relay.endpoint()) : x)
                .toList();
        return new DuckLakeSinkSettings(s.connection(), catalog, s.dataPath(), s.schema(), s.table(), s3,
                s.maxRetryCount(), s.memoryLimit(), s.partitionBy(), s.variantSources(), s.extensionDirectory(),
                s.lakeOffsetsGroupId());
    }

    /** Settings whose flushes record their offsets for {@code groupId} in {@code _millpond_offsets}. */
    DuckLakeSinkSettings recordingOffsets(String groupId) {
        DuckLakeSinkSettings s = settings(Optional.empty(), Optional.empty(), List.of());
        return new DuckLakeSinkSettings(s.connection(), s.catalog(), s.dataPath(), s.schema(), s.table(),
                s.s3Settings(), s.maxRetryCount(), s.memoryLimit(), s.partitionBy(), s.variantSources(),
                s.extensionDirectory(), Optional.of(groupId));
    }

    DuckLakeSink sink() throws SQLException {
        return sink(settings(Optional.empty(), Optional.empty(), List.of()));
    }

    DuckLakeSink sink(DuckLakeSinkSettings settings) throws SQLException {
        return sink(settings, metrics);
    }

    DuckLakeSink sink(DuckLakeSinkSettings settings, MillpondMetrics sinkMetrics) throws SQLException {
        DuckLakeSink sink = new DuckLakeSink(settings, sinkMetrics, allocator);
        owned.add(sink);
        return sink;
    }

    /** One flush made of one Arrow batch converted from JSON objects, one per argument. */
    FlushBatch batch(String... jsonObjects) {
        List<byte[]> values = new ArrayList<>();
        for (String json : jsonObjects) {
            values.add(json.getBytes(StandardCharsets.UTF_8));
        }
        ConvertedBatch converted = new JsonToArrow(allocator).convert(values);
        return own(converted.root());
    }

    /** {@code {"id":n}} for n in [from, to), as JSON objects for {@link #batch}. */
    static String[] ids(int from, int to) {
        String[] rows = new String[to - from];
        for (int i = from; i < to; i++) {
            rows[i - from] = "{\"id\":" + i + "}";
        }
        return rows;
    }

    FlushBatch own(VectorSchemaRoot root) {
        owned.add(root);
        return new FlushBatch(root.getSchema(), List.of(root), root.getRowCount());
    }

    Connection query() throws SQLException {
        if (query == null) {
            query = lake.openQueryConnection();
        }
        return query;
    }

    long count(String sql) throws SQLException {
        try (Statement s = query().createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Rows of {@code sql}, each row's columns joined with {@code |}, SQL NULL as {@code null}. */
    List<String> rows(String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = query().createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    void execute(String sql) throws SQLException {
        try (Statement s = query().createStatement()) {
            s.execute(sql);
        }
    }

    /** Live column name → type as a fresh attachment sees it. */
    Map<String, String> columnTypes() throws SQLException {
        Map<String, String> types = new java.util.LinkedHashMap<>();
        for (String row : rows("SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = 'lake'"
                + " AND table_name = '" + TABLE + "' ORDER BY ordinal_position")) {
            String[] parts = row.split("\\|", 2);
            types.put(parts[0], parts[1]);
        }
        return types;
    }

    /** {@code millpond_variant_companions_nulled_total{column, reason}}. */
    double nulled(String column, String reason) {
        Counter c = registry.find("millpond.variant.companions.nulled").tag("column", column).tag("reason", reason)
                .counter();
        return c == null ? 0 : c.count();
    }

    double counter(String name, String label, String value) {
        Counter c = label == null ? registry.find(name).counter() : registry.find(name).tag(label, value).counter();
        return c == null ? 0 : c.count();
    }

    double errors(String type) {
        return counter("millpond.errors", "type", type);
    }

    double skipped(String reason) {
        return counter("millpond.records.skipped", "reason", reason);
    }

    @Override
    public void close() throws Exception {
        if (query != null) {
            query.close();
        }
        for (int i = owned.size() - 1; i >= 0; i--) {
            owned.get(i).close();
        }
        allocator.close();
    }
}
