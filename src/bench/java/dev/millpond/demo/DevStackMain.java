package dev.millpond.demo;

import dev.millpond.testsupport.DuckLakeStack;
import dev.millpond.testsupport.KafkaBroker;
import dev.millpond.testsupport.Postgres;
import dev.millpond.testsupport.S3Server;
import dev.millpond.testsupport.events.SampleEvents;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./mvnw -Pdev-stack test-compile}: the services docker-compose.yml would run, for machines without a container
 * engine — a KRaft broker, PostgreSQL (the DuckLake catalog) and an S3 server, all in this JVM on 127.0.0.1 — plus a
 * producer of sample events (a few per second on every partition). Writes the environment for
 * {@code ./mvnw quarkus:dev} to {@code target/dev-stack.env}, prints it, and runs until Ctrl-C. Test-scope code:
 * nothing of it ships.
 */
public final class DevStackMain {

    static final String TOPIC = "events";
    static final int PARTITIONS = 4;

    public static void main(String[] args) throws Exception {
        Path envFile = Path.of(System.getProperty("millpond.dev.env", "target/dev-stack.env")).toAbsolutePath();
        int perSecond = Integer.getInteger("millpond.dev.events-per-second", 20);
        KafkaBroker kafka = KafkaBroker.start();
        Postgres postgres = Postgres.start();
        S3Server s3 = S3Server.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopped.countDown();
            closeQuietly(s3);
            closeQuietly(postgres);
            closeQuietly(kafka);
        }, "dev-stack-stop"));

        kafka.createTopic(TOPIC, PARTITIONS);
        DuckLakeStack lake = DuckLakeStack.create(postgres, s3);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        env.put("KAFKA_TOPIC", TOPIC);
        env.put("REPLICA_COUNT", "1");
        env.put("POD_NAME", "millpond-0");
        env.put("FLUSH_INTERVAL_MS", "5000");
        env.put("DUCKLAKE_TABLE", "events");
        env.putAll(lake.environment());
        env.put("MILLPOND_DUCKDB_EXTENSION_DIR",
                Path.of(System.getProperty("millpond.duckdb.extensions", ".duckdb-extensions")).toAbsolutePath()
                        .toString());
        env.put("MILLPOND_LOG_FORMAT", "text");
        env.put("MAVEN_ARGS", "-Djvm.args=--add-opens=java.base/java.nio=ALL-UNNAMED");

        StringBuilder text = new StringBuilder("# Written by ./mvnw -Pdev-stack test-compile; valid while it runs.\n");
        env.forEach((k, v) -> text.append(k).append("='").append(v.replace("'", "'\\''")).append("'\n"));
        Files.createDirectories(envFile.getParent());
        Files.writeString(envFile, text);
        System.out.println(text);
        System.out.println("[dev-stack] environment written to " + envFile + "; in another shell, from the repository"
                + " root:\n\n    set -a; . " + envFile + "; set +a; ./mvnw quarkus:dev\n\n[dev-stack] producing "
                + perSecond + " events/s to '" + TOPIC + "' (" + PARTITIONS + " partitions); Ctrl-C stops everything");

        long id = 0;
        while (stopped.getCount() > 0) {
            for (int p = 0; p < PARTITIONS; p++) {
                int n = Math.max(1, perSecond / PARTITIONS);
                kafka.produce(TOPIC, p, SampleEvents.events(id, n));
                id += n;
            }
            Thread.sleep(1000);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // stopping anyway
        }
    }
}
