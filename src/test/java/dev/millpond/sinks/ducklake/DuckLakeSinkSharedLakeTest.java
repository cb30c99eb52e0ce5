package dev.millpond.sinks.ducklake;

import dev.millpond.config.LandingLimits;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lake the sink shares with other writers (the original, ad-hoc DuckDB clients): the sink bounds its row groups on
 * its own table and leaves the lake-wide options alone, so a plain DuckDB client — insertion order preserved, as by
 * default — still inserts into the sink's table and into tables of its own after the sink started.
 */
@ServiceBacked
class DuckLakeSinkSharedLakeTest {

    private static final DuckDbResources BUDGET = new DuckDbResources(2, 8_192);

    @Test
    void aPlainClientInsertsAfterTheSinkStartedAndTheLakeWideOptionsAreUnchanged() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            f.execute("CREATE TABLE lake.main.theirs (id BIGINT)");
            List<String> global = options(f, "scope IS NULL");

            DuckLakeSink sink = f.sink(budgeted(f));
            sink.write(f.batch(SinkFixture.ids(0, SinkFixture.ABOVE_INLINING_LIMIT)));
            sink.close();
            DuckLakeSink restarted = f.sink(budgeted(f));
            List<String> tableOptions = tableOptions(f);
            restarted.write(f.batch(SinkFixture.ids(100, 100 + SinkFixture.ABOVE_INLINING_LIMIT)));

            try (Connection plain = f.lake.openQueryConnection(); Statement s = plain.createStatement()) {
                assertThat(current(plain, "preserve_insertion_order")).isEqualTo("true");
                s.execute("INSERT INTO lake.main.events (id) SELECT range FROM range(1000, 21000)");
                s.execute("INSERT INTO lake.main.theirs SELECT range FROM range(20000)");
                s.execute("CREATE TABLE lake.main.new_one AS SELECT range AS id FROM range(20000)");
            }

            assertThat(options(f, "scope IS NULL")).as("lake-wide options").isEqualTo(global);
            assertThat(tableOptions).as("set once, on the sink's tables only")
                    .containsExactly("_millpond_rejects:data_inlining_row_limit=0", "events:parquet_compression=zstd",
                            "events:parquet_row_group_size=8192");
            assertThat(tableOptions(f)).as("a restart writes no option").isEqualTo(tableOptions);
            assertThat(f.count("SELECT count(*) FROM lake.main.events"))
                    .isEqualTo(2L * SinkFixture.ABOVE_INLINING_LIMIT + 20_000);
            assertThat(maxRowGroupRows(f, "theirs")).as("the other table keeps DuckLake's row groups")
                    .isEqualTo(20_000);
            assertThat(maxRowGroupRows(f, "events")).as("the sink's table, the plain client's file too")
                    .isEqualTo(8_192);
        }
    }

    @Test
    void aLakeWhoseRowGroupsAreAlreadySmallGetsNoTableOption() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            f.execute("CALL lake.set_option('parquet_row_group_size', '4096')");
            DuckLakeSink sink = f.sink(budgeted(f));
            sink.write(f.batch(SinkFixture.ids(0, SinkFixture.ABOVE_INLINING_LIMIT)));

            assertThat(tableOptions(f)).as("the rejects table's and the codec, neither about row groups")
                    .containsExactly("_millpond_rejects:data_inlining_row_limit=0", "events:parquet_compression=zstd");
            assertThat(options(f, "scope IS NULL")).contains("parquet_row_group_size=4096");
        }
    }

    @Test
    void theSinksFilesAreZstdWhileTheOtherTablesKeepDuckLakesSnappy() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(budgeted(f));
            sink.write(f.batch(SinkFixture.ids(0, SinkFixture.ABOVE_INLINING_LIMIT)));
            f.execute("CREATE TABLE lake.main.theirs AS SELECT range AS id FROM range(20000)");

            assertThat(codecs(f, "events")).containsExactly("ZSTD");
            assertThat(codecs(f, "theirs")).containsExactly("SNAPPY");
        }
    }

    @Test
    void aCodecChosenForTheLakeOrTheSchemaStands() throws Exception {
        for (String scope : List.of("", ", schema => 'main'")) {
            try (SinkFixture f = new SinkFixture()) {
                f.execute("CALL lake.set_option('parquet_compression', 'lz4_raw'" + scope + ")");
                DuckLakeSink sink = f.sink(budgeted(f));
                sink.write(f.batch(SinkFixture.ids(0, SinkFixture.ABOVE_INLINING_LIMIT)));

                assertThat(tableOptions(f)).as(scope).noneMatch(o -> o.contains("parquet_compression"));
                assertThat(codecs(f, "events")).as(scope).containsExactly("LZ4_RAW");
            }
        }
    }

    /** The distinct codecs of the table's parquet files' column chunks, as the files themselves say. */
    private static List<String> codecs(SinkFixture f, String table) throws SQLException {
        List<String> codecs = new ArrayList<>();
        for (String file : f.rows("SELECT data_file FROM ducklake_list_files('lake', '" + table + "')")) {
            for (String codec : f.rows("SELECT DISTINCT compression::VARCHAR FROM parquet_metadata('" + file + "')")) {
                if (!codecs.contains(codec)) {
                    codecs.add(codec);
                }
            }
        }
        return codecs;
    }

    private static DuckLakeSinkSettings budgeted(SinkFixture f) {
        DuckLakeSinkSettings s = f.settings(Optional.empty(), Optional.empty(), List.of());
        return new DuckLakeSinkSettings(s.connection(), s.catalog(), s.dataPath(), s.schema(), s.table(),
                s.s3Settings(), s.maxRetryCount(), s.memoryLimit(), s.partitionBy(), s.variantSources(),
                s.extensionDirectory(), s.lakeOffsetsGroupId(), LandingLimits.DEFAULTS, Optional.of(BUDGET));
    }

    /** {@code key=value} rows of the catalog's {@code ducklake_metadata} matching {@code where}, read with psql's eyes. */
    private static List<String> options(SinkFixture f, String where) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection catalog = Services.postgres().connect(f.lake.catalogDatabase());
             Statement s = catalog.createStatement();
             ResultSet rs = s.executeQuery("SELECT key || '=' || value FROM public.ducklake_metadata WHERE " + where
                     + " ORDER BY 1")) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    /** {@code table:key=value} for every table-scoped option of the catalog. */
    private static List<String> tableOptions(SinkFixture f) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection catalog = Services.postgres().connect(f.lake.catalogDatabase());
             Statement s = catalog.createStatement();
             ResultSet rs = s.executeQuery("SELECT DISTINCT t.table_name || ':' || m.key || '=' || m.value"
                     + " FROM public.ducklake_metadata m JOIN public.ducklake_table t ON t.table_id = m.scope_id"
                     + " WHERE m.scope = 'table' ORDER BY 1")) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    static long maxRowGroupRows(SinkFixture f, String table) throws SQLException {
        long max = 0;
        for (String file : f.rows("SELECT data_file FROM ducklake_list_files('lake', '" + table + "')")) {
            max = Math.max(max, f.count("SELECT max(row_group_num_rows) FROM parquet_metadata('" + file + "')"));
        }
        return max;
    }

    private static String current(Connection c, String setting) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT current_setting('" + setting + "')::VARCHAR")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
