package dev.millpond.sinks.ducklake;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * MILLPOND_VARIANT_COLUMNS against this DuckLake build. DuckDB 1.4.4 itself has a VARIANT type, but the ducklake
 * extension cannot store one, so dual-write degrades to string-only exactly as the original's "ADD COLUMN fails" path.
 */
class DuckLakeSinkVariantTest {

    @Test
    void thisDuckLakeBuildRefusesVariantColumns() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            // If this starts passing, DuckLake grew VARIANT: the companion projection and uint64 guard are due.
            assertThatThrownBy(() -> f.execute("CREATE TABLE lake.main.v (v VARIANT)"))
                    .hasMessageContaining("Failed to convert DuckDB type to DuckLake - unsupported type VARIANT");
            assertThat(f.rows("SELECT CAST(CAST('{\"a\":1}' AS JSON) AS VARIANT)::VARCHAR")).containsExactly("{'a': 1}");
        }
    }

    @Test
    void aRefusedCompanionLeavesTheSourceLandingAsTextAndIsCountedEveryFlush() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.settings(Optional.empty(), Optional.empty(), List.of("props", "person")));

            sink.write(f.batch("{\"props\":{\"n\":18446744073709551615},\"other\":1}"));
            sink.write(f.batch("{\"PROPS\":\"{broken\"}"));

            assertThat(f.columnTypes()).containsOnlyKeys("props", "other", "_inserted_at");
            assertThat(f.rows("SELECT props FROM lake.events ORDER BY other NULLS LAST"))
                    .containsExactly("{\"n\":18446744073709551615}", "{broken");
            // One per source present per flush; "person" never appeared.
            assertThat(f.errors("schema")).isEqualTo(2);
        }
    }

    @Test
    void aCompanionThatExistsAsTextIsNeverWrittenByThePayload() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            f.execute("CREATE TABLE lake.main.events (props VARCHAR, props_variant VARCHAR, _inserted_at TIMESTAMPTZ)");
            DuckLakeSink sink = f.sink(f.settings(Optional.empty(), Optional.empty(), List.of("props")));

            sink.write(f.batch("{\"props\":\"{}\",\"Props_Variant\":\"poison\"}"));

            assertThat(f.rows("SELECT props, props_variant FROM lake.events")).containsExactly("{}|null");
            assertThat(f.counter("millpond.variant.companion.columns.dropped", null, null)).isEqualTo(1);
            assertThat(f.errors("schema")).isEqualTo(1);
        }
    }
}
