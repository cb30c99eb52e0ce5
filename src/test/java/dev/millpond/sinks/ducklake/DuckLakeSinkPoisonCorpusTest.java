package dev.millpond.sinks.ducklake;

import dev.millpond.sinks.FlushBatch;
import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No drift crashes a partition, on the real stack (docs/decisions.md): a payload that drifts in every way a
 * producer can make it drift never makes {@code write} throw; every record either lands or is counted.
 */
@ServiceBacked
class DuckLakeSinkPoisonCorpusTest {

    @Test
    void everyPoisonRecordLandsOrIsCountedAndNothingThrows() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.settings(Optional.empty(), Optional.empty(), List.of("props")));

            // Flush 1 fixes the live types: flag BOOLEAN, n BIGINT, big BIGINT, props VARCHAR.
            assertThat(sink.write(f.batch(
                    "{\"id\":1,\"flag\":true,\"n\":5,\"big\":7,\"props\":{\"x\":1}}"))).isEqualTo(1);

            // Flush 2: every kind of drift at once.
            FlushBatch poison = f.batch(
                    "{\"id\":2,\"flag\":1,\"n\":true,\"big\":123456789012345678901234,\"utm-source\":\"g\",\"Year\":2020,"
                            + "\"_inserted_at\":\"x\",\"a\":1,\"A\":2,\"props\":{\"v\":18446744073709551615}}",
                    "{\"id\":3,\"flag\":0,\"n\":\"abc\",\"big\":-99999999999999999999,\"props\":\"not json{\","
                            + "\"props_variant\":\"spoof\",\"YEAR\":1}",
                    "{\"id\":4,\"flag\":2.5,\"n\":12,\"big\":42,\"props\":null}");
            assertThat(sink.write(poison)).isEqualTo(3);

            // Flush 3: the flips go back; the mismatches recorded on flush 2 do not linger.
            assertThat(sink.write(f.batch("{\"id\":5,\"flag\":false,\"n\":6,\"big\":8,\"props\":{}}"))).isEqualTo(1);

            assertThat(f.count("SELECT count(*) FROM lake.events")).isEqualTo(5);
            assertThat(f.columnTypes()).containsEntry("flag", "BOOLEAN").containsEntry("n", "BIGINT")
                    .containsEntry("big", "BIGINT").containsEntry("props", "VARCHAR").containsEntry("a", "BIGINT")
                    // DuckDB 1.5's DuckLake creates the VARIANT companion column (1.4.4's refused it).
                    .containsEntry("props_variant", "VARIANT")
                    .doesNotContainKeys("utm-source", "Year", "YEAR", "A");
            assertThat(f.rows("SELECT id, flag, n, big, a, props FROM lake.events ORDER BY id")).containsExactly(
                    "1|true|5|7|null|{\"x\":1}",
                    // Inference typed the drifted columns (flag 1/0/2.5 → DOUBLE; n, big → VARCHAR); alignment casts
                    // each to the live type with DuckDB's rules: any non-zero DOUBLE is true; n "true"/"abc" and
                    // big's out-of-int64 texts are no BIGINT and become NULL.
                    "2|true|null|null|1|{\"v\":18446744073709551615}",
                    "3|false|null|null|null|not json{",
                    "4|true|12|42|null|null",
                    "5|false|6|8|null|{}");

            assertThat(f.skipped("unsafe_field_name")).isEqualTo(1);
            assertThat(f.skipped("reserved_field_name")).isEqualTo(3); // Year, _inserted_at, YEAR
            assertThat(f.skipped("duplicate_field_name")).isEqualTo(1);
            assertThat(f.counter("millpond.variant.companion.columns.dropped", null, null)).isEqualTo(1);
            // n and big nulled values in flush 2: once per column per batch, not per value.
            assertThat(f.errors("column_coercion")).isEqualTo(2);
            // Refused SET DATA TYPE in flush 2 (flag, n, big: all narrowing); the VARIANT companion is made, not refused.
            assertThat(f.errors("schema")).isEqualTo(3);
            assertThat(f.skipped("variant_companion_collision")).isZero();
        }
    }

    @Test
    void aBatchMadeOnlyOfCompanionCollisionsIsSkippedAndCounted() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink(f.settings(Optional.empty(), Optional.empty(), List.of("props")));

            assertThat(sink.write(f.batch("{\"Props_Variant\":1}", "{\"props_variant\":\"x\"}"))).isZero();

            assertThat(f.skipped("variant_companion_collision")).isEqualTo(2);
            assertThat(f.counter("millpond.variant.companion.columns.dropped", null, null)).isEqualTo(1);
            assertThat(f.count("SELECT count(*) FROM information_schema.tables WHERE table_catalog = 'lake'"
                    + " AND table_name = 'events'")).isZero();
        }
    }

    @Test
    void aBatchWhoseOnlyKeysAreUnsafeOrReservedWritesNothingAndCountsEachKey() throws Exception {
        try (SinkFixture f = new SinkFixture()) {
            DuckLakeSink sink = f.sink();

            assertThat(sink.write(f.batch("{\"utm-source\":\"x\",\"hour\":3}"))).isZero();

            assertThat(f.skipped("unsafe_field_name")).isEqualTo(1);
            assertThat(f.skipped("reserved_field_name")).isEqualTo(1);
        }
    }
}
