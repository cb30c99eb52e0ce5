package dev.millpond.maintenance;

import dev.millpond.testsupport.DuckDbSql;
import dev.millpond.testsupport.ServiceBacked;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compaction of a table with a VARIANT column (as MILLPOND_VARIANT_COLUMNS companions are), on DuckDB 1.5.5: the
 * merged file holds every value as it was — objects, arrays, nesting, integers up to INT64_MAX, negatives, doubles,
 * strings, booleans and nulls, each row's VARIANT compared as text and by its shredded fields.
 */
@ServiceBacked
class VariantCompactionTest {

    private static final int FLUSHES = 12;
    private static final int ROWS = 50;

    @Test
    void compactionKeepsEveryVariantValue() throws Exception {
        try (MaintenanceFixture lake = new MaintenanceFixture();
             Connection q = lake.lake.openQueryConnection()) {
            DuckDbSql.execute(q, "ALTER TABLE lake.main.events ADD COLUMN props VARIANT");
            for (int f = 0; f < FLUSHES; f++) {
                // Rows differ in shape from flush to flush, so the shredded layouts of the files differ too.
                DuckDbSql.execute(q, "INSERT INTO lake.main.events (id, flush, props) SELECT " + f + " * 1000 + r, "
                        + f + ", (CASE WHEN r % 7 = 0 THEN NULL ELSE json_object('n', r, 'max', 9223372036854775807 - r,"
                        + " 'neg', -r - " + f + ", 'ratio', r / 3.0, 'ok', r % 2 = 0, 'none', NULL, 's', 'v' || r,"
                        + " 'nested', json_object('arr', json_array(r, 'x', 1.5, NULL, json_array(" + f + ")),"
                        + " 'deep', json_object('k" + (f % 3) + "', r))) END)::JSON::VARIANT FROM range(" + ROWS
                        + ") t(r)");
            }
            String before = fingerprint(q);
            assertThat(lake.inBand(CompactionTier.ONE)).isEqualTo(FLUSHES);

            try (LakeSession session = lake.session("test compact variant")) {
                Compaction.Result merged = new LakeMaintenance(session).compact(new CompactionOptions(
                        CompactionTier.ONE, Optional.empty(), false, 2, "1GB", 80, OptionalInt.empty()));
                assertThat(merged.tablesFailed()).isZero();
                assertThat(merged.inputFiles()).isEqualTo(FLUSHES);
            }

            assertThat(lake.liveFileSizes()).hasSize(1);
            assertThat(fingerprint(q)).isEqualTo(before);
        }
    }

    /** Row count, non-null VARIANTs, and order-independent checksums of each row's VARIANT as text and by field. */
    private static String fingerprint(Connection q) throws Exception {
        List<String> parts = new java.util.ArrayList<>();
        try (Statement s = q.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*), count(props), "
                + "sum(hash(id, props::VARCHAR)::HUGEINT), "
                + "sum(hash(id, props.max::BIGINT, props.neg::BIGINT, props.ratio::DOUBLE, props.s::VARCHAR, "
                + "props.nested.arr::VARCHAR, props.nested.deep::VARCHAR)::HUGEINT) FROM lake.main.events")) {
            rs.next();
            for (int i = 1; i <= 4; i++) {
                parts.add(rs.getString(i));
            }
        }
        assertThat(parts.get(1)).isNotEqualTo("0");
        return String.join("/", parts);
    }
}
