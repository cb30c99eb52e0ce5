package dev.millpond.includevalues;

import dev.millpond.config.FilterValues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.millpond.config.IncludeValuesAuth;
import dev.millpond.config.IncludeValuesMode;
import dev.millpond.config.IncludeValuesPolling;
import dev.millpond.config.Secret;
import dev.millpond.includevalues.ScriptedEndpoint.Response;
import dev.millpond.observability.MillpondMetrics;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The poller against a real local HTTP server, one scripted answer per poll. After every poll the test asserts the
 * effective set the keep filter would read and the complete set of include-values series.
 */
class IncludeValuesPollerTest {

    private static final String PIPELINE = "t-events";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MillpondMetrics metrics = new MillpondMetrics(registry, PIPELINE, "");
    private final SteppingClock clock = new SteppingClock(Instant.ofEpochSecond(1_700_000_000L));
    private final ScriptedEndpoint endpoint = new ScriptedEndpoint();
    /** What every include-values series must read now; updated as each poll's effect is expected. */
    private final Map<String, Double> expected = new TreeMap<>();

    @AfterEach
    void stopEndpoint() {
        endpoint.close();
    }

    @Test
    void authoritativeSequenceAppliesAdditionsDampsRemovalsAndRefusesBadPolls() throws Exception {
        IncludeValuesPoller poller = poller(IncludeValuesMode.AUTHORITATIVE, polling(endpoint.url(), 3), pins(1, 2));
        Supplier<FilterValues> effective = poller.effectiveSet();
        assertEffective(effective, 1, 2);
        assertSeries();

        endpoint.thenJson("[1, 2, 10, 11]");
        assertThat(poll(poller)).isTrue();
        assertEffective(effective, 1, 2, 10, 11);
        succeeded(4, 0);
        expected.put("changes_total{action=add}", 2.0);
        expected.put("pinned", 2.0);
        expected.put("pinned_only", 0.0);
        assertSeries();

        endpoint.thenJson("[1, 2, 10, 11, 12]");
        assertThat(poll(poller)).isTrue();
        assertEffective(effective, 1, 2, 10, 11, 12);
        succeeded(5, 0);
        expected.put("changes_total{action=add}", 3.0);
        assertSeries();

        endpoint.thenJson("[1, 2, 10, 11]");
        assertThat(poll(poller)).as("12 absent: countdown 1 of 3").isTrue();
        assertEffective(effective, 1, 2, 10, 11, 12);
        succeeded(5, 1);
        assertSeries();

        endpoint.then(Response.status(503));
        FilterValues beforeFailure = effective.get();
        assertThat(poll(poller)).as("failure in the middle of the countdown").isFalse();
        assertThat(effective.get()).isSameAs(beforeFailure);
        expected.put("poll_failures_total", 1.0);
        assertSeries();

        endpoint.thenJson("[1, 2, 10, 11]");
        assertThat(poll(poller)).as("countdown 2 of 3: the failure did not count").isTrue();
        assertEffective(effective, 1, 2, 10, 11, 12);
        succeeded(5, 1);
        assertSeries();

        endpoint.thenJson("[1, 2, 10, 11]");
        assertThat(poll(poller)).as("countdown 3 of 3").isTrue();
        assertEffective(effective, 1, 2, 10, 11);
        succeeded(4, 0);
        expected.put("changes_total{action=remove}", 1.0);
        assertSeries();

        endpoint.thenJson("[]");
        assertThat(poll(poller)).as("empty while 10 and 11 are endpoint-managed").isTrue();
        assertEffective(effective, 1, 2, 10, 11);
        succeeded(4, 0);
        expected.put("refused_total{reason=empty}", 1.0);
        assertSeries();

        endpoint.thenJson("[30]");
        assertThat(poll(poller)).as("10 and 11 gone at once; the unserved pins are not in the denominator").isTrue();
        assertEffective(effective, 1, 2, 10, 11, 30);
        succeeded(5, 0);
        expected.put("refused_total{reason=bulk_removal}", 1.0);
        expected.put("changes_total{action=add}", 4.0);
        assertSeries();

        endpoint.thenJson("[\"1\", \"2\", \"10\"]");
        assertThat(poll(poller)).isTrue();
        assertEffective(effective, 1, 2, 10, 11, 30);
        succeeded(5, 0);
        expected.put("refused_total{reason=type_flip}", 1.0);
        assertSeries();

        endpoint.thenJson("[1, 2.5]");
        assertThat(poll(poller)).as("not an array of integers or strings").isFalse();
        assertEffective(effective, 1, 2, 10, 11, 30);
        expected.put("poll_failures_total", 2.0);
        assertSeries();

        assertThat(endpoint.received()).hasSize(10)
                .allSatisfy(r -> assertThat(r.header("Accept")).isEqualTo("application/json"));
    }

    @Test
    void aPinsOnlySetAcceptsAnEmptyEndpoint() throws Exception {
        IncludeValuesPoller poller = poller(IncludeValuesMode.AUTHORITATIVE, polling(endpoint.url(), 5), pins(1, 2));
        endpoint.thenJson("[]");
        assertThat(poll(poller)).isTrue();
        assertEffective(poller.effectiveSet(), 1, 2);
        succeeded(2, 0);
        expected.put("pinned", 2.0);
        expected.put("pinned_only", 2.0);
        assertSeries();
    }

    @Test
    void shadowModeRunsTheSameMachineButNeverChangesTheEffectiveSet() throws Exception {
        IncludeValuesPoller poller = poller(IncludeValuesMode.SHADOW, polling(endpoint.url(), 2), pins(1, 2));
        Supplier<FilterValues> effective = poller.effectiveSet();
        FilterValues staticSet = effective.get();
        expected.put("pinned", 2.0);

        endpoint.thenJson("[1, 3, 4]");
        assertThat(poll(poller)).isTrue();
        assertThat(effective.get()).isSameAs(staticSet);
        succeeded(4, 0);
        expected.put("pinned_only", 1.0);
        expected.put("shadow_only_static", 1.0);
        expected.put("shadow_only_remote", 2.0);
        assertSeries();

        endpoint.thenJson("[1, 3]");
        assertThat(poll(poller)).isTrue();
        assertThat(effective.get()).isSameAs(staticSet);
        succeeded(4, 1);
        expected.put("shadow_only_remote", 1.0);
        assertSeries();

        endpoint.thenJson("[]");
        assertThat(poll(poller)).isTrue();
        assertThat(effective.get()).isSameAs(staticSet);
        succeeded(4, 1);
        expected.put("refused_total{reason=empty}", 1.0);
        assertSeries();

        endpoint.thenJson("[1, 3]");
        assertThat(poll(poller)).as("4 leaves the shadow set, predicting the flip's set").isTrue();
        assertThat(effective.get()).isSameAs(staticSet);
        assertEffective(effective, 1, 2);
        succeeded(3, 0);
        assertSeries();
    }

    @ParameterizedTest(name = "HTTP {0}")
    @ValueSource(ints = {301, 302, 303, 307, 308})
    void aRedirectIsAFailureAndTheAuthHeaderNeverReachesTheOtherHost(int status) throws Exception {
        try (ScriptedEndpoint otherHost = new ScriptedEndpoint()) {
            otherHost.thenJson("[1, 2, 99]");
            endpoint.then(Response.redirectTo(otherHost.url(), status));
            IncludeValuesPolling polling = new IncludeValuesPolling(endpoint.url(), Duration.ofSeconds(60), 5,
                    Duration.ofSeconds(5), Duration.ofSeconds(5),
                    Optional.of(new IncludeValuesAuth("X-Internal-Secret", Secret.of("s3cr3t"))));
            IncludeValuesPoller poller = poller(IncludeValuesMode.AUTHORITATIVE, polling, pins(1, 2));

            assertThat(poll(poller)).isFalse();
            assertEffective(poller.effectiveSet(), 1, 2);
            expected.put("poll_failures_total", 1.0);
            assertSeries();
            assertThat(endpoint.received()).singleElement()
                    .satisfies(r -> assertThat(r.header("X-Internal-Secret")).isEqualTo("s3cr3t"));
            assertThat(otherHost.received()).isEmpty();
        }
    }

    @Test
    void anEndpointSlowerThanTheTimeoutIsAFailureAndTheNextPromptAnswerApplies() throws Exception {
        IncludeValuesPolling polling = new IncludeValuesPolling(endpoint.url(), Duration.ofSeconds(60), 5,
                Duration.ofMillis(300), Duration.ofSeconds(5), Optional.empty());
        IncludeValuesPoller poller = poller(IncludeValuesMode.AUTHORITATIVE, polling, pins(1, 2));
        endpoint.then(Response.json("[1, 2, 10]").delayedBy(Duration.ofSeconds(30)), Response.json("[1, 2, 10]"));

        assertThat(poll(poller)).isFalse();
        assertEffective(poller.effectiveSet(), 1, 2);
        expected.put("poll_failures_total", 1.0);
        assertSeries();
        assertThat(poller.lastFailure()).contains("300 ms");

        assertThat(poll(poller)).isTrue();
        assertEffective(poller.effectiveSet(), 1, 2, 10);
        succeeded(3, 0);
        expected.put("changes_total{action=add}", 1.0);
        expected.put("pinned", 2.0);
        expected.put("pinned_only", 0.0);
        assertSeries();
    }

    @Test
    void nonSuccessStatusesAndAnUnreachableHostAreFailures() throws Exception {
        IncludeValuesPoller poller = poller(IncludeValuesMode.AUTHORITATIVE, polling(endpoint.url(), 5), pins(1));
        endpoint.then(Response.status(404), Response.status(500), Response.status(204));
        assertThat(poll(poller)).isFalse();
        assertThat(poll(poller)).isFalse();
        assertThat(poll(poller)).as("204 has no array").isFalse();
        URI closed = endpoint.url();
        endpoint.close();
        IncludeValuesPoller unreachable = new IncludeValuesPoller(IncludeValuesMode.AUTHORITATIVE,
                polling(closed, 5), pins(1), 1L << 20, metrics, clock);
        assertThat(poll(unreachable)).isFalse();
        assertEffective(poller.effectiveSet(), 1);
        expected.put("poll_failures_total", 4.0);
        assertSeries();
    }

    // ---- helpers ----

    private IncludeValuesPoller poller(IncludeValuesMode mode, IncludeValuesPolling polling, FilterValues pins) {
        return new IncludeValuesPoller(mode, polling, pins, 1L << 20, metrics, clock);
    }

    /** One poll, then a minute passes, so each success has its own expected timestamp. */
    private boolean poll(IncludeValuesPoller poller) throws InterruptedException {
        boolean ok = poller.pollOnce();
        clock.advanceSeconds(60);
        return ok;
    }

    /** The three gauges every successful poll sets; the timestamp is the poll's (one step back). */
    private void succeeded(int size, int pending) {
        expected.put("size", (double) size);
        expected.put("pending_removals", (double) pending);
        expected.put("last_success_timestamp_seconds", clock.epochSeconds() - 60);
    }

    private void assertSeries() {
        assertThat(IncludeValuesSeries.in(registry.scrape(), PIPELINE))
                .isEqualTo(IncludeValuesSeries.atStartupAnd(expected));
    }

    static IncludeValuesPolling polling(URI url, int removalPolls) {
        return new IncludeValuesPolling(url, Duration.ofSeconds(60), removalPolls, Duration.ofSeconds(5),
                Duration.ofSeconds(5), Optional.empty());
    }

    static FilterValues pins(long... values) {
        return FilterValues.of(FilterValues.Type.INTEGER, Arrays.stream(values).boxed().toList());
    }

    private static void assertEffective(Supplier<FilterValues> effective, long... values) {
        Set<Long> expectedValues = Arrays.stream(values).boxed().collect(Collectors.toSet());
        assertThat(effective.get().ints()).isEqualTo(expectedValues);
    }
}
