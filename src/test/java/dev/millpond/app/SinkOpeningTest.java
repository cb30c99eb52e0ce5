package dev.millpond.app;

import dev.millpond.config.MillpondConfig;
import dev.millpond.observability.PumpHealth;
import dev.millpond.pump.Sleeper;
import dev.millpond.sinks.Sink;
import dev.millpond.sinks.StartupOutage;
import dev.millpond.testsupport.TestEnv;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The startup wait for a sink: an outage verdict is tried again with the write ladder's backoff within the budget,
 * anything else fails at once, a spent budget fails naming what was unreachable, and a stop ends the wait.
 */
class SinkOpeningTest {

    private final List<Double> sleeps = new ArrayList<>();
    private final Sleeper sleeper = sleeps::add;
    private final PumpHealth health = new PumpHealth();

    @Test
    void anUnreachableCatalogIsTriedAgainUntilItOpens() throws Exception {
        MillpondConfig config = config("300");
        AtomicInteger calls = new AtomicInteger();
        Sink sink = (Sink) java.lang.reflect.Proxy.newProxyInstance(Sink.class.getClassLoader(),
                new Class<?>[]{Sink.class}, (proxy, method, args) -> null);
        SinkFactory factory = factory(config, () -> {
            if (calls.incrementAndGet() <= 4) {
                throw new SQLException("IO Error: Unable to connect to Postgres at \"host=pg.internal password=***\":"
                        + " connection to server at \"pg.internal\", port 5432 failed: Connection refused");
            }
            return sink;
        });

        Sink opened = new SinkOpening(factory, health, sleeper, () -> false)
                .open(null, null, null);

        assertThat(opened).isSameAs(sink);
        assertThat(calls).hasValue(5);
        // Four waits of the write ladder's back-off, each slept in steps short enough to notice a stop request.
        assertThat(sleeps).allSatisfy(step -> assertThat(step).isBetween(0.0, 0.2));
        assertThat(sleeps.stream().mapToDouble(Double::doubleValue).sum()).isGreaterThan(4 * 0.5);
        assertThat(health.alive()).isTrue();
        assertThat(health.ready()).as("not ready before the pipeline says the sink is ready").isFalse();
    }

    @Test
    void aWrongPasswordFailsAtOnceInOneLineWithoutThePassword() {
        MillpondConfig config = config("300");
        AtomicInteger calls = new AtomicInteger();
        SinkFactory factory = factory(config, () -> {
            calls.incrementAndGet();
            throw new SQLException("IO Error: Unable to connect to Postgres at \"host=pg.internal password=***\":\n"
                    + "connection to server at \"pg.internal\", port 5432 failed: FATAL:  password authentication"
                    + " failed for user \"millpond\"\n");
        });

        assertThatThrownBy(() -> new SinkOpening(factory, health, sleeper, () -> false)
                .open(null, null, null))
                .isInstanceOf(SinkStartupException.class)
                .hasMessageStartingWith("Cannot open the DuckLake sink: IO Error")
                .hasMessageContaining("password authentication failed")
                .hasMessageNotContaining("\n").hasMessageNotContaining("pg-s3cr3t-pw");
        assertThat(calls).hasValue(1);
        assertThat(sleeps).isEmpty();
    }

    @Test
    void aSpentBudgetFailsNamingWhatWasUnreachable() {
        MillpondConfig config = config("1");
        SinkFactory factory = factory(config, () -> {
            throw new SQLException("IO Error: Could not establish connection error for HTTP HEAD to"
                    + " 'http://127.0.0.1:9/bucket/x'");
        });
        // The waits spend the budget on a clock they advance, as real sleeps would advance the real one.
        long[] nanoTime = {0};
        Sleeper advancing = seconds -> nanoTime[0] += Math.round(seconds * 1e9);

        assertThatThrownBy(() -> new SinkOpening(factory, health, advancing, () -> false, () -> nanoTime[0])
                .open(null, null, null))
                .isInstanceOf(SinkStartupException.class)
                .hasMessageStartingWith("the object store (S3, data path s3://bucket/lake/) stayed unreachable at"
                        + " startup for 1.0s (")
                .hasMessageContaining("outage budget 1s, MILLPOND_SINK_OUTAGE_BUDGET_S")
                .hasMessageContaining("Could not establish connection");
    }

    @Test
    void aZeroBudgetFailsAtTheFirstOutage() {
        MillpondConfig config = config("0");
        AtomicInteger calls = new AtomicInteger();
        SinkFactory factory = factory(config, () -> {
            calls.incrementAndGet();
            throw new SQLException("connection to server at \"pg.internal\" failed: Connection refused");
        });

        assertThatThrownBy(() -> new SinkOpening(factory, health, sleeper, () -> false)
                .open(null, null, null))
                .hasMessageStartingWith("the DuckLake catalog (Postgres at pg.internal:5432, database ducklake)");
        assertThat(calls).hasValue(1);
    }

    @Test
    void aStopEndsTheWait() {
        MillpondConfig config = config("300");
        AtomicBoolean stop = new AtomicBoolean();
        SinkFactory factory = factory(config, () -> {
            stop.set(true);
            throw new SQLException("connection to server at \"pg.internal\" failed: Connection refused");
        });

        assertThatThrownBy(() -> new SinkOpening(factory, health, sleeper, stop::get)
                .open(null, null, null)).isInstanceOf(SinkOpening.Abandoned.class);
    }

    @Test
    void anUnreachableHoglakeControlPlaneIsNamedByItsUrl() {
        MillpondConfig config = TestEnv.load("MILLPOND_DESTINATION", "hoglake",
                "HOGLAKE_URL", "http://hoglake.internal:8080", "HOGLAKE_ALLOW_INSECURE_HTTP", "true",
                "HOGLAKE_CATALOG", "millpond", "HOGLAKE_NAMESPACE", "analytics", "HOGLAKE_TABLE", "events",
                "MILLPOND_SINK_OUTAGE_BUDGET_S", "0");
        SinkFactory factory = SinkFactory.forDestination(config, "/nonexistent");
        assertThat(factory.unreachable(StartupOutage.CATALOG))
                .isEqualTo("the hoglake control plane (http://hoglake.internal:8080)");
        assertThat(factory.writeRetry().ladder().attempts()).as("hoglake's own ladder").isEqualTo(
                dev.millpond.pump.WriteRetry.hoglakeWrites(config.hoglake().maxRetryCount(), java.time.Duration.ZERO)
                        .ladder().attempts());
    }

    @FunctionalInterface
    private interface Opener {
        Sink open() throws Exception;
    }

    private static SinkFactory factory(MillpondConfig config, Opener opener) {
        return SinkFactory.forDestination(config, "/nonexistent").openingWith((metrics, memory, budget) -> opener.open());
    }

    private static MillpondConfig config(String budget) {
        return TestEnv.load("MILLPOND_SINK_OUTAGE_BUDGET_S", budget);
    }
}
