package dev.millpond.app;

import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.HostileJson;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.Services;
import dev.millpond.testsupport.TestEnv;
import dev.millpond.testsupport.hoglake.HoglakeStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Blob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The records hoglake cannot land as rows, on the packaged app against the contract's test control plane: each is
 * kept whole, once, in {@code _millpond_rejects} beside the table; and a restart against a table already wider than
 * MILLPOND_MAX_NEW_COLUMNS_PER_FLUSH keeps landing rows, because the table's columns are known before the first poll.
 * (Exactly once across kill -9 is {@link HoglakeChaosIT}, whose producer mixes poison in.)
 */
class HoglakeRejectsIT {

    private static final Path LOGS = Path.of("target", "e2e-logs");
    private static final long POD_LIMIT_BYTES = 1L << 30;
    private static final Pattern FIRST_NUMBER = Pattern.compile("-?[0-9]+");
    private static final int PARTITIONS = 2;

    /**
     * A table of 11 columns, then a restart with MILLPOND_MAX_NEW_COLUMNS_PER_FLUSH=3: the new run's records need
     * none of the columns added, so every one of them lands. Before, the restarted pod counted the table as empty
     * until its first write, set aside every record as needing 10 new columns, and its offsets moved on.
     */
    @Test
    void aRestartAgainstATableWiderThanTheFlushBoundKeepsLandingRows(@TempDir Path dir) throws Exception {
        KafkaBroker kafka = Services.kafka();
        String topic = Services.uniqueName("hog-width");
        kafka.createTopic(topic, 1);
        String group = "millpond-hoglake-" + topic + "-events";
        kafka.produce(topic, 0, SampleEvents.events(0, 200));
        try (HoglakeStack hoglake = new HoglakeStack()) {
            Map<String, String> env = TestEnv.with(hoglake.environment(kafka, topic), "FLUSH_INTERVAL_MS", "500");
            try (AppProcess app = AppProcess.start(env, LOGS.resolve("hoglake-width-" + topic + "-1.log"))) {
                app.awaitCommittedToEnd(kafka, topic, group, Duration.ofSeconds(90));
                assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            }
            assertThat(hoglake.server().tableUuid(hoglake.catalog(), HoglakeStack.NAMESPACE, HoglakeStack.TABLE))
                    .isNotNull();

            kafka.produce(topic, 0, SampleEvents.events(200, 200));
            Map<String, String> narrow = TestEnv.with(env, "MILLPOND_MAX_NEW_COLUMNS_PER_FLUSH", "3");
            double setAside;
            String log;
            try (AppProcess app = AppProcess.start(narrow, LOGS.resolve("hoglake-width-" + topic + "-2.log"))) {
                app.awaitCommittedToEnd(kafka, topic, group, Duration.ofSeconds(90));
                setAside = app.metric("millpond_records_skipped_total", "reason", "column_limit").orElse(0);
                log = app.logText();
                assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            }
            assertThat(hoglake.countAndDistinct("id", dir)).as("count(*), count(DISTINCT id)")
                    .containsExactly(400L, 400L);
            assertThat(setAside).as("records set aside as too wide after the restart").isZero();
            assertThat(log).contains("Hoglake table analytics.events exists with 11 columns");
        }
    }

    /**
     * The hostile generator's records (malformed JSON, top-level non-objects, objects of thousands of keys, 5 MB
     * values, …) on two partitions, in the pod's shape (the image's 20 % heap of 1 GiB): every produced record is
     * exactly once a row or a reject, a reject holds the record's bytes whole at its partition and offset, with
     * DuckLake's columns, and the pod stays within its limit.
     */
    @Test
    void everyRecordLandsOnceAsARowOrAWholeReject(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("hostile.seed", 3L);
        int perPartition = Integer.getInteger("hostile.records", 100);
        KafkaBroker kafka = Services.kafka();
        String topic = Services.uniqueName("hog-rejects");
        kafka.createTopic(topic, PARTITIONS, HostileJson.LARGE_TOPIC_CONFIG);
        Map<Long, Produced> produced = new HashMap<>();
        long id = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            HostileJson generator = new HostileJson(seed, p);
            List<HostileJson.Value> values = new ArrayList<>();
            for (int i = 0; i < perPartition; i++) {
                values.add(i == perPartition / 2 ? generator.nextLarge(id++) : generator.next(id++));
            }
            List<Long> offsets = kafka.produce(topic, p, values.stream().map(HostileJson.Value::bytes).toList());
            for (int i = 0; i < values.size(); i++) {
                produced.put(values.get(i).id(), new Produced(values.get(i).kind(), p, offsets.get(i),
                        HostileRecordsIT.sha256(values.get(i).bytes()), values.get(i).bytes().length));
            }
        }
        try (HoglakeStack hoglake = new HoglakeStack()) {
            Map<String, String> env = TestEnv.with(hoglake.environment(kafka, topic), "FLUSH_INTERVAL_MS", "1000",
                    "MILLPOND_MEMORY_LIMIT", "1Gi");
            long peak;
            double rejected;
            String log;
            try (AppProcess app = AppProcess.start(env, LOGS.resolve("hoglake-rejects-" + topic + ".log"),
                    "-Xmx206m")) {
                app.awaitCommittedToEnd(kafka, topic, "millpond-hoglake-" + topic + "-events", Duration.ofMinutes(5));
                peak = app.peakRssBytes();
                rejected = app.metric("millpond_records_rejected_total", "reason", "json_parse").orElse(0)
                        + app.metric("millpond_records_rejected_total", "reason", "column_limit").orElse(0);
                log = app.logText();
                assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            }

            Map<Long, Integer> rows = new HashMap<>();
            for (List<Object> r : hoglake.query(HoglakeStack.TABLE, dir, "SELECT id FROM {files}")) {
                rows.merge(((Number) r.get(0)).longValue(), 1, Integer::sum);
            }
            assertThat(hoglake.query(HoglakeStack.REJECTS, dir, "SELECT column_name FROM (DESCRIBE SELECT * FROM"
                    + " {files})").stream().map(r -> r.get(0)).toList())
                    .as("the rejects table's columns are DuckLake's, in order")
                    .containsExactly("table_name", "topic", "kafka_partition", "kafka_offset", "kafka_timestamp",
                            "reason", "error", "value", "value_length", "rejected_at", "value_truncated");
            Map<Long, List<String>> rejects = new HashMap<>();
            long largestReject = 0;
            for (List<Object> r : hoglake.query(HoglakeStack.REJECTS, dir, "SELECT kafka_partition, kafka_offset,"
                    + " reason, value, value_length, value_truncated, table_name, topic FROM {files}")) {
                Blob blob = (Blob) r.get(3);
                byte[] value = blob.getBytes(1, (int) blob.length());
                Matcher m = FIRST_NUMBER.matcher(new String(value, StandardCharsets.ISO_8859_1));
                assertThat(m.find()).as("an id in a reject's value").isTrue();
                long rejectedId = Long.parseLong(m.group());
                Produced origin = produced.get(rejectedId);
                assertThat(origin).as("reject of id %d is a produced record", rejectedId).isNotNull();
                assertThat(r.get(0) + ":" + r.get(1)).as("where id %d was produced", rejectedId)
                        .isEqualTo(origin.partition() + ":" + origin.offset());
                assertThat(r.get(2)).as("reason").isIn("json_parse", "column_limit");
                assertThat(HostileRecordsIT.sha256(value)).as("the stored value of id %d is the record's bytes",
                        rejectedId).isEqualTo(origin.sha256());
                assertThat(((Number) r.get(4)).longValue()).as("value_length of id %d", rejectedId)
                        .isEqualTo(origin.length());
                assertThat(r.get(5)).as("value_truncated").isEqualTo(false);
                assertThat(r.get(6)).isEqualTo(HoglakeStack.TABLE);
                assertThat(r.get(7)).isEqualTo(topic);
                largestReject = Math.max(largestReject, origin.length());
                rejects.computeIfAbsent(rejectedId, k -> new ArrayList<>()).add((String) r.get(2));
            }

            Map<HostileJson.Kind, Map<String, Integer>> where = new EnumMap<>(HostileJson.Kind.class);
            List<String> violations = new ArrayList<>();
            for (Map.Entry<Long, Produced> e : produced.entrySet()) {
                int inRows = rows.getOrDefault(e.getKey(), 0);
                List<String> reasons = rejects.getOrDefault(e.getKey(), List.of());
                if (inRows + reasons.size() != 1) {
                    violations.add("id " + e.getKey() + " (" + e.getValue().kind() + "): " + inRows + " row(s),"
                            + " rejects " + reasons);
                }
                String place = inRows > 0 ? "row" : reasons.isEmpty() ? "LOST" : reasons.get(0);
                where.computeIfAbsent(e.getValue().kind(), k -> new TreeMap<>()).merge(place, 1, Integer::sum);
            }
            long rejectCount = rejects.values().stream().mapToLong(List::size).sum();
            System.out.printf("[hoglake rejects] seed=%d records=%d rows=%d rejects=%d peak RSS %d MB, largest"
                    + " reject %d bytes %s%n", seed, produced.size(), rows.size(), rejectCount, peak >> 20,
                    largestReject, where);
            assertThat(violations).as("records not exactly once in rows ∪ rejects").isEmpty();
            assertThat(rows.keySet()).as("rows whose id was never produced").allMatch(produced::containsKey);
            assertThat(log).contains("kept in the rejects table").doesNotContain("MILLPOND_REJECTS=false");
            assertThat(rejected).as("millpond_records_rejected_total").isEqualTo((double) rejectCount);
            assertThat(rejects.values().stream().flatMap(List::stream).distinct())
                    .as("both reasons met").contains("json_parse", "column_limit");
            assertThat(largestReject).as("a multi-megabyte reject kept whole")
                    .isGreaterThan(HostileJson.LARGE_MESSAGE_BYTES - 200_000L);
            assertThat(peak).as("peak RSS under the pod limit").isLessThan(POD_LIMIT_BYTES);
        }
    }

    private record Produced(HostileJson.Kind kind, int partition, long offset, String sha256, int length) {
    }
}
