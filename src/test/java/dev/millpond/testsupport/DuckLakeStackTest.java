package dev.millpond.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.duckdb.DuckDBConnection;
import org.junit.jupiter.api.Test;

/** DuckLake on the real stack: catalog in embedded PostgreSQL, Parquet data files in s3proxy. */
@ServiceBacked
class DuckLakeStackTest {

    private static final int ROWS = 1000;

    @Test
    void rowsInsertedFromAnArrowStreamLandAsParquetInS3AndAreVisibleToANewAttachment() throws Exception {
        DuckLakeStack lake = Services.newDuckLake();

        try (Connection connection = lake.openQueryConnection()) {
            DuckDbSql.execute(connection, "CREATE TABLE lake.events (id BIGINT, name VARCHAR)");
            insertFromArrow(connection, "lake.events", ROWS);
            assertThat(DuckDbSql.queryLong(connection, "SELECT count(*) FROM lake.events")).isEqualTo(ROWS);
        }

        // A second, independent attachment reads what the first committed: the catalog really is in
        // PostgreSQL and the data really is in S3, not in the first connection's memory.
        try (Connection connection = lake.openQueryConnection()) {
            assertThat(DuckDbSql.queryLong(connection, "SELECT count(*) FROM lake.events")).isEqualTo(ROWS);
            assertThat(DuckDbSql.queryLong(connection, "SELECT sum(id) FROM lake.events"))
                    .isEqualTo((long) ROWS * (ROWS - 1) / 2);
            assertThat(DuckDbSql.queryLong(connection, "SELECT count(*) FROM lake.events WHERE name = 'name-999'"))
                    .isEqualTo(1);
        }

        assertThat(lake.listDataFiles()).anySatisfy(key -> assertThat(key).startsWith(lake.dataPrefix()).endsWith(".parquet"));
        try (Stream<Path> files = Files.walk(Services.s3().dataDirectory().resolve(lake.bucket()))) {
            assertThat(files.filter(p -> p.toString().endsWith(".parquet"))).isNotEmpty();
        }
        assertThat(catalogTablesIn(lake)).isGreaterThan(0);
    }

    @Test
    void environmentNamesTheSameLakeTheQueryConnectionAttaches() {
        DuckLakeStack lake = Services.newDuckLake();

        assertThat(lake.environment())
                .containsEntry("DUCKLAKE_RDS_HOST", "127.0.0.1")
                .containsEntry("DUCKLAKE_RDS_PORT", String.valueOf(Services.postgres().port()))
                .containsEntry("DUCKLAKE_RDS_DATABASE", lake.catalogDatabase())
                .containsEntry("DUCKLAKE_RDS_USERNAME", "postgres")
                .containsEntry("DUCKLAKE_RDS_PASSWORD", Services.postgres().password())
                .containsEntry("DUCKLAKE_DATA_PATH", "s3://" + lake.bucket() + "/" + lake.dataPrefix())
                .containsEntry("DUCKLAKE_CONNECTION", ":memory:")
                .containsEntry("DUCKDB_S3_ENDPOINT", Services.s3().endpoint())
                .containsEntry("DUCKDB_S3_ACCESS_KEY_ID", Services.s3().accessKeyId())
                .containsEntry("DUCKDB_S3_SECRET_ACCESS_KEY", Services.s3().secretAccessKey())
                .containsEntry("DUCKDB_S3_USE_SSL", "false")
                .containsEntry("DUCKDB_S3_URL_STYLE", "path")
                .containsEntry("DUCKDB_S3_REGION", "us-east-1")
                .hasSize(13);
        assertThat(lake.dataPath()).endsWith("/");
    }

    /** Exports a VectorSchemaRoot as an Arrow C stream, registers it with DuckDB and inserts from it. */
    private static void insertFromArrow(Connection connection, String table, int rows) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(java.util.List.of(
                     org.apache.arrow.vector.types.pojo.Field.nullable("id", new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true)),
                     org.apache.arrow.vector.types.pojo.Field.nullable("name", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE))),
                     allocator)) {
            BigIntVector ids = (BigIntVector) root.getVector("id");
            VarCharVector names = (VarCharVector) root.getVector("name");
            root.allocateNew();
            for (int i = 0; i < rows; i++) {
                ids.setSafe(i, i);
                names.setSafe(i, ("name-" + i).getBytes(StandardCharsets.UTF_8));
            }
            root.setRowCount(rows);

            // A registered stream name stays bound to the (soon released) C struct; never reuse it.
            String streamName = Services.uniqueName("arrowbatch");
            try (SingleBatchArrowReader reader = new SingleBatchArrowReader(allocator, root);
                 ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
                Data.exportArrayStream(allocator, reader, stream);
                connection.unwrap(DuckDBConnection.class).registerArrowStream(streamName, stream);
                DuckDbSql.execute(connection, "INSERT INTO " + table + " SELECT id, name FROM " + streamName);
            }
        }
    }

    private static long catalogTablesIn(DuckLakeStack lake) throws SQLException {
        try (Connection pg = Services.postgres().connect(lake.catalogDatabase());
             Statement statement = pg.createStatement();
             ResultSet rows = statement.executeQuery(
                     "SELECT count(*) FROM information_schema.tables WHERE table_name LIKE 'ducklake%'")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
