package dev.millpond.app;

import dev.millpond.demo.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.Services;
import dev.millpond.testsupport.hoglake.HoglakeStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once across kill -9 on hoglake, with the packaged jar: a producer writes events with unique ids to a
 * 4-partition topic while the app is SIGKILLed at random moments and restarted, {@code chaos.kills} times (default
 * 20). A test hook pauses between the hoglake commit and the Kafka commit, and a third of the kills land inside it,
 * where an at-least-once writer publishes the flush twice. Each flush's plan is in Kafka before it is written, so the
 * restarted pod cuts its first flush at the same offsets, under the same idempotency key, and the server declines to
 * publish it again. At the end every id is exactly once among the rows of the files the server registered.
 * {@code -Dchaos.plans=false} runs the control: the same kills without plans, which leaves duplicates.
 */
class HoglakeChaosIT {

    private static final Path LOGS = Path.of("target", "chaos-logs");
    private static final String HOOK_LINE = "Test hook: lake commit done";
    private static final String REPLAYED_PLAN = "Replaying the flush recorded before the last stop exactly";
    private static final int PARTITIONS = 4;

    enum KillMoment { ANY_TIME, BETWEEN_LAKE_AND_KAFKA_COMMIT, AFTER_A_FLUSH }

    @Test
    void everyIdLandsExactlyOnceThroughRepeatedSigkills(@TempDir Path dir) throws Exception {
        int kills = Integer.getInteger("chaos.kills", 20);
        long seed = Long.getLong("chaos.seed", 7L);
        boolean plans = Boolean.parseBoolean(System.getProperty("chaos.plans", "true"));
        Random random = new Random(seed);
        KafkaBroker kafka = Services.kafka();
        String topic = Services.uniqueName("hogchaos");
        kafka.createTopic(topic, PARTITIONS);
        try (HoglakeStack hoglake = new HoglakeStack()) {
            Map<String, String> env = hoglake.environment(kafka, topic);
            env.put("FLUSH_INTERVAL_MS", "300");
            // Small consume batches: a time-triggered flush then ends wherever the clock cut it, so a rebuilt flush
            // lands on the same boundary only by plan (with the default 1000, the first poll after a restart often
            // returns the very 1000 records the killed flush had, and the control would pass by luck).
            env.put("CONSUME_BATCH_SIZE", "50");
            env.put("MILLPOND_TEST_PAUSE_AFTER_LAKE_COMMIT_MS", "200");
            List<String> jvm = plans ? List.of("-Xmx1g") : List.of("-Xmx1g", "-Dmillpond.test.flush-plans=false");

            Map<KillMoment, Integer> killed = new EnumMap<>(KillMoment.class);
            int replayedPlans = 0;
            long started = System.nanoTime();
            AtomicLong produced = new AtomicLong();
            AtomicBoolean producing = new AtomicBoolean(true);
            Thread producer = new Thread(() -> produceUntilStopped(kafka, topic, produced, producing), "chaos-producer");
            producer.start();
            try {
                for (int i = 0; i < kills; i++) {
                    Path log = LOGS.resolve(topic + "-" + i + ".log");
                    KillMoment moment = KillMoment.values()[random.nextInt(KillMoment.values().length)];
                    try (AppProcess app = AppProcess.start(env, log, jvm)) {
                        killAt(moment, app, random);
                    }
                    killed.merge(moment, 1, Integer::sum);
                    if (Files.readString(log).contains(REPLAYED_PLAN)) {
                        replayedPlans++;
                    }
                }
            } finally {
                producing.set(false);
                producer.join(30_000);
            }

            long expected = produced.get();
            String groupId = "millpond-hoglake-" + topic + "-events";
            Path last = LOGS.resolve(topic + "-final.log");
            double alreadyPublished;
            try (AppProcess app = AppProcess.start(env, last, jvm)) {
                Map<Integer, Long> end = kafka.endOffsets(topic);
                app.await("the final run to commit every partition to its end", Duration.ofMinutes(2),
                        () -> end.equals(kafka.committedOffsets(groupId, topic)));
                alreadyPublished = app.metric("millpond_hoglake_commit_replays_total", "outcome",
                        "already_published").orElse(0);
                assertThat(app.stop(Duration.ofSeconds(60))).isZero();
            }
            if (Files.readString(last).contains(REPLAYED_PLAN)) {
                replayedPlans++;
            }
            long[] counts = hoglake.countAndDistinct("id", dir);
            System.out.printf("[hoglake-chaos] seed=%d kills=%d plans=%s %s produced=%d count=%d distinct=%d"
                            + " files=%d restarts-replaying-a-plan=%d already-published(final run)=%.0f in %.0fs%n",
                    seed, kills, plans, killed, expected, counts[0], counts[1], hoglake.files().size(), replayedPlans,
                    alreadyPublished, (System.nanoTime() - started) / 1e9);
            assertThat(counts[1]).as("distinct ids: none missing").isEqualTo(expected);
            assertThat(counts[0]).as("rows: none duplicated").isEqualTo(expected);
            assertThat(killed.getOrDefault(KillMoment.BETWEEN_LAKE_AND_KAFKA_COMMIT, 0))
                    .as("kills inside the commit window").isPositive();
            assertThat(replayedPlans).as("restarts that replayed a recorded flush").isPositive();
        }
    }

    /** Small acknowledged batches round-robin over the partitions, so {@code produced} is exact when it stops. */
    private static void produceUntilStopped(KafkaBroker kafka, String topic, AtomicLong produced,
                                            AtomicBoolean producing) {
        int partition = 0;
        while (producing.get()) {
            int n = 20;
            kafka.produce(topic, partition, SampleEvents.events(produced.get(), n));
            produced.addAndGet(n);
            partition = (partition + 1) % PARTITIONS;
            sleep(20);
        }
    }

    private static void killAt(KillMoment moment, AppProcess app, Random random) throws Exception {
        switch (moment) {
            case ANY_TIME -> sleep(1_000 + random.nextInt(4_000));
            case BETWEEN_LAKE_AND_KAFKA_COMMIT -> {
                // The pause is 200 ms; the line is printed right before it, so 0–150 ms later is inside it. Not the
                // run's first flush: that one is cut by the first poll alone, and a restart would cut it again the
                // same way even without a plan.
                awaitLine(app, HOOK_LINE, 2 + random.nextInt(3), Duration.ofSeconds(90));
                sleep(random.nextInt(150));
            }
            case AFTER_A_FLUSH -> {
                awaitLine(app, "Flush: ", 1, Duration.ofSeconds(90));
                sleep(random.nextInt(300));
            }
        }
        app.kill();
    }

    private static void awaitLine(AppProcess app, String text, int times, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (occurrences(app.log(), text) < times) {
            if (System.nanoTime() > deadline || !app.isAlive()) {
                throw new AssertionError("no '" + text + "' in the log\n" + app.logTail());
            }
            sleep(5);
        }
    }

    private static int occurrences(Path log, String text) throws IOException {
        return Files.exists(log) ? Files.readString(log).split(java.util.regex.Pattern.quote(text), -1).length - 1 : 0;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
