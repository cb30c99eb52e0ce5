package dev.millpond.app;

import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.VariantOracle;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.LakeTopic;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once under kill -9, on the real stack with the packaged jar: a producer writes events with unique ids to a
 * 6-partition topic while the app is SIGKILLed at random moments and restarted, {@code chaos.kills} times (default
 * 20; the long run is {@code -Dchaos.kills=1000}, see docs/exactly-once.md). A test hook pauses between the lake commit and
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

    @Test
    void everyIdLandsExactlyOnceThroughRepeatedSigkills() throws Exception {
        int kills = Integer.getInteger("chaos.kills", 20);
        long seed = Long.getLong("chaos.seed", 7L);
        Random random = new Random(seed);
        LakeTopic setup = LakeTopic.create("chaos", PARTITIONS);
        Map<String, String> env = environment(setup,
                Boolean.parseBoolean(System.getProperty("chaos.lakeOffsets", "true")));

        long started = System.nanoTime();
        ChaosLoop.Outcome outcome;
        long expected;
        long poison;
        try (UniqueIdProducer producer = new UniqueIdProducer(setup.kafka(), setup.topic(), PARTITIONS,
                new AtomicLong(), new Random(seed + 1))) {
            // Every other run dual-writes properties into a VARIANT companion (a fleet turning it on and off across
            // restarts): the companion's INSERT path is killed as often as the plain one.
            outcome = ChaosLoop.run(kills, random, LOGS, setup.topic(),
                    (run, log) -> AppProcess.start(withVariant(env, run % 2 == 0), log), LAKE_AHEAD, r -> 1,
                    Duration.ofSeconds(120));
            producer.close();
            expected = producer.produced();
            poison = producer.poisoned();
        }

        int restartsResumingFromTheLake = outcome.runsMentioningMarker();
        Path last = LOGS.resolve(setup.topic() + "-final.log");
        try (AppProcess app = AppProcess.start(withVariant(env, true), last)) {
            app.awaitCommittedToEnd(setup.kafka(), setup.topic(), "millpond-" + setup.topic() + "-events",
                    Duration.ofMinutes(2));
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();
        }
        if (ChaosLoop.mentions(last, LAKE_AHEAD)) {
            restartsResumingFromTheLake++;
        }

        long[] counts = counts(setup.lake());
        long[] rejects = rejectCounts(setup.lake());
        System.out.printf("[chaos] seed=%d kills=%d aimed %s, observed inside the window %d; produced=%d (poison %d) "
                        + "count=%d distinct=%d rejects=%d distinct-rejects=%d distinct-ids-overall=%d "
                        + "restarts-resuming-from-lake=%d in %.0fs%n", seed, kills, outcome.aimed(), outcome.killedInsideTheWindow(),
                expected, poison, counts[0], counts[1], rejects[0], rejects[1], rejects[2],
                restartsResumingFromTheLake, (System.nanoTime() - started) / 1e9);
        assertThat(counts).as("count(*), count(DISTINCT id) of rows").containsExactly(expected - poison,
                expected - poison);
        assertThat(rejects).as("rejects: count(*), count(DISTINCT (partition, offset)), distinct ids in rows ∪ rejects")
                .containsExactly(poison, poison, expected);
        assertThat(poison).as("poison produced").isPositive();
        long[] variant = variantCounts(setup.lake());
        System.out.printf("[chaos] VARIANT companions: %d rows with one, %d without, %d differing from the text%n",
                variant[0], variant[1], variant[2]);
        assertThat(variant[0]).as("rows written with a VARIANT companion").isPositive();
        assertThat(variant[1]).as("rows written by runs without VARIANT").isPositive();
        assertThat(variant[2]).as("companions that are not their text's JSON").isZero();
        assertThat(outcome.killedInsideTheWindow()).as("kills the log shows inside the lake→Kafka window").isPositive();
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
        LakeTopic setup = LakeTopic.create("chaosctl", PARTITIONS);
        Map<String, String> env = environment(setup, false);
        Random random = new Random(Long.getLong("chaos.seed", 7L));
        long produced = 0;
        int attempts = 0;
        boolean inside = false;
        while (!inside) {
            assertThat(attempts).as("runs needed to land one kill inside the window").isLessThan(5);
            for (int p = 0; p < PARTITIONS; p++) {
                setup.produce(p, SampleEvents.events(produced, 300));
                produced += 300;
            }
            Path log = LOGS.resolve(setup.topic() + "-control-" + attempts++ + ".log");
            try (AppProcess app = AppProcess.start(env, log)) {
                CommitWindow.awaitLine(app, CommitWindow.ENTERED, 1, Duration.ofSeconds(90));
                sleep(random.nextInt(100));
                app.kill();
            }
            inside = CommitWindow.killedInside(log);
        }
        try (AppProcess app = AppProcess.start(env, LOGS.resolve(setup.topic() + "-control-final.log"))) {
            app.awaitCommittedToEnd(setup.kafka(), setup.topic(), "millpond-" + setup.topic() + "-events",
                    Duration.ofMinutes(2));
            assertThat(app.stop(Duration.ofSeconds(60))).isZero();
        }
        long[] counts = counts(setup.lake());
        System.out.printf("[chaos-control] lake offsets off: %d run(s) to kill inside the window, produced=%d "
                + "count=%d distinct=%d%n", attempts, produced, counts[0], counts[1]);
        assertThat(counts[1]).as("distinct ids: none missing").isEqualTo(produced);
        assertThat(counts[0]).as("rows: the killed flush written again").isGreaterThan(produced);
    }

    private static Map<String, String> environment(LakeTopic setup, boolean lakeOffsets) {
        // Lake offsets off for the control (and -Dchaos.lakeOffsets=false runs the big test without them): kills
        // then leave duplicates.
        return setup.environment("FLUSH_INTERVAL_MS", "300", "MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", "200",
                "MILLPOND_LAKE_OFFSETS", Boolean.toString(lakeOffsets));
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

    /**
     * Rows with a companion, rows without, and rows whose companion is not the JSON of the text it was cast from
     * (window integers as strings: {@link VariantOracle}), the same check as the VARIANT tests at the pod's limits.
     */
    private static long[] variantCounts(DuckLakeStack lake) throws Exception {
        long with = 0;
        long without = 0;
        long differing = 0;
        try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT properties, properties_variant IS NULL, properties_variant::JSON"
                     + " FROM lake.main.events")) {
            while (rs.next()) {
                if (rs.getBoolean(2)) {
                    without++;
                    continue;
                }
                with++;
                java.util.Optional<com.fasterxml.jackson.databind.JsonNode> expected =
                        VariantOracle.expected(rs.getString(1));
                if (expected.isEmpty() || !VariantOracle.matches(expected.get(), VariantOracle.parse(rs.getString(3)))) {
                    differing++;
                }
            }
        }
        return new long[]{with, without, differing};
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
