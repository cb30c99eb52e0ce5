package dev.millpond.app;

import dev.millpond.testsupport.events.SampleEvents;
import dev.millpond.testsupport.AppProcess;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.FaultRelay;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.MillpondEnvironment;
import dev.millpond.testsupport.Services;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged app with a {@link FaultRelay} in front of its catalog and one in front of its object store, as a pod
 * sees a dependency go away in production: an outage is ridden out (no exit, not ready meanwhile, every event exactly
 * once), one longer than the budget ends in a non-zero exit that a restart recovers from, and a stop lands what can
 * land and commits nothing else. Every secret the app is given is looked for in its log and its /metrics.
 *
 * <p>Outages last 30 s ({@code -Doutage.seconds=N} to change).
 */
class SinkOutagesIT {

    private static final Path LOGS = Path.of("target", "e2e-logs");
    private static final Duration OUTAGE = Duration.ofSeconds(Long.getLong("outage.seconds", 30));
    /** How long the catalog stays down after the app was started into its outage. */
    private static final Duration STARTUP_OUTAGE = Duration.ofSeconds(Long.getLong("startup.outage.seconds", 20));
    private static final int PARTITIONS = 4;
    private static final int BATCH = 500;

    private final KafkaBroker kafka = Services.kafka();
    private final DuckLakeStack lake = Services.newDuckLake();
    private final String topic = Services.uniqueName("outage");
    private final FaultRelay catalog = FaultRelay.start("catalog", Services.postgres().host(),
            Services.postgres().port());
    private final FaultRelay s3 = FaultRelay.start("s3", "127.0.0.1",
            Integer.parseInt(Services.s3().endpoint().split(":")[1]));
    private final Secrets secrets = Secrets.create(lake);
    private final List<AppProcess> apps = new ArrayList<>();
    private long produced;

    @AfterEach
    void tearDown() throws Exception {
        for (AppProcess app : apps) {
            app.close();
        }
        catalog.close();
        s3.close();
    }

    @Test
    void thirtySecondOutagesOfTheCatalogAndTheObjectStoreAreRiddenOutExactlyOnce() throws Exception {
        kafka.createTopic(topic, PARTITIONS);
        AppProcess app = start("ride-out");
        produce(2 * BATCH);
        awaitWritten(app, produced);
        app.await("ready", Duration.ofSeconds(30), () -> app.get("/readyz").status() == 200);

        // The catalog goes away; then the object store, first refusing connections and then, halfway through,
        // answering every request with 503 as an overloaded S3 does.
        Runnable s3Overloaded = () -> {
            s3.serviceUnavailable(true);
            s3.start();
        };
        for (Runnable[] outage : List.of(new Runnable[]{catalog::stop, () -> { }, catalog::start},
                new Runnable[]{s3::stop, s3Overloaded, () -> s3.serviceUnavailable(false)})) {
            outage[0].run();
            long outageStarted = System.nanoTime();
            produce(2 * BATCH);
            app.await("not ready while the sink is unavailable", Duration.ofSeconds(30),
                    () -> app.get("/readyz").status() == 503);
            assertThat(app.get("/readyz").body()).startsWith("not ready");
            assertThat(app.get("/healthz").status()).as("alive all along").isEqualTo(200);
            boolean halfway = false;
            while (System.nanoTime() - outageStarted < OUTAGE.toNanos()) {
                assertThat(app.isAlive()).as("no exit during the outage").isTrue();
                assertThat(app.get("/readyz").status()).isEqualTo(503);
                if (!halfway && System.nanoTime() - outageStarted > OUTAGE.toNanos() / 2) {
                    outage[1].run();
                    halfway = true;
                }
                Thread.sleep(1_000);
            }
            outage[2].run();
            awaitWritten(app, produced);
            app.await("ready again after a good write", Duration.ofSeconds(30),
                    () -> app.get("/readyz").status() == 200);
        }

        assertThat(app.metric("millpond_errors_total", "type", "write_retry").orElse(0))
                .as("every failed attempt counted").isGreaterThanOrEqualTo(6);
        assertExactlyOnce(produced);
        app.await("offsets committed to the end", Duration.ofSeconds(30),
                () -> kafka.committedOffsets(groupId(), topic).equals(kafka.endOffsets(topic)));
        long peakRssKb = peakRssKb(app);
        System.out.printf("[outages] %d events, two %ds outages, peak RSS %d MB%n", produced, OUTAGE.toSeconds(),
                peakRssKb / 1024);
        assertThat(peakRssKb).as("peak RSS (kB)").isLessThan(1024 * 1024);
        secrets.assertNoneIn(app.metrics(), "/metrics");
        assertThat(app.stop(Duration.ofSeconds(120))).isZero();
        secrets.assertNoneIn(app.logText(), "the log");
    }

    @Test
    void aCatalogOutageLongerThanTheBudgetExitsNonZeroAndARestartLandsEverythingOnce() throws Exception {
        kafka.createTopic(topic, PARTITIONS);
        AppProcess first = start("budget-1", "MILLPOND_SINK_OUTAGE_BUDGET_S", "8");
        produce(BATCH);
        awaitWritten(first, produced);
        String metricsBefore = first.metrics();
        Map<Integer, Long> committedBefore = kafka.committedOffsets(groupId(), topic);

        catalog.stop();
        produce(BATCH);
        int exit = first.waitForExit(Duration.ofSeconds(90));
        assertThat(exit).as("budget spent").isNotZero();
        assertThat(first.logText()).contains("stayed unavailable").contains("outage budget 8s");
        assertThat(kafka.committedOffsets(groupId(), topic)).as("nothing committed past what landed")
                .isEqualTo(committedBefore);
        secrets.assertNoneIn(first.logText(), "the log");
        secrets.assertNoneIn(metricsBefore, "/metrics");

        catalog.start();
        AppProcess second = start("budget-2");
        awaitWritten(second, BATCH);
        assertExactlyOnce(produced);
        assertThat(second.stop(Duration.ofSeconds(120))).isZero();
    }

    @Test
    void sigtermWithRowsPendingLandsThemCommitsAndExitsZero() throws Exception {
        kafka.createTopic(topic, PARTITIONS);
        AppProcess app = start("sigterm", "FLUSH_INTERVAL_MS", "600000");
        produce(BATCH);
        app.await("every event consumed and pending", Duration.ofSeconds(60),
                () -> app.metric("millpond_records_consumed_total").orElse(0) >= produced
                        && app.metric("millpond_pending_bytes").orElse(0) > 0);

        assertThat(app.stop(Duration.ofSeconds(120))).isZero();

        assertExactlyOnce(produced);
        assertThat(kafka.committedOffsets(groupId(), topic)).isEqualTo(kafka.endOffsets(topic));
    }

    @Test
    void sigtermWhileTheCatalogIsDownCommitsNothingUnlandedAndExitsZeroWithinTheGracePeriod() throws Exception {
        kafka.createTopic(topic, PARTITIONS);
        AppProcess app = start("sigterm-down", "FLUSH_INTERVAL_MS", "600000");
        produce(BATCH);
        app.await("every event consumed and pending", Duration.ofSeconds(60),
                () -> app.metric("millpond_records_consumed_total").orElse(0) >= produced
                        && app.metric("millpond_pending_bytes").orElse(0) > 0);
        catalog.stop();

        long stopping = System.nanoTime();
        // The shutdown flush fails; as the original does, a stop still exits 0 and leaves the offsets uncommitted.
        assertThat(app.stop(Duration.ofSeconds(120))).isZero();
        System.out.printf("[outages] stop with the catalog down took %.1fs%n", (System.nanoTime() - stopping) / 1e9);

        assertThat(app.logText()).contains("Shutdown flush failed");
        assertThat(kafka.committedOffsets(groupId(), topic)).as("nothing committed").isEmpty();
        secrets.assertNoneIn(app.logText(), "the log");
        catalog.start();
        assertExactlyOnce(0);

        AppProcess again = start("sigterm-down-2");
        awaitWritten(again, produced);
        assertExactlyOnce(produced);
        assertThat(again.stop(Duration.ofSeconds(120))).isZero();
    }

    @Test
    void aStopIsBoundedEvenWhileAWriteHangsOnAnUnresponsiveCatalog() throws Exception {
        kafka.createTopic(topic, PARTITIONS);
        AppProcess app = start("hang", "MILLPOND_STOP_DEADLINE_S", "10");
        produce(BATCH);
        awaitWritten(app, produced);
        Map<Integer, Long> landed = kafka.committedOffsets(groupId(), topic);
        assertThat(landed).isEqualTo(kafka.endOffsets(topic));

        catalog.delay(Duration.ofMinutes(10)); // every byte to and from the catalog is held: the next write hangs
        produce(BATCH);
        // Consumed and no longer pending: the flush is handed to the writer (or is, in the same turn of the pump's
        // loop, which a stop does not cut short), and its write hangs on the held catalog.
        app.await("the next flush handed to the writer", Duration.ofSeconds(30), Duration.ofMillis(50),
                () -> app.metric("millpond_records_consumed_total").orElse(0) >= produced
                        && app.metric("millpond_pending_bytes").orElse(-1) == 0);

        long stopping = System.nanoTime();
        assertThat(app.stop(Duration.ofSeconds(60))).isZero();
        double seconds = (System.nanoTime() - stopping) / 1e9;
        System.out.printf("[outages] stop during a hung write took %.1fs (deadline 10s)%n", seconds);
        assertThat(app.logText()).contains("The pump did not stop within 10s");
        assertThat(kafka.committedOffsets(groupId(), topic)).as("only what landed is committed").isEqualTo(landed);

        catalog.delay(Duration.ZERO);
        catalog.resetConnections();
        AppProcess again = start("hang-2");
        awaitWritten(again, BATCH);
        assertExactlyOnce(produced);
        assertThat(again.stop(Duration.ofSeconds(120))).isZero();
    }

    /**
     * With overlapped writes (the default) the pump keeps polling while a write hangs, so poll freshness alone would
     * keep /healthz at 200 forever. A write in flight longer than the outage budget plus the ladder's allowance fails
     * liveness, so the orchestrator restarts the pod; the allowance is shortened here from 480 s to 10 s by a test
     * hook, and the budget is 5 s.
     */
    @Test
    void aWriteHungOnACatalogThatStopsAnsweringFailsLivenessWithinItsBound() throws Exception {
        kafka.createTopic(topic, PARTITIONS);
        AppProcess app = start("hung-write", List.of("-Xmx1g", "-Dmillpond.test.write-allowance-s=10"),
                "MILLPOND_SINK_OUTAGE_BUDGET_S", "5");
        produce(BATCH);
        awaitWritten(app, produced);
        assertThat(app.metric("millpond_write_in_flight_seconds").orElse(-1)).as("no write in flight").isZero();

        catalog.blackhole(true); // connections stay up and are never answered: the next write hangs
        produce(BATCH);
        long hungFrom = System.nanoTime();
        app.await("/healthz 503", Duration.ofSeconds(120), () -> app.get("/healthz").status() == 503);
        double seconds = (System.nanoTime() - hungFrom) / 1e9;
        System.out.printf("[outages] a hung write failed liveness %.1fs after the catalog stopped answering"
                + " (bound 15s)%n", seconds);
        assertThat(app.get("/healthz").body()).startsWith("unhealthy poll=").contains(" in flight");
        assertThat(app.metric("millpond_write_in_flight_seconds").orElse(0)).as("the write's age")
                .isGreaterThan(15);
        assertThat(app.logText()).contains("A write has been in flight for");
        assertThat(app.isAlive()).as("the orchestrator, not the app, ends it").isTrue();
        catalog.blackhole(false);
    }

    @Test
    void offsetCommitExhaustionExitsNonZeroWithoutASecondWriteAndARestartResumesFromTheLake() throws Exception {
        kafka.createTopic(topic, PARTITIONS);
        AppProcess app = start("commit");
        produce(BATCH);
        awaitWritten(app, produced);
        double written = app.metric("millpond_records_written_total").orElse(0);

        // A member of the same consumer group takes it over: Kafka now refuses the pump's (memberless) commits.
        try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> squatter =
                     new org.apache.kafka.clients.consumer.KafkaConsumer<>(kafka.consumerConfig(groupId()))) {
            squatter.subscribe(List.of("unrelated-" + topic));
            Await.within(Duration.ofSeconds(30), "the squatter joins the group").pollInterval(Duration.ofMillis(1))
                    .until(() -> {
                        squatter.poll(Duration.ofMillis(200));
                        return !squatter.assignment().isEmpty() || groupMembers() > 0;
                    });
            assertThat(groupMembers()).as("the group has an active member").isPositive();

            produce(BATCH);
            java.util.concurrent.atomic.AtomicInteger exit = new java.util.concurrent.atomic.AtomicInteger(-1);
            Thread waiter = new Thread(() -> {
                try {
                    exit.set(app.waitForExit(Duration.ofSeconds(90)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            waiter.start();
            while (waiter.isAlive()) {
                squatter.poll(Duration.ofMillis(200)); // stays a live member until the app gives up
            }
            assertThat(exit.get()).as("offset commit exhausted").isNotZero();
        }
        String log = app.logText();
        assertThat(log).contains("Offset commit failed after 3 attempts");
        assertThat(countFlushes(log)).as("only the first flush completed").isEqualTo(1);
        assertThat(log).as("the written rows were not written again").doesNotContain("Write attempt");
        long landed = distinctRows();
        assertThat(landed).as("the flush whose commit failed landed, once").isGreaterThan(BATCH);

        AppProcess again = start("commit-2");
        again.await("the rest written and offsets committed to the end", Duration.ofSeconds(60),
                () -> again.metric("millpond_records_written_total").orElse(0) >= produced - landed
                        && kafka.committedOffsets(groupId(), topic).equals(kafka.endOffsets(topic)));
        assertThat(again.logText()).contains("already written");
        assertThat(again.metric("millpond_replay_skipped_records_total").orElse(0)).isEqualTo(landed - BATCH);
        assertThat(again.metric("millpond_records_written_total").orElse(0)).as("only the rest written")
                .isEqualTo(produced - landed);
        assertExactlyOnce(produced);
        assertThat(written).isEqualTo(BATCH);
        assertThat(again.stop(Duration.ofSeconds(120))).isZero();
    }

    /**
     * A pod started while its catalog is down (a failover, a maintenance window) waits for it instead of exiting:
     * alive and not ready meanwhile, one warning per attempt naming the catalog, and once the catalog is back it
     * writes everything exactly once without a restart.
     */
    @Test
    void aCatalogDownAtStartupIsWaitedForAndEverythingLandsOnceWithoutARestart() throws Exception {
        kafka.createTopic(topic, PARTITIONS);
        produce(2 * BATCH);
        catalog.stop();
        AppProcess app = start("startup-outage");
        String warning = "Startup: the DuckLake catalog (Postgres at " + catalog.host() + ":" + catalog.port()
                + ", database " + lake.catalogDatabase() + ") is unreachable";
        app.await("the first startup warning", Duration.ofSeconds(90), () -> app.logContains(warning));
        app.assertAliveButNotReadyFor(STARTUP_OUTAGE); // the outage lasts this long from the app's first attempt
        long attempts = app.logText().lines().filter(l -> l.contains(warning)).count();
        catalog.start();
        long back = System.nanoTime();
        produce(BATCH);
        awaitWritten(app, produced);
        app.await("ready once the catalog is back", Duration.ofSeconds(30),
                () -> app.get("/readyz").status() == 200);
        System.out.printf("[startup outage] %d warnings in %ds; all %d written %.1fs after the catalog returned%n",
                attempts, STARTUP_OUTAGE.toSeconds(), produced, (System.nanoTime() - back) / 1e9);
        assertThat(attempts).as("one warning per attempt").isGreaterThanOrEqualTo(3);
        assertThat(app.logText()).contains("The sink opened on attempt");
        assertExactlyOnce(produced);
        app.await("offsets committed to the end", Duration.ofSeconds(30),
                () -> kafka.committedOffsets(groupId(), topic).equals(kafka.endOffsets(topic)));
        assertThat(app.stop(Duration.ofSeconds(120))).isZero();
        secrets.assertNoneIn(app.logText(), "the log");
    }

    /** A refused catalog login is configuration: it ends startup at once, in one line, without the password. */
    @Test
    void aWrongCatalogPasswordFailsStartupAtOnceWithoutPrintingIt() throws Exception {
        kafka.createTopic(topic, 1);
        String wrong = "wrong-" + java.util.UUID.randomUUID();
        long started = System.nanoTime();
        AppProcess app = start("wrong-password", "DUCKLAKE_RDS_PASSWORD", wrong);
        int exit = app.waitForExit(Duration.ofSeconds(90));
        double seconds = (System.nanoTime() - started) / 1e9;
        String text = app.logText();
        System.out.printf("[startup] wrong catalog password: exit %d %.1fs after the process started%n", exit,
                seconds);
        assertThat(exit).as(app.logTail()).isNotZero();
        assertThat(text.lines().filter(l -> l.contains("password authentication failed")).count())
                .as(app.logTail()).isEqualTo(1);
        assertThat(text).doesNotContain("Startup: ").doesNotContain("Fatal error in main loop").doesNotContain(wrong);
        // At once: a retry would have logged a "Startup: ..." warning per attempt, and there is none (above).
        secrets.assertNoneIn(text, "the log");
    }

    @Test
    void aCatalogStillDownWhenTheBudgetIsSpentEndsStartupWithExitOne() throws Exception {
        kafka.createTopic(topic, 1);
        catalog.stop();
        AppProcess app = start("startup-budget", "MILLPOND_SINK_OUTAGE_BUDGET_S", "6");
        int exit = app.waitForExit(Duration.ofSeconds(90));
        assertThat(exit).as(app.logTail()).isEqualTo(1);
        String text = app.logText();
        assertThat(text.lines().filter(l -> l.contains("stayed unreachable at startup for")
                && l.contains("outage budget 6s")).count()).as(app.logTail()).isEqualTo(1);
        assertThat(text).doesNotContain("Fatal error in main loop");
        secrets.assertNoneIn(text, "the log");
    }

    @Test
    void aRefusedSaslPasswordEndsTheProcessWithoutPrintingIt() throws Exception {
        try (KafkaBroker secured = KafkaBroker.builder().saslPlainListener(Map.of("millpond", "the-right-one"))
                .start()) {
            Map<String, String> env = MillpondEnvironment.of(secured, lake, topic);
            env.putAll(secrets.environment());
            env.put("KAFKA_BOOTSTRAP_SERVERS", secured.saslPlaintextBootstrapServers());
            env.put("KAFKA_CONSUMER_SECURITY_PROTOCOL", "SASL_PLAINTEXT");
            AppProcess app = AppProcess.start(env, LOGS.resolve(topic + "-sasl.log"));
            apps.add(app);
            int exit = app.waitForExit(Duration.ofSeconds(120));
            assertThat(exit).as("authentication refused").isNotZero();
            assertThat(app.logText()).containsIgnoringCase("authentication");
            secrets.assertNoneIn(app.logText(), "the log");
        }
    }

    // ---- helpers



    private int groupMembers() {
        try {
            return kafka.admin().describeConsumerGroups(List.of(groupId())).all().get().get(groupId()).members().size();
        } catch (Exception e) {
            return 0;
        }
    }

    private static int countFlushes(String log) {
        return log.split("Flush: ", -1).length - 1;
    }

    private AppProcess start(String name, String... overrides) throws IOException {
        return start(name, List.of("-Xmx1g"), overrides);
    }

    private AppProcess start(String name, List<String> jvmOptions, String... overrides) throws IOException {
        Map<String, String> env = MillpondEnvironment.of(kafka, lake, topic, overrides);
        env.put("FLUSH_INTERVAL_MS", env.getOrDefault("FLUSH_INTERVAL_MS", "500"));
        env.put("DUCKLAKE_RDS_HOST", catalog.host());
        env.put("DUCKLAKE_RDS_PORT", String.valueOf(catalog.port()));
        env.put("DUCKDB_S3_ENDPOINT", s3.endpoint());
        env.putAll(secrets.environment());
        for (int i = 0; i + 1 < overrides.length; i += 2) {
            env.put(overrides[i], overrides[i + 1]);
        }
        AppProcess app = AppProcess.start(env, LOGS.resolve(topic + "-" + name + ".log"), jvmOptions);
        apps.add(app);
        return app;
    }

    private void produce(int events) {
        int perPartition = events / PARTITIONS;
        for (int p = 0; p < PARTITIONS; p++) {
            kafka.produce(topic, p, SampleEvents.events(produced + (long) p * perPartition, perPartition));
        }
        produced += (long) perPartition * PARTITIONS;
    }

    private static void awaitWritten(AppProcess app, long n) throws InterruptedException {
        app.await(n + " records written", Duration.ofSeconds(120),
                () -> app.metric("millpond_records_written_total").orElse(0) >= n);
    }

    private String groupId() {
        return "millpond-" + topic + "-events";
    }

    private void assertExactlyOnce(long expected) throws Exception {
        try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement()) {
            boolean exists;
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM information_schema.tables "
                    + "WHERE table_catalog = 'lake' AND table_name = 'events'")) {
                rs.next();
                exists = rs.getLong(1) > 0;
            }
            if (!exists) {
                assertThat(expected).isZero();
                return;
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM lake.main.events")) {
                rs.next();
                assertThat(rs.getLong(1)).as("rows").isEqualTo(expected);
                assertThat(rs.getLong(2)).as("distinct ids").isEqualTo(expected);
            }
        }
    }

    /** Rows in the table, asserting that no id is there twice. */
    private long distinctRows() throws Exception {
        try (Connection c = lake.openQueryConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM lake.main.events")) {
            rs.next();
            assertThat(rs.getLong(1)).as("no duplicates").isEqualTo(rs.getLong(2));
            return rs.getLong(1);
        }
    }

    private static long peakRssKb(AppProcess app) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(app.pid()), "status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

    /**
     * A secret for every kind the app knows, each a unique string that cannot occur in a log by chance: a catalog role
     * of its own with a random password (owner of the lake's catalog database), the S3 server's secret key, SASL
     * credentials (PLAIN over the plaintext listener: built into the JAAS config, never sent), an include-values
     * token for an endpoint that refuses connections (its poll fails on every interval), and an OTLP token for a logs
     * endpoint that refuses connections (every export fails).
     */
    private record Secrets(Map<String, String> environment, List<String> values) {

        static Secrets create(DuckLakeStack lake) {
            String role = Services.uniqueName(dev.millpond.testsupport.Postgres.PASSWORD_ROLE_PREFIX);
            String password = "pg-" + java.util.UUID.randomUUID() + "'q\\";
            try (Connection c = Services.postgres().connect("postgres"); Statement s = c.createStatement()) {
                s.execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + password.replace("'", "''") + "'");
                s.execute("ALTER DATABASE " + lake.catalogDatabase() + " OWNER TO " + role);
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
            int closedPort;
            try {
                closedPort = AppProcess.freePort();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            String sasl = "sasl-" + java.util.UUID.randomUUID();
            String includeToken = "iv-" + java.util.UUID.randomUUID();
            String otlpToken = "phc_" + java.util.UUID.randomUUID().toString().replace("-", "");
            Map<String, String> env = new java.util.HashMap<>();
            env.put("DUCKLAKE_RDS_USERNAME", role);
            env.put("DUCKLAKE_RDS_PASSWORD", password);
            env.put("KAFKA_CONSUMER_SASL_MECHANISMS", "PLAIN");
            env.put("KAFKA_CONSUMER_SASL_USERNAME", "millpond");
            env.put("KAFKA_CONSUMER_SASL_PASSWORD", sasl);
            env.put("MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id");
            env.put("MILLPOND_FILTER_VALUES", "1,2,3,4,5");
            env.put("MILLPOND_INCLUDE_VALUES_URL", "http://127.0.0.1:" + closedPort + "/teams");
            env.put("MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S", "2");
            env.put("MILLPOND_INCLUDE_VALUES_AUTH_HEADER_NAME", "X-Api-Key");
            env.put("MILLPOND_INCLUDE_VALUES_AUTH_TOKEN", includeToken);
            env.put("POSTHOG_PROJECT_TOKEN", otlpToken);
            env.put("POSTHOG_LOGS_ENDPOINT", "http://127.0.0.1:" + closedPort + "/i/v1/logs");
            return new Secrets(Map.copyOf(env), List.of(password, password.substring(0, password.indexOf('\'')),
                    Services.s3().secretAccessKey(), sasl, includeToken, otlpToken));
        }

        void assertNoneIn(String text, String where) {
            for (String secret : values) {
                assertThat(text).as("a secret in %s", where).doesNotContain(secret);
            }
        }
    }
}
