package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.IncompatibleCatalogException;
import dev.millpond.testsupport.ServiceBacked;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A catalog in a DuckLake format newer than this build's DuckDB understands (as one a newer DuckDB created or migrated
 * would be) stops the sink at startup with one clear message, and nothing is written to it — with or without
 * MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION, which only ever migrates older formats forward.
 */
@ServiceBacked
class CatalogFormatVersionTest {

    @Test
    void aNewerCatalogFormatIsRefusedAtStartupAndNeverWritten() throws Exception {
        try (SinkFixture fixture = new SinkFixture()) {
            DuckLakeSink first = fixture.sink();
            assertThat(first.write(fixture.batch("{\"id\":1}"))).isEqualTo(1);
            first.close();
            String current = metadata(fixture, "SELECT value FROM public.ducklake_metadata WHERE key = 'version'");
            try (Connection catalog = Services.postgres().connect(fixture.lake.catalogDatabase());
                 Statement s = catalog.createStatement()) {
                s.executeUpdate("UPDATE public.ducklake_metadata SET value = '9.9' WHERE key = 'version'");
            }
            String snapshots = metadata(fixture, "SELECT count(*) FROM public.ducklake_snapshot");

            assertThatThrownBy(fixture::sink)
                    .isInstanceOf(IncompatibleCatalogException.class)
                    .hasMessageContaining("is format version 9.9")
                    .hasMessageContaining("DuckDB v1.5.5 cannot read or write")
                    .hasMessageContaining("this build's DuckDB writes format " + current)
                    .hasMessageContaining("nothing was written")
                    .hasMessageNotContaining("AUTOMATIC_MIGRATION") // DuckLake's own advice is wrong for a newer one
                    .hasMessageNotContaining("password")
                    .satisfies(e -> assertThat(e.getMessage().lines()).hasSize(1));
            DuckLakeSinkSettings migrating = migrating(fixture.settings(Optional.empty(),
                    Optional.empty(), List.of()));
            assertThatThrownBy(() -> fixture.sink(migrating))
                    .isInstanceOf(IncompatibleCatalogException.class)
                    .hasMessageContaining("is format version 9.9")
                    .hasMessageContaining("Only DuckLake versions")
                    .hasMessageContaining(current) // the formats this build supports, as DuckLake lists them
                    .hasMessageContaining("nothing was written");

            assertThat(metadata(fixture, "SELECT count(*) FROM public.ducklake_snapshot")).isEqualTo(snapshots);
            assertThat(metadata(fixture, "SELECT value FROM public.ducklake_metadata WHERE key = 'version'"))
                    .isEqualTo("9.9");
        }
    }

    static DuckLakeSinkSettings migrating(DuckLakeSinkSettings s) {
        return new DuckLakeSinkSettings(s.connection(), s.catalog(), s.dataPath(), s.schema(), s.table(),
                s.s3Settings(), s.maxRetryCount(), s.memoryLimit(), s.partitionBy(), s.variantSources(),
                s.extensionDirectory(), s.lakeOffsetsGroupId(), s.landing(), s.resources(), true);
    }

    /** Read the catalog database directly, as an operator would with psql. */
    private static String metadata(SinkFixture fixture, String sql) throws SQLException {
        try (Connection catalog = Services.postgres().connect(fixture.lake.catalogDatabase());
             Statement s = catalog.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
