package dev.millpond.stages;

import static dev.millpond.stages.Batches.col;
import static dev.millpond.stages.Batches.root;
import static org.assertj.core.api.Assertions.assertThat;

import dev.millpond.config.PinnedType;
import dev.millpond.config.RecordHandlingConfig;
import dev.millpond.testsupport.SingleBatchArrowReader;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBDriver;
import org.junit.jupiter.api.Test;

/** The coerced uuid and timestamptz columns land in a real DuckDB as native UUID and TIMESTAMP WITH TIME ZONE. */
class DuckDbNativeTypesTest {

    @Test
    void uuidAndTimestamptzLandAsNativeTypes() throws Exception {
        Map<String, PinnedType> pins = new LinkedHashMap<>();
        pins.put("id", PinnedType.UUID);
        pins.put("ts", PinnedType.TIMESTAMPTZ);
        String uuid = "01890a5d-ac96-774b-bcce-b302099a8057";
        Properties properties = new Properties();
        properties.setProperty("autoinstall_known_extensions", "false");
        properties.setProperty("autoload_known_extensions", "false");
        try (RootAllocator allocator = new RootAllocator()) {
            RecordStages stages = new RecordStages(RecordHandlingConfig.disabled().withTypedColumns(pins),
                    Batches.metrics(), allocator);
            try (VectorSchemaRoot batch = stages.applyPerPollBatch(root(allocator,
                    col("id", String.class, uuid, null), col("ts", String.class, "2024-03-05 12:34:56.789012", null)));
                 Connection connection = new DuckDBDriver().connect("jdbc:duckdb:", properties);
                 ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
                 SingleBatchArrowReader reader = new SingleBatchArrowReader(allocator, batch)) {
                Data.exportArrayStream(allocator, reader, stream);
                connection.unwrap(DuckDBConnection.class).registerArrowStream("batch", stream);
                try (Statement st = connection.createStatement()) {
                    st.execute("SET TimeZone = 'UTC'");
                    st.execute("CREATE TABLE t AS SELECT * FROM batch");
                    Map<String, String> types = new LinkedHashMap<>();
                    try (ResultSet rs = st.executeQuery("SELECT column_name, data_type FROM information_schema.columns"
                            + " WHERE table_name = 't' ORDER BY ordinal_position")) {
                        while (rs.next()) {
                            types.put(rs.getString(1), rs.getString(2));
                        }
                    }
                    assertThat(types).containsExactly(Map.entry("id", "UUID"),
                            Map.entry("ts", "TIMESTAMP WITH TIME ZONE"));
                    try (ResultSet rs = st.executeQuery("SELECT id::VARCHAR, strftime(ts, '%Y-%m-%d %H:%M:%S.%f')"
                            + " FROM t WHERE id IS NOT NULL")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getString(1)).isEqualTo(uuid);
                        assertThat(rs.getString(2)).isEqualTo("2024-03-05 12:34:56.789012");
                    }
                }
            }
        }
    }
}
