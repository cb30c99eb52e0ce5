package dev.millpond.testsupport;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * One Kafka broker, one PostgreSQL server and one S3 server shared by every integration test in
 * the JVM (the surefire fork), so a suite pays each start-up once rather than once per class.
 *
 * <p>Each service starts on first use; a test that only needs Kafka never starts PostgreSQL. All
 * started services are stopped, in reverse start order, by a JVM shutdown hook. Because the
 * services are shared, tests must not reconfigure or stop them, and must isolate their data by
 * name: use {@link #uniqueName(String)} for topics, consumer groups, databases and buckets. A test
 * that needs to stop or restart a broker should start its own {@link KafkaBroker}.
 *
 * <p><b>Class loaders.</b> {@code @QuarkusTest} classes, and therefore this class, are loaded by a
 * Quarkus class loader per application, separate from the one plain tests use; a plain static
 * singleton would start a second set of services. So the copy of this class in the system class
 * loader owns the services, and any other copy asks it (reflectively, exchanging only
 * {@code Map<String, String>} coordinates) and builds attached, client-side views. Owning them from
 * the system class loader also keeps the servers away from Quarkus class loaders, which Quarkus
 * closes when an application stops.
 */
public final class Services {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Deque<AutoCloseable> STARTED = new ArrayDeque<>();
    private static final String KAFKA = "kafka";
    private static final String POSTGRES = "postgres";
    private static final String S3 = "s3";

    private static KafkaBroker kafka;
    private static Postgres postgres;
    private static S3Server s3;
    private static boolean shutdownHookInstalled;

    private Services() {
    }

    public static synchronized KafkaBroker kafka() {
        if (kafka == null) {
            kafka = isOwner() ? started(KafkaBroker::start) : KafkaBroker.attach(ownerCoordinates(KAFKA));
        }
        return kafka;
    }

    public static synchronized Postgres postgres() {
        if (postgres == null) {
            postgres = isOwner() ? started(Postgres::start) : Postgres.attach(ownerCoordinates(POSTGRES));
        }
        return postgres;
    }

    public static synchronized S3Server s3() {
        if (s3 == null) {
            s3 = isOwner() ? started(S3Server::start) : S3Server.attach(ownerCoordinates(S3));
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
     * (buckets forbid '_', PostgreSQL needs quotes for '-'). Example: {@code orders7x2m9q}.
     */
    public static String uniqueName(String prefix) {
        String cleaned = prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        if (cleaned.isEmpty() || !Character.isLetter(cleaned.charAt(0))) {
            cleaned = "t" + cleaned;
        }
        if (cleaned.length() > 40) {
            cleaned = cleaned.substring(0, 40);
        }
        // The sequence is per class loader, so the random part is what keeps names from copies of
        // this class in different class loaders apart.
        String random = Integer.toString(RANDOM.nextInt(36 * 36 * 36 * 36 * 36), 36);
        return cleaned + SEQUENCE.incrementAndGet() + "x" + random;
    }

    private static boolean isOwner() {
        return Services.class.getClassLoader() == ClassLoader.getSystemClassLoader() || ownerClass() == null;
    }

    /** This class as loaded by the system class loader, or null if that loader cannot see test classes. */
    private static Class<?> ownerClass() {
        try {
            return Class.forName(Services.class.getName(), true, ClassLoader.getSystemClassLoader());
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> ownerCoordinates(String service) {
        try {
            Method method = ownerClass().getDeclaredMethod("coordinatesOfOwned", String.class);
            method.setAccessible(true);
            return (Map<String, String>) method.invoke(null, service);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("shared " + service + " did not start", e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach the shared services in the system class loader", e);
        }
    }

    /** Called reflectively on the owning copy of this class by copies in other class loaders. */
    @SuppressWarnings("unused")
    private static Map<String, String> coordinatesOfOwned(String service) {
        return switch (service) {
            case KAFKA -> kafka().coordinates();
            case POSTGRES -> postgres().coordinates();
            case S3 -> s3().coordinates();
            default -> throw new IllegalArgumentException(service);
        };
    }

    /**
     * Starts a service with this class's loader as the thread context class loader. Kafka
     * instantiates its plugins through the context loader, and a Quarkus test's loader would give
     * it mismatched classes (NoSuchMethodException at broker start-up); threads the service
     * creates inherit the context loader, so it must not be one that Quarkus later closes.
     */
    private static <T extends AutoCloseable> T started(Supplier<T> start) {
        if (!shutdownHookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(Services::stopAll, "millpond-test-services-stop"));
            shutdownHookInstalled = true;
        }
        Thread thread = Thread.currentThread();
        ClassLoader callerLoader = thread.getContextClassLoader();
        thread.setContextClassLoader(Services.class.getClassLoader());
        try {
            T service = start.get();
            STARTED.push(service);
            return service;
        } finally {
            thread.setContextClassLoader(callerLoader);
        }
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
