package dev.millpond.app;

import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.LakeTopic;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The swap under a running deployment of the original: a lake that DuckDB 1.5.5 created the way the original creates
 * it (catalog format 1.0; the table from the first batch's columns plus {@code _inserted_at}, partitioned by the
 * hour of {@code _inserted_at}; rows already in it) is appended to by the packaged app, and the original's rows and
 * the app's read back together. A plain DuckDB client inserting into the same lake after the app started still
 * succeeds, and the lake-wide options are as the original left them.
 */
class OriginalLakeIT {

    private static final String PARTITION_BY = "year(_inserted_at),month(_inserted_at),day(_inserted_at),"
            + "hour(_inserted_at)";
    private static final int ORIGINAL_ROWS = 500;
    private static final int APP_ROWS = 1_000;

    @Test
    void theAppAppendsToALakeTheOriginalWroteAndLeavesItsOptionsAlone() throws Exception {
        LakeTopic setup = LakeTopic.create("original", 2);
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement()) {
            // The original's first flush: CREATE TABLE from the batch's inferred columns plus _inserted_at, then
            // ALTER TABLE SET PARTITIONED BY, then the INSERT with NOW().
            s.execute("CREATE TABLE lake.main.events (id BIGINT, uuid VARCHAR, event VARCHAR, team_id BIGINT, "
                    + "distinct_id VARCHAR, \"timestamp\" VARCHAR, amount DOUBLE, is_identified BOOLEAN, "
                    + "person_id VARCHAR, properties VARCHAR, _inserted_at TIMESTAMP WITH TIME ZONE)");
            s.execute("ALTER TABLE lake.main.events SET PARTITIONED BY (" + PARTITION_BY + ")");
            s.execute("INSERT INTO lake.main.events SELECT -1 - range, uuid()::VARCHAR, 'original', 1, 'user-0', "
                    + "'2026-11-29 12:00:00.000', 1.5, true, NULL, '{\"$browser\":\"Chrome\"}', NOW() "
                    + "FROM range(" + ORIGINAL_ROWS + ")");
        }
        assertThat(catalog(setup.lake(), "SELECT value FROM public.ducklake_metadata WHERE key = 'version'"))
                .containsExactly("1.0");
        List<String> globalOptions = catalog(setup.lake(),
                "SELECT key || '=' || value FROM public.ducklake_metadata WHERE scope IS NULL ORDER BY 1");

        setup.produce(0, SampleEvents.events(0, APP_ROWS / 2));
        setup.produce(1, SampleEvents.events(APP_ROWS / 2, APP_ROWS / 2));
        Path log = Path.of("target", "e2e-logs", "original-" + setup.topic() + ".log");
        try (AppProcess app = AppProcess.start(setup.environment(
                "DUCKLAKE_PARTITION_BY", PARTITION_BY, "MILLPOND_MEMORY_LIMIT", "1Gi"), log)) {
            app.await("every event written", Duration.ofMinutes(3),
                    () -> app.metric("millpond_records_written_total").orElse(0) >= APP_ROWS);

            try (Connection plain = setup.lake().openQueryConnection(); Statement s = plain.createStatement()) {
                // A client as the original or an analyst runs one: insertion order preserved, DuckDB's default.
                s.execute("INSERT INTO lake.main.events (id, event, _inserted_at) "
                        + "SELECT 100000 + range, 'plain client', NOW() FROM range(20000)");
                try (ResultSet rs = s.executeQuery("SELECT event = 'original' OR event = 'plain client', count(*), "
                        + "count(DISTINCT id) FROM lake.main.events GROUP BY ALL ORDER BY 1")) {
                    List<String> rows = new ArrayList<>();
                    while (rs.next()) {
                        rows.add(rs.getBoolean(1) + "|" + rs.getLong(2) + "|" + rs.getLong(3));
                    }
                    assertThat(rows).containsExactly("false|" + APP_ROWS + "|" + APP_ROWS,
                            "true|" + (ORIGINAL_ROWS + 20_000) + "|" + (ORIGINAL_ROWS + 20_000));
                }
                try (ResultSet rs = s.executeQuery("SELECT properties FROM lake.main.events WHERE id = 7")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo(
                            new com.fasterxml.jackson.databind.ObjectMapper().readTree(SampleEvents.event(7))
                                    .get("properties").toString());
                }
            }
            assertThat(app.isAlive()).isTrue();
        }
        assertThat(catalog(setup.lake(), "SELECT key || '=' || value FROM public.ducklake_metadata WHERE scope IS NULL "
                + "ORDER BY 1")).as("the lake-wide options").isEqualTo(globalOptions);
        assertThat(catalog(setup.lake(), "SELECT value FROM public.ducklake_metadata WHERE key = 'version'"))
                .containsExactly("1.0");
        assertThat(setup.lake().listDataFiles()).as("the app's files are partitioned like the original's")
                .allMatch(k -> !k.contains("/events/") || k.matches(".*/events/year=\\d{4}/month=\\d{1,2}/day=\\d{1,2}"
                        + "/hour=\\d{1,2}/[^/]+\\.parquet"));
    }

    private static List<String> catalog(DuckLakeStack lake, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = Services.postgres().connect(lake.catalogDatabase());
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }
}
