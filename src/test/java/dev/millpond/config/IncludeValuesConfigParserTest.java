package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** MILLPOND_INCLUDE_VALUES_* through {@link ConfigLoader#load}: the mode table, defaults, and every refusal. */
class IncludeValuesConfigParserTest {

    private static final String[] KEEP = {"MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id",
        "MILLPOND_FILTER_VALUES", "2, 4,,1956 ,69,4"};
    private static final String URL = "MILLPOND_INCLUDE_VALUES_URL";

    @Test
    void noFilterAndNoUrlIsStaticWithoutValues() {
        IncludeValuesConfig c = TestEnv.load().includeValues();
        assertThat(c).isEqualTo(new IncludeValuesConfig(IncludeValuesMode.STATIC, Optional.empty(), Optional.empty()));
    }

    @Test
    void aStaticListAloneIsStaticModeWithTypedDeduplicatedValues() {
        IncludeValuesConfig c = load(KEEP).includeValues();
        assertThat(c.mode()).isEqualTo(IncludeValuesMode.STATIC);
        assertThat(c.polling()).isEmpty();
        assertThat(c.staticValues()).hasValue(new FilterSpec("team_id", new FilterValues.Ints(List.of(2L, 4L, 1956L, 69L))));
    }

    @Test
    void integerDetectionNeedsEveryToken() {
        assertThat(load("MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id", "MILLPOND_FILTER_VALUES", "-3,+4,1_000")
                .includeValues().staticValues().orElseThrow().values())
                .isEqualTo(new FilterValues.Ints(List.of(-3L, 4L, 1000L)));
        FilterValues mixed = load("MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id", "MILLPOND_FILTER_VALUES",
                "1, a ,1.5").includeValues().staticValues().orElseThrow().values();
        assertThat(mixed).isEqualTo(new FilterValues.Strings(List.of("1", "a", "1.5")));
    }

    @Test
    void aUrlDefaultsToShadowWithTheSpecDefaults() {
        IncludeValuesConfig c = load(KEEP, URL, "http://cp.internal:8080/teams?x=1").includeValues();
        assertThat(c.mode()).isEqualTo(IncludeValuesMode.SHADOW);
        assertThat(c.requirePolling()).isEqualTo(new IncludeValuesPolling(URI.create("http://cp.internal:8080/teams?x=1"),
                Duration.ofSeconds(60), 5, Duration.ofSeconds(10), Duration.ofSeconds(60), Optional.empty()));
        assertThat(c.requirePolling().urlForLogs()).isEqualTo("http://cp.internal:8080/teams");
    }

    @Test
    void everyKnobIsRead() {
        IncludeValuesConfig c = load(KEEP, URL, "https://cp/teams", "MILLPOND_INCLUDE_VALUES_MODE", " Authoritative ",
                "MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S", "0.5",
                "MILLPOND_INCLUDE_VALUES_REMOVAL_POLLS", "1",
                "MILLPOND_INCLUDE_VALUES_REQUEST_TIMEOUT_S", "2.25",
                "MILLPOND_INCLUDE_VALUES_STARTUP_TIMEOUT_S", "1e1",
                "MILLPOND_INCLUDE_VALUES_AUTH_HEADER_NAME", "X-Internal-Secret",
                "MILLPOND_INCLUDE_VALUES_AUTH_TOKEN", "tok3n").includeValues();
        assertThat(c.mode()).isEqualTo(IncludeValuesMode.AUTHORITATIVE);
        IncludeValuesPolling p = c.requirePolling();
        assertThat(p.pollInterval()).isEqualTo(Duration.ofMillis(500));
        assertThat(p.removalPolls()).isEqualTo(1);
        assertThat(p.requestTimeout()).isEqualTo(Duration.ofMillis(2250));
        assertThat(p.startupTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(p.auth()).hasValue(new IncludeValuesAuth("X-Internal-Secret", Secret.of("tok3n")));
        assertThat(p.toString()).doesNotContain("tok3n");
    }

    @Test
    void emptyOrBlankUrlModeAndAuthCountAsUnset() {
        assertThat(load(KEEP, URL, " ", "MILLPOND_INCLUDE_VALUES_MODE", "", "MILLPOND_INCLUDE_VALUES_AUTH_TOKEN", "")
                .includeValues().mode()).isEqualTo(IncludeValuesMode.STATIC);
    }

    @Test
    void theNumericKnobsAreIgnoredWithoutAUrl() {
        assertThat(load(KEEP, "MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S", "soon").includeValues().mode())
                .isEqualTo(IncludeValuesMode.STATIC);
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                arguments("MODE without URL", with(KEEP, "MILLPOND_INCLUDE_VALUES_MODE", "shadow"),
                        "MILLPOND_INCLUDE_VALUES_MODE is set but MILLPOND_INCLUDE_VALUES_URL is not"),
                arguments("authoritative MODE without URL", with("MILLPOND_INCLUDE_VALUES_MODE", "authoritative"),
                        "MILLPOND_INCLUDE_VALUES_URL is not"),
                arguments("auth header name without URL", with(KEEP, "MILLPOND_INCLUDE_VALUES_AUTH_HEADER_NAME", "X-S"),
                        "are set but MILLPOND_INCLUDE_VALUES_URL is not"),
                arguments("auth token without URL", with("MILLPOND_INCLUDE_VALUES_AUTH_TOKEN", "t"),
                        "are set but MILLPOND_INCLUDE_VALUES_URL is not"),
                arguments("URL without keep filter", with(URL, "http://cp/teams"),
                        "MILLPOND_INCLUDE_VALUES_URL requires the keep filter"),
                arguments("URL with a blank keep field", with(URL, "http://cp/teams",
                        "MILLPOND_FILTER_KEEP_FIELD_NAME", "  ", "MILLPOND_FILTER_VALUES", "1"),
                        "requires the keep filter"),
                arguments("URL with keep values but no keep field", with(URL, "http://cp/teams",
                        "MILLPOND_FILTER_VALUES", "1,2"), "requires the keep filter"),
                arguments("URL with a keep field but no values", with(URL, "http://cp/teams",
                        // the keep filter's own rule (one place for it) fires before the include-values rules
                        "MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id"),
                        "MILLPOND_FILTER_VALUES must list at least one value when MILLPOND_FILTER_KEEP_FIELD_NAME is set"),
                arguments("URL with a keep field and only commas", with(URL, "http://cp/teams",
                        "MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id", "MILLPOND_FILTER_VALUES", " , ,"),
                        "MILLPOND_FILTER_VALUES must list at least one value"),
                arguments("unknown MODE", with(KEEP, URL, "http://cp/teams", "MILLPOND_INCLUDE_VALUES_MODE", "static"),
                        "MILLPOND_INCLUDE_VALUES_MODE must be shadow or authoritative, got 'static'"),
                arguments("auth header name without token", with(KEEP, URL, "http://cp/teams",
                        "MILLPOND_INCLUDE_VALUES_AUTH_HEADER_NAME", "X-S"), "must be set together"),
                arguments("auth token without header name", with(KEEP, URL, "http://cp/teams",
                        "MILLPOND_INCLUDE_VALUES_AUTH_TOKEN", "t"), "must be set together"),
                arguments("auth header name not a token", with(KEEP, URL, "http://cp/teams",
                        "MILLPOND_INCLUDE_VALUES_AUTH_HEADER_NAME", "X Secret", "MILLPOND_INCLUDE_VALUES_AUTH_TOKEN", "t"),
                        "must be an HTTP header name the client may set"),
                arguments("auth header the client may not set", with(KEEP, URL, "http://cp/teams",
                        "MILLPOND_INCLUDE_VALUES_AUTH_HEADER_NAME", "Host", "MILLPOND_INCLUDE_VALUES_AUTH_TOKEN", "t"),
                        "must be an HTTP header name the client may set"),
                arguments("URL not http", with(KEEP, URL, "file:///etc/teams.json"),
                        "must be an absolute http:// or https:// URL"),
                arguments("URL without a host", with(KEEP, URL, "/teams"), "must be an absolute http:// or https:// URL"),
                arguments("URL unparseable", with(KEEP, URL, "http://cp/te ams"), "is not a valid URL"),
                arguments("interval not a number", with(KEEP, URL, "http://cp/t",
                        "MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S", "1m"),
                        "MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S must be a number, got '1m'"),
                arguments("interval empty", with(KEEP, URL, "http://cp/t", "MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S", ""),
                        "MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S must be a number"),
                arguments("interval zero", with(KEEP, URL, "http://cp/t", "MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S", "0"),
                        "MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S must be > 0"),
                arguments("request timeout negative", with(KEEP, URL, "http://cp/t",
                        "MILLPOND_INCLUDE_VALUES_REQUEST_TIMEOUT_S", "-1"),
                        "MILLPOND_INCLUDE_VALUES_REQUEST_TIMEOUT_S must be > 0"),
                arguments("startup timeout hex", with(KEEP, URL, "http://cp/t",
                        "MILLPOND_INCLUDE_VALUES_STARTUP_TIMEOUT_S", "0x10"),
                        "MILLPOND_INCLUDE_VALUES_STARTUP_TIMEOUT_S must be a number"),
                arguments("removal polls zero", with(KEEP, URL, "http://cp/t", "MILLPOND_INCLUDE_VALUES_REMOVAL_POLLS", "0"),
                        "MILLPOND_INCLUDE_VALUES_REMOVAL_POLLS must be >= 1"),
                arguments("removal polls fractional", with(KEEP, URL, "http://cp/t",
                        "MILLPOND_INCLUDE_VALUES_REMOVAL_POLLS", "2.5"),
                        "MILLPOND_INCLUDE_VALUES_REMOVAL_POLLS must be a whole number"),
                arguments("removal polls not a number", with(KEEP, URL, "http://cp/t",
                        "MILLPOND_INCLUDE_VALUES_REMOVAL_POLLS", "five"),
                        "MILLPOND_INCLUDE_VALUES_REMOVAL_POLLS must be a number"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void invalidCombinationsFailStartup(String name, String[] env, String message) {
        assertThatThrownBy(() -> TestEnv.load(env)).isInstanceOf(ConfigException.class).hasMessageContaining(message);
    }

    @Test
    void theTokenNeverAppearsInAnError() {
        assertThatThrownBy(() -> load(KEEP, URL, "http://cp/t", "MILLPOND_INCLUDE_VALUES_AUTH_HEADER_NAME", "Host",
                "MILLPOND_INCLUDE_VALUES_AUTH_TOKEN", "tok3n"))
                .isInstanceOf(ConfigException.class).message().doesNotContain("tok3n");
    }

    private static MillpondConfig load(Object... parts) {
        return TestEnv.load(with(parts));
    }

    /** Flattens String and String[] parts into one key/value list. */
    private static String[] with(Object... parts) {
        return Stream.of(parts).flatMap(p -> p instanceof String[] a ? Stream.of(a) : Stream.of((String) p))
                .toArray(String[]::new);
    }
}
