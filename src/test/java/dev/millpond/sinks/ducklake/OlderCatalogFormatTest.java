package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.IncompatibleCatalogException;
import dev.millpond.testsupport.LegacyDuckDb;
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
 * A catalog this project's earlier releases wrote — DuckLake format 0.3, made here by DuckDB 1.4.4 itself in a JVM of
 * its own — is never migrated behind the operator's back: the sink refuses it at startup with one line naming the
 * catalog, its format and the setting that migrates it, and leaves it as it was. With
 * MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION the ATTACH migrates it to 1.0, the old rows and the new ones read back
 * together, and DuckDB 1.4.4 can no longer open it (the migration is one way).
 */
@ServiceBacked
class OlderCatalogFormatTest {

    private static final int OLD_ROWS = 50;

    @Test
    void aFormat03CatalogIsRefusedUntilTheOperatorAsksForTheMigration() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            LegacyDuckDb.onLake(f.lake, List.of(
                    "CREATE TABLE lake.main.events (id BIGINT, event VARCHAR, _inserted_at TIMESTAMPTZ)",
                    "INSERT INTO lake.main.events SELECT range, 'old', now() FROM range(" + OLD_ROWS + ")")).orThrow();
            assertThat(version(f)).isEqualTo("0.3");
            String snapshots = catalog(f, "SELECT count(*) FROM public.ducklake_snapshot");
            assertThat(f.lake.listDataFiles()).as("DuckDB 1.4.4 wrote a parquet file").hasSize(1);

            DuckLakeSinkSettings plain = f.settings(Optional.empty(), Optional.empty(), List.of());
            assertThatThrownBy(() -> f.sink(plain))
                    .isInstanceOf(IncompatibleCatalogException.class)
                    .hasMessageStartingWith("The DuckLake catalog " + plain.catalog() + " is format version 0.3")
                    .hasMessageContaining("it was not migrated and nothing was written")
                    .hasMessageContaining("Set MILLPOND_DUCKLAKE_AUTOMATIC_MIGRATION=true to migrate it in place to 1.0")
                    .hasMessageContaining("DuckDB 1.4 readers and writers of this lake lose access")
                    .hasMessageNotContaining("password")
                    .satisfies(e -> assertThat(e.getMessage().lines()).hasSize(1));
            assertThat(version(f)).as("refused, not migrated").isEqualTo("0.3");
            assertThat(catalog(f, "SELECT count(*) FROM public.ducklake_snapshot")).isEqualTo(snapshots);
            assertThat(LegacyDuckDb.onLake(f.lake, List.of("SELECT count(*) FROM lake.main.events")).orThrow().rows())
                    .as("DuckDB 1.4.4 still reads it").containsExactly(String.valueOf(OLD_ROWS));

            DuckLakeSink migrating = f.sink(CatalogFormatVersionTest.migrating(plain));
            assertThat(version(f)).isEqualTo("1.0");
            int newRows = SinkFixture.ABOVE_INLINING_LIMIT;
            assertThat(migrating.write(f.batch(SinkFixture.ids(OLD_ROWS, OLD_ROWS + newRows)))).isEqualTo(newRows);

            assertThat(f.rows("SELECT coalesce(event, 'new'), count(*), count(DISTINCT id), min(id), max(id) "
                    + "FROM lake.main.events GROUP BY ALL ORDER BY 1")).containsExactly(
                    "new|" + newRows + "|" + newRows + "|" + OLD_ROWS + "|" + (OLD_ROWS + newRows - 1),
                    "old|" + OLD_ROWS + "|" + OLD_ROWS + "|0|" + (OLD_ROWS - 1));
            // A second start on the migrated catalog needs no setting.
            f.sink(plain).close();

            LegacyDuckDb.Result legacy = LegacyDuckDb.onLake(f.lake, List.of("SELECT count(*) FROM lake.main.events"));
            assertThat(legacy.exitCode()).as("DuckDB 1.4.4 after the migration").isNotZero();
            assertThat(legacy.errors()).contains("Only DuckLake versions");
        }
    }

    private static String version(SinkFixture f) throws SQLException {
        return catalog(f, "SELECT value FROM public.ducklake_metadata WHERE key = 'version'");
    }

    /** The catalog database read directly, as an operator would with psql. */
    private static String catalog(SinkFixture f, String sql) throws SQLException {
        try (Connection c = Services.postgres().connect(f.lake.catalogDatabase());
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
