package dev.millpond.testsupport;

import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One Kafka broker, one PostgreSQL server and one S3 server shared by every integration test in
 * the JVM (the surefire fork), so a suite pays each start-up once rather than once per class.
 *
 * <p>Each service starts on first use; a test that only needs Kafka never starts PostgreSQL. All
 * started services are stopped, in reverse start order, by a JVM shutdown hook. Because the
 * services are shared, tests must not reconfigure or stop them, and must isolate their data by
 * name: use {@link #uniqueName(String)} for topics, consumer groups, databases and buckets. A test
 * that needs to stop or restart a broker should start its own {@link KafkaBroker}.
 */
public final class Services {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Deque<AutoCloseable> STARTED = new ArrayDeque<>();

    private static KafkaBroker kafka;
    private static Postgres postgres;
    private static S3Server s3;
    private static boolean shutdownHookInstalled;

    private Services() {
    }

    public static synchronized KafkaBroker kafka() {
        if (kafka == null) {
            kafka = started(KafkaBroker.start());
        }
        return kafka;
    }

    public static synchronized Postgres postgres() {
        if (postgres == null) {
            postgres = started(Postgres.start());
        }
        return postgres;
    }

    public static synchronized S3Server s3() {
        if (s3 == null) {
            s3 = started(S3Server.start());
        }
        return s3;
    }

    /** A fresh DuckLake catalog database and bucket on the shared PostgreSQL and S3 servers. */
    public static DuckLakeStack newDuckLake() {
        return DuckLakeStack.create(postgres(), s3());
    }

    /**
     * A name no other test in this JVM will get, made of lower-case letters and digits only, so
     * the same value is valid as a Kafka topic, consumer group, PostgreSQL database and S3 bucket
     * (buckets forbid '_', PostgreSQL needs quotes for '-'). Example: {@code orders7k2m9q4}.
     */
    public static String uniqueName(String prefix) {
        String cleaned = prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        if (cleaned.isEmpty() || !Character.isLetter(cleaned.charAt(0))) {
            cleaned = "t" + cleaned;
        }
        if (cleaned.length() > 40) {
            cleaned = cleaned.substring(0, 40);
        }
        String random = Integer.toString(RANDOM.nextInt(36 * 36 * 36 * 36), 36);
        return cleaned + SEQUENCE.incrementAndGet() + "x" + random;
    }

    private static <T extends AutoCloseable> T started(T service) {
        if (!shutdownHookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(Services::stopAll, "millpond-test-services-stop"));
            shutdownHookInstalled = true;
        }
        STARTED.push(service);
        return service;
    }

    private static synchronized void stopAll() {
        while (!STARTED.isEmpty()) {
            AutoCloseable service = STARTED.pop();
            try {
                service.close();
            } catch (Exception e) {
                // Keep stopping the others; the JVM is exiting and a leftover process is worse than a log line.
                System.err.println("[millpond] failed to stop " + service.getClass().getSimpleName() + ": " + e);
            }
        }
        kafka = null;
        postgres = null;
        s3 = null;
    }
}
