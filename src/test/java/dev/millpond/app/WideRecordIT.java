package dev.millpond.app;

import dev.millpond.config.LandingLimits;
import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.LakeTopic;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wide-record incident on the packaged app, run as the StatefulSet runs it (-Xmx614m, defaults,
 * FLUSH_INTERVAL_MS=3000): ordinary events with one record of 5,000 distinct top-level keys among them. The record
 * is kept whole in the rejects table (reason column_limit), the table stays within the width bound, every other
 * event lands once, and the process's peak RSS stays under the pod's 1 GiB limit. {@code -Dwide.events=N} (default
 * 3,000) and {@code -Dwide.keys=K} (default 5,000) scale it; the time to land everything is printed, not asserted.
 */
class WideRecordIT {

    private static final long POD_LIMIT_BYTES = 1L << 30;
    private static final int PARTITIONS = 4;

    @Test
    void aRecordWithThousandsOfKeysIsKeptAsARejectAndTheTableStaysWithinItsBound() throws Exception {
        int events = Integer.getInteger("wide.events", 3_000);
        int keys = Integer.getInteger("wide.keys", 5_000);
        LakeTopic setup = LakeTopic.create("wide", PARTITIONS);
        long id = 0;
        int perPartition = events / PARTITIONS;
        byte[] wide = wideRecord(keys);
        for (int p = 0; p < PARTITIONS; p++) {
            List<byte[]> values = new ArrayList<>(SampleEvents.events(id, perPartition));
            id += perPartition;
            if (p == 0) {
                values.add(perPartition / 2, wide);
            } else if (p == 1) {
                values.add(10, "not json".getBytes(StandardCharsets.UTF_8));
                values.add(20, "[1,2]".getBytes(StandardCharsets.UTF_8));
            }
            setup.produce(p, values);
        }
        long normal = id;
        Map<String, String> env = setup.environment("FLUSH_INTERVAL_MS", "3000");
        long started = System.nanoTime();
        long peak;
        try (AppProcess app = AppProcess.start(env, DuckLakeEndToEndIT.LOGS.resolve(setup.topic() + ".log"), "-Xmx614m")) {
            Map<Integer, Long> end = setup.endOffsets();
            app.await("every partition committed to its end", Duration.ofMinutes(5),
                    () -> setup.committedOffsets("millpond-" + setup.topic() + "-events").equals(end));
            double seconds = (System.nanoTime() - started) / 1e9;
            peak = app.peakRssBytes();
            System.out.printf("[wide] events=%d keys=%d landed in %.1f s from process start, peak RSS %d MB%n", normal,
                    keys, seconds, peak >> 20);
            assertThat(app.metric("millpond_records_skipped_total", "reason", "column_limit")).hasValue(1);
            assertThat(app.metric("millpond_records_rejected_total", "reason", "column_limit")).hasValue(1);
            assertThat(app.metric("millpond_records_rejected_total", "reason", "json_parse")).hasValue(2);
            assertThat(app.logText()).contains("first at partition 0 offset " + perPartition / 2);
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();
        }
        assertThat(peak).as("peak RSS under the pod limit").isLessThan(POD_LIMIT_BYTES);
        try (Connection c = setup.lake().openQueryConnection(); Statement s = c.createStatement()) {
            assertThat(one(s, "SELECT count(*) FROM lake.main.events")).isEqualTo(normal);
            assertThat(one(s, "SELECT count(DISTINCT id) FROM lake.main.events")).isEqualTo(normal);
            assertThat(one(s, "SELECT count(*) FROM information_schema.columns WHERE table_catalog = 'lake'"
                    + " AND table_name = 'events'")).isLessThanOrEqualTo(LandingLimits.DEFAULT_MAX_TABLE_COLUMNS);
            assertThat(one(s, "SELECT count(*) FROM lake.main._millpond_rejects WHERE reason = 'column_limit'"
                    + " AND kafka_partition = 0 AND kafka_offset = " + perPartition / 2 + " AND value_length = "
                    + wide.length + " AND NOT value_truncated")).isEqualTo(1);
            try (ResultSet rs = s.executeQuery("SELECT value FROM lake.main._millpond_rejects"
                    + " WHERE reason = 'column_limit'")) {
                rs.next();
                assertThat(HostileRecordsIT.sha256(rs.getBytes(1))).as("kept whole")
                        .isEqualTo(HostileRecordsIT.sha256(wide));
            }
            assertThat(one(s, "SELECT count(*) FROM lake.main._millpond_rejects WHERE reason = 'json_parse'"
                    + " AND kafka_partition = 1")).isEqualTo(2);
        }
    }

    static byte[] wideRecord(int keys) {
        StringBuilder b = new StringBuilder("{\"id\":-1");
        for (int i = 0; i < keys; i++) {
            b.append(",\"w").append(i).append("\":").append(i);
        }
        return b.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    private static long one(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
