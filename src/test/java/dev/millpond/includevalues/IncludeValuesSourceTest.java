package dev.millpond.includevalues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.millpond.config.IncludeValuesAuth;
import dev.millpond.config.IncludeValuesConfig;
import dev.millpond.config.IncludeValuesMode;
import dev.millpond.config.IncludeValuesPolling;
import dev.millpond.config.Secret;
import dev.millpond.config.FilterSpec;
import dev.millpond.config.FilterValues;
import dev.millpond.includevalues.ScriptedEndpoint.Response;
import dev.millpond.observability.MillpondMetrics;
import dev.millpond.testsupport.Await;
import dev.millpond.testsupport.MetricsText;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The lifecycle: mode gauge, the authoritative startup gate, the jittered schedule really running, and stop. */
class IncludeValuesSourceTest {

    private static final String PIPELINE = "t-events";
    private static final FilterSpec PINS = new FilterSpec("team_id", new FilterValues.Ints(List.of(1L, 2L)));

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MillpondMetrics metrics = new MillpondMetrics(registry, PIPELINE, "");
    private final ScriptedEndpoint endpoint = new ScriptedEndpoint();
    private IncludeValuesSource source;

    @AfterEach
    void stop() {
        if (source != null) {
            source.close();
        }
        endpoint.close();
    }

    @Test
    void withoutAUrlTheStaticListIsTheEffectiveSetAndTheModeIsStatic() throws Exception {
        source = source(new IncludeValuesConfig(IncludeValuesMode.STATIC, Optional.of(PINS), Optional.empty()));
        source.start();
        Supplier<FilterValues> effective = source.effectiveSet().orElseThrow();
        assertThat(effective.get().ints()).isEqualTo(Set.of(1L, 2L));
        assertThat(effective.get()).isSameAs(effective.get());
        assertThat(IncludeValuesSeries.in(registry.scrape(), PIPELINE))
                .isEqualTo(IncludeValuesSeries.atStartupAnd(Map.of("mode{mode=static}", 1.0)));
        assertThat(endpoint.received()).isEmpty();
    }

    @Test
    void withoutAKeepFilterThereIsNoSet() throws Exception {
        source = source(new IncludeValuesConfig(IncludeValuesMode.STATIC, Optional.empty(), Optional.empty()));
        source.start();
        assertThat(source.effectiveSet()).isEmpty();
        assertThat(IncludeValuesSeries.in(registry.scrape(), PIPELINE))
                .isEqualTo(IncludeValuesSeries.atStartupAnd(Map.of("mode{mode=static}", 1.0)));
    }

    @Test
    void authoritativeStartupReturnsOnlyAfterTheFirstSuccessfulPoll() throws Exception {
        endpoint.then(Response.status(503), Response.status(503), Response.json("[1, 2, 5]"));
        source = source(authoritative(polling(endpoint.url(), Duration.ofMillis(200), Duration.ofSeconds(30))));
        source.start();
        assertThat(source.effectiveSet().orElseThrow().get().ints()).isEqualTo(Set.of(1L, 2L, 5L));
        Map<String, Double> series = IncludeValuesSeries.in(registry.scrape(), PIPELINE);
        assertThat(series).containsEntry("mode{mode=authoritative}", 1.0)
                .containsEntry("poll_failures_total", 2.0)
                .containsEntry("size", 3.0)
                .containsEntry("pinned", 2.0)
                .containsEntry("changes_total{action=add}", 1.0);
    }

    @Test
    void authoritativeStartupWithTheEndpointDownFailsAfterTheStartupTimeout() throws Exception {
        URI down = endpoint.url();
        endpoint.close();
        IncludeValuesPolling polling = new IncludeValuesPolling(down, Duration.ofSeconds(60), 5,
                Duration.ofSeconds(10), Duration.ofSeconds(1),
                Optional.of(new IncludeValuesAuth("X-Internal-Secret", Secret.of("s3cr3t"))));
        source = source(authoritative(polling));
        long started = System.nanoTime();

        assertThatThrownBy(source::start)
                .isInstanceOf(IncludeValuesStartupException.class)
                .hasMessageContaining("MILLPOND_INCLUDE_VALUES_MODE=authoritative")
                .hasMessageContaining("MILLPOND_INCLUDE_VALUES_STARTUP_TIMEOUT_S=1.0s")
                .hasMessageContaining("refusing to start on the static pins alone")
                .message().doesNotContain("s3cr3t");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("it waited out the budget")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        assertThat(source.effectiveSet().orElseThrow().get().ints()).isEqualTo(Set.of(1L, 2L));
        assertThat(MetricsText.metric(registry.scrape(), "millpond_include_values_poll_failures_total").orElseThrow())
                .isGreaterThanOrEqualTo(1.0);
        assertThat(MetricsText.metric(registry.scrape(), "millpond_include_values_last_success_timestamp_seconds"))
                .hasValue(0.0); // never succeeded
    }

    /**
     * The last attempt before the budget runs out gets only what is left of it and times out; the line names why the
     * attempt before it failed instead (here a 503; in the pod, a list too large for the heap share), unless that
     * attempt timed out with its whole request timeout too.
     */
    @Test
    void theStartupFailureNamesTheLastAttemptThatDidNotRunOutOfTheBudget() {
        endpoint.then(Response.status(503), Response.json("[1]").delayedBy(Duration.ofMinutes(5)));
        source = source(authoritative(new IncludeValuesPolling(endpoint.url(), Duration.ofMillis(100), 5,
                Duration.ofSeconds(1), Duration.ofSeconds(3), Optional.empty())));

        assertThatThrownBy(source::start)
                .isInstanceOf(IncludeValuesStartupException.class)
                .hasMessageContaining("(last error: no complete response within 1000 ms)");

        endpoint.then(Response.status(503), Response.json("[1]").delayedBy(Duration.ofMinutes(5)));
        source.close();
        source = source(authoritative(new IncludeValuesPolling(endpoint.url(), Duration.ofMillis(100), 5,
                Duration.ofSeconds(10), Duration.ofSeconds(2), Optional.empty())));
        assertThatThrownBy(source::start)
                .isInstanceOf(IncludeValuesStartupException.class)
                .hasMessageContaining("(last error: HTTP 503)");
    }

    @Test
    void closingDuringTheAuthoritativeStartupWaitEndsIt() throws Exception {
        URI down = endpoint.url();
        endpoint.close();
        source = source(authoritative(polling(down, Duration.ofSeconds(60), Duration.ofSeconds(600))));
        CompletableFuture<Void> starting = CompletableFuture.runAsync(() -> {
            try {
                source.start();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        // The counter is registered from the first scrape, so wait for it to move, not to exist.
        awaitTrue("a first failed attempt", () -> MetricsText.metric(registry.scrape(),
                "millpond_include_values_poll_failures_total").orElse(0.0) >= 1.0);
        source.close();
        assertThatThrownBy(() -> starting.get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(IncludeValuesStartupException.class).hasMessageContaining("stopped");
    }

    @Test
    void theJitteredScheduleReallyPollsUntilClosed() throws Exception {
        List<Thread> others = pollThreads();
        endpoint.thenJson("[1, 3]");
        source = source(new IncludeValuesConfig(IncludeValuesMode.SHADOW, Optional.of(PINS),
                Optional.of(polling(endpoint.url(), Duration.ofMillis(50), Duration.ofSeconds(1)))));
        source.start();
        awaitTrue("three scheduled polls", () -> endpoint.received().size() >= 3);
        assertThat(source.effectiveSet().orElseThrow().get().ints()).as("shadow").isEqualTo(Set.of(1L, 2L));
        assertThat(IncludeValuesSeries.in(registry.scrape(), PIPELINE)).containsEntry("mode{mode=shadow}", 1.0)
                .containsEntry("shadow_only_remote", 1.0).containsEntry("shadow_only_static", 1.0);

        List<Thread> pollers = pollThreads().stream().filter(t -> !others.contains(t)).toList();
        assertThat(pollers).as("the schedule's own thread").hasSize(1);
        source.close();
        int afterClose = endpoint.received().size();
        // Polls happen on that thread only, and a shut-down executor starts no other: once it has ended, no poll can
        // follow, so there is nothing to wait out.
        awaitTrue("the poll thread to end", () -> !pollers.get(0).isAlive());
        assertThat(endpoint.received()).hasSize(afterClose);
    }

    @Test
    void theScheduleAppliesAnAdditionServedAfterStartup() throws Exception {
        endpoint.then(Response.json("[1, 2]"), Response.json("[1, 2, 7]"));
        source = source(authoritative(polling(endpoint.url(), Duration.ofMillis(50), Duration.ofSeconds(5))));
        source.start();
        Supplier<FilterValues> effective = source.effectiveSet().orElseThrow();
        awaitTrue("7 admitted", () -> effective.get().ints().contains(7L));
        assertThat(effective.get().ints()).isEqualTo(Set.of(1L, 2L, 7L));
    }

    // ---- helpers ----

    private IncludeValuesSource source(IncludeValuesConfig config) {
        return new IncludeValuesSource(config, 1L << 20, metrics, Clock.systemUTC());
    }

    private static IncludeValuesConfig authoritative(IncludeValuesPolling polling) {
        return new IncludeValuesConfig(IncludeValuesMode.AUTHORITATIVE, Optional.of(PINS), Optional.of(polling));
    }

    private static IncludeValuesPolling polling(URI url, Duration interval, Duration startupTimeout) {
        return new IncludeValuesPolling(url, interval, 5, Duration.ofSeconds(5), startupTimeout, Optional.empty());
    }

    /** Waits for a condition the background thread brings about; the deadline only guards against a hang. */
    private static void awaitTrue(String what, Callable<Boolean> condition) {
        Await.within(Duration.ofSeconds(20), what).pollInterval(Duration.ofMillis(10)).until(condition);
    }

    private static List<Thread> pollThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("millpond-include-values") && t.isAlive()).toList();
    }
}
