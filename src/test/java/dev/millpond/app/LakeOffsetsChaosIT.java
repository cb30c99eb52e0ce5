package dev.millpond.app;

import dev.millpond.demo.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once under kill -9, on the real stack with the packaged jar: a producer writes events with unique ids to a
 * 6-partition topic while the app is SIGKILLed at random moments and restarted, {@code chaos.kills} times (default
 * 20; the long run is {@code -Dchaos.kills=1000}, see the README). A test hook pauses between the lake commit and
 * the Kafka commit, and a third of the kills land inside that pause, where an at-least-once writer would duplicate
 * the flush. A share of the records is poison (malformed JSON, non-objects) carrying its id in the raw bytes; those
 * land in {@code _millpond_rejects} in the same commits. At the end every id is exactly once in the table or
 * exactly once in the rejects table. The kills counted inside the window are those the app's log shows landed there
 * ({@link CommitWindow}), not the ones aimed at it. The control, {@link #withoutLakeOffsetsAKillInsideTheWindowDuplicates},
 * runs the same kill with the feature off and must find duplicates, so the check is shown able to fail. Every
 * other run writes a VARIANT companion of {@code properties}, so kills also land in that write path.
 */
class LakeOffsetsChaosIT {

    private static final Path LOGS = Path.of("target", "chaos-logs");
    private static final String LAKE_AHEAD = "records already written";
    private static final int PARTITIONS = 6;

    /** Where a kill lands: anywhere after start, inside the lake→Kafka commit window, or just after a flush. */
    enum KillMoment { ANY_TIME, BETWEEN_LAKE_AND_KAFKA_COMMIT, AFTER_A_FLUSH }

    @Test
    void everyIdLandsExactlyOnceThroughRepeatedSigkills() throws Exception {
        int kills = Integer.getInteger("chaos.kills", 20);
        long seed = Long.getLong("chaos.seed", 7L);
        Random random = new Random(seed);
        KafkaBroker kafka = Services.kafka();
        DuckLakeStack lake = Services.newDuckLake();
        String topic = Services.uniqueName("chaos");
        kafka.createTopic(topic, PARTITIONS);
        Map<String, String> env = environment(kafka, lake, topic,
                Boolean.parseBoolean(System.getProperty("chaos.lakeOffsets", "true")));

        Map<KillMoment, Integer> killed = new EnumMap<>(KillMoment.class);
        int killedInsideTheWindow = 0;
        int restartsResumingFromTheLake = 0;
        long started = System.nanoTime();
        AtomicLong produced = new AtomicLong();
        AtomicLong poisoned = new AtomicLong();
        AtomicBoolean producing = new AtomicBoolean(true);
        Random poisonRandom = new Random(seed + 1);
        Thread producer = new Thread(() -> produceUntilStopped(kafka, topic, produced, poisoned, poisonRandom, producing),
                "chaos-producer");
        producer.start();
        try {
            for (int i = 0; i < kills; i++) {
                Path log = LOGS.resolve(topic + "-" + i + ".log");
                KillMoment moment = KillMoment.values()[random.nextInt(KillMoment.values().length)];
                // Every other run dual-writes properties into a VARIANT companion (a fleet turning it on and off
                // across restarts): the companion's INSERT path is killed as often as the plain one.
                try (AppProcess app = AppProcess.start(withVariant(env, i % 2 == 0), log)) {
                    killAt(moment, app, random);
                }
                killed.merge(moment, 1, Integer::sum);
                if (CommitWindow.killedInside(log)) {
                    killedInsideTheWindow++;
                }
                if (Files.readString(log).contains(LAKE_AHEAD)) {
                    restartsResumingFromTheLake++;
                }
            }
        } finally {
            producing.set(false);
            producer.join(30_000);
        }

        long expected = produced.get();
        String groupId = "millpond-" + topic + "-events";
        Path last = LOGS.resolve(topic + "-final.log");
        try (AppProcess app = AppProcess.start(withVariant(env, true), last)) {
            Map<Integer, Long> end = kafka.endOffsets(topic);
            app.await("the final run to commit every partition to its end", Duration.ofMinutes(2),
                    () -> kafka.committedOffsets(groupId, topic).equals(end));
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();
        }
        if (Files.readString(last).contains(LAKE_AHEAD)) {
            restartsResumingFromTheLake++;
        }

        long[] counts = counts(lake);
        long[] rejects = rejectCounts(lake);
        long poison = poisoned.get();
        System.out.printf("[chaos] seed=%d kills=%d aimed %s, observed inside the window %d; produced=%d (poison %d) "
                        + "count=%d distinct=%d rejects=%d distinct-rejects=%d distinct-ids-overall=%d "
                        + "restarts-resuming-from-lake=%d in %.0fs%n", seed, kills, killed, killedInsideTheWindow,
                expected, poison, counts[0], counts[1], rejects[0], rejects[1], rejects[2],
                restartsResumingFromTheLake, (System.nanoTime() - started) / 1e9);
        assertThat(counts).as("count(*), count(DISTINCT id) of rows").containsExactly(expected - poison,
                expected - poison);
        assertThat(rejects).as("rejects: count(*), count(DISTINCT (partition, offset)), distinct ids in rows ∪ rejects")
                .containsExactly(poison, poison, expected);
        assertThat(poison).as("poison produced").isPositive();
        long[] variant = variantCounts(lake);
        System.out.printf("[chaos] VARIANT companions: %d rows with one, %d without, %d differing from the text%n",
                variant[0], variant[1], variant[2]);
        assertThat(variant[0]).as("rows written with a VARIANT companion").isPositive();
        assertThat(variant[1]).as("rows written by runs without VARIANT").isPositive();
        assertThat(variant[2]).as("companions whose $browser differs from the text's").isZero();
        assertThat(killedInsideTheWindow).as("kills the log shows inside the lake→Kafka window").isPositive();
        assertThat(restartsResumingFromTheLake).as("restarts that skipped a replay thanks to the lake").isPositive();
        // The offsets audit agrees: each flush's range meets the next, none overlaps, nothing is missing.
        Map<String, String> auditEnv = new HashMap<>(env);
        auditEnv.put("MILLPOND_DUCKDB_EXTENSION_DIR", AppProcess.extensionDirectory().toString());
        java.io.StringWriter report = new java.io.StringWriter();
        int audit = dev.millpond.maintenance.cli.MaintenanceCli.run(auditEnv, new java.io.PrintWriter(report, true),
                "audit");
        System.out.println(report);
        assertThat(audit).as(report.toString()).isZero();
    }

    /**
     * The control: with lake offsets off, one kill that the log shows inside the window leaves that flush twice in
     * the table (the restart resumes from Kafka's older offset). A few thousand records, one or two kills: the
     * smallest run that shows it every time, since a kill inside the window duplicates by construction.
     */
    @Test
    void withoutLakeOffsetsAKillInsideTheWindowDuplicates() throws Exception {
        KafkaBroker kafka = Services.kafka();
        DuckLakeStack lake = Services.newDuckLake();
        String topic = Services.uniqueName("chaosctl");
        kafka.createTopic(topic, PARTITIONS);
        Map<String, String> env = environment(kafka, lake, topic, false);
        Random random = new Random(Long.getLong("chaos.seed", 7L));
        long produced = 0;
        int attempts = 0;
        boolean inside = false;
        while (!inside) {
            assertThat(attempts).as("runs needed to land one kill inside the window").isLessThan(5);
            for (int p = 0; p < PARTITIONS; p++) {
                kafka.produce(topic, p, SampleEvents.events(produced, 300));
                produced += 300;
            }
            Path log = LOGS.resolve(topic + "-control-" + attempts++ + ".log");
            try (AppProcess app = AppProcess.start(env, log)) {
                CommitWindow.awaitLine(app, CommitWindow.ENTERED, 1, Duration.ofSeconds(90));
                sleep(random.nextInt(100));
                app.kill();
            }
            inside = CommitWindow.killedInside(log);
        }
        String groupId = "millpond-" + topic + "-events";
        try (AppProcess app = AppProcess.start(env, LOGS.resolve(topic + "-control-final.log"))) {
            Map<Integer, Long> end = kafka.endOffsets(topic);
            app.await("the final run to commit every partition to its end", Duration.ofMinutes(2),
                    () -> kafka.committedOffsets(groupId, topic).equals(end));
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();
        }
        long[] counts = counts(lake);
        System.out.printf("[chaos-control] lake offsets off: %d run(s) to kill inside the window, produced=%d "
                + "count=%d distinct=%d%n", attempts, produced, counts[0], counts[1]);
        assertThat(counts[1]).as("distinct ids: none missing").isEqualTo(produced);
        assertThat(counts[0]).as("rows: the killed flush written again").isGreaterThan(produced);
    }

    private static Map<String, String> environment(KafkaBroker kafka, DuckLakeStack lake, String topic,
                                                   boolean lakeOffsets) {
        Map<String, String> env = new HashMap<>(lake.environment());
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        env.put("KAFKA_TOPIC", topic);
        env.put("REPLICA_COUNT", "1");
        env.put("POD_NAME", "millpond-0");
        env.put("DUCKLAKE_TABLE", "events");
        env.put("FLUSH_INTERVAL_MS", "300");
        env.put("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", "200");
        // Off for the control (and -Dchaos.lakeOffsets=false runs the big test without it): kills leave duplicates.
        env.put("MILLPOND_LAKE_OFFSETS", Boolean.toString(lakeOffsets));
        return env;
    }

    /** Small acknowledged batches round-robin over the partitions, so {@code produced} is exact when it stops. */
    private static void produceUntilStopped(KafkaBroker kafka, String topic, AtomicLong produced, AtomicLong poisoned,
                                            Random random, AtomicBoolean producing) {
        int partition = 0;
        while (producing.get()) {
            int n = 20;
            long first = produced.get();
            List<byte[]> values = new ArrayList<>(SampleEvents.events(first, n));
            // About 5 % poison, each carrying its id: malformed JSON or a top-level value that is not an object.
            for (int i = 0; i < n; i++) {
                if (random.nextInt(20) == 0) {
                    String bad = random.nextBoolean() ? "{\"id\":" + (first + i) + ", broken" : "[" + (first + i) + "]";
                    values.set(i, bad.getBytes(StandardCharsets.UTF_8));
                    poisoned.incrementAndGet();
                }
            }
            kafka.produce(topic, partition, values);
            produced.addAndGet(n);
            partition = (partition + 1) % PARTITIONS;
            sleep(20);
        }
    }

    private static void killAt(KillMoment moment, AppProcess app, Random random) throws Exception {
        switch (moment) {
            case ANY_TIME -> sleep(1_000 + random.nextInt(4_000));
            case BETWEEN_LAKE_AND_KAFKA_COMMIT -> {
                // The pause is 200 ms; the line is printed right before it, so 0–150 ms later is inside it.
                CommitWindow.awaitLine(app, CommitWindow.ENTERED, 1, Duration.ofSeconds(120));
                sleep(random.nextInt(150));
            }
            case AFTER_A_FLUSH -> {
                CommitWindow.awaitLine(app, "Flush: ", 1, Duration.ofSeconds(120));
                sleep(random.nextInt(300));
            }
        }
        app.kill();
    }

    private static long[] counts(DuckLakeStack lake) throws Exception {
        try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM lake.main.events")) {
            rs.next();
            return new long[]{rs.getLong(1), rs.getLong(2)};
        }
    }

    private static Map<String, String> withVariant(Map<String, String> env, boolean on) {
        Map<String, String> copy = new HashMap<>(env);
        if (on) {
            copy.put("MILLPOND_VARIANT_COLUMNS", "properties");
        }
        return copy;
    }

    /** Rows with a companion, rows without, and rows whose companion disagrees with the text it was cast from. */
    private static long[] variantCounts(DuckLakeStack lake) throws Exception {
        try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(properties_variant), count(*) - count(properties_variant), "
                     + "count(*) FILTER (WHERE properties_variant IS NOT NULL AND "
                     + "properties_variant.\"$browser\"::VARCHAR IS DISTINCT FROM "
                     + "json_extract_string(properties, '$.\"$browser\"')) FROM lake.main.events")) {
            rs.next();
            return new long[]{rs.getLong(1), rs.getLong(2), rs.getLong(3)};
        }
    }

    /** count(*), count(DISTINCT (partition, offset)) of the rejects, and the distinct ids of rows and rejects together. */
    private static long[] rejectCounts(DuckLakeStack lake) throws Exception {
        String rejectId = "CAST(regexp_extract(decode(value), '[0-9]+') AS BIGINT)";
        try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM lake.main._millpond_rejects), "
                     + "(SELECT count(DISTINCT (kafka_partition, kafka_offset)) FROM lake.main._millpond_rejects), "
                     + "(SELECT count(DISTINCT id) FROM (SELECT id FROM lake.main.events UNION ALL SELECT " + rejectId
                     + " FROM lake.main._millpond_rejects))")) {
            rs.next();
            return new long[]{rs.getLong(1), rs.getLong(2), rs.getLong(3)};
        }
    }

    private static void sleep(long ms) {
        CommitWindow.sleep(ms);
    }
}
