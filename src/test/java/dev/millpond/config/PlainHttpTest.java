package dev.millpond.config;

import dev.millpond.testsupport.TestEnv;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tokens are kept off plain http: the include-values endpoint with a token, the PostHog log export and the hoglake
 * control plane refuse {@code http://} to another host unless their {@code *_ALLOW_INSECURE_HTTP=true} says so.
 */
class PlainHttpTest {

    private static final List<String> LOOPBACK = List.of("http://127.0.0.1:8080/x", "http://127.8.9.10/x",
            "http://localhost/x", "http://LOCALHOST:1/x", "http://[::1]:9/x");
    private static final List<String> ELSEWHERE = List.of("http://cp.internal/x", "http://10.0.0.7:80/x",
            "http://128.0.0.1/x", "http://localhost.example.com/x", "http://[fd00::1]/x", "http://user:pw@cp/x");

    @Test
    void onlyPlainHttpToAnotherHostLeavesItInClear() {
        LOOPBACK.forEach(u -> assertThat(PlainHttp.leavesThisHostInClear(URI.create(u))).as(u).isFalse());
        ELSEWHERE.forEach(u -> assertThat(PlainHttp.leavesThisHostInClear(URI.create(u))).as(u).isTrue());
        ELSEWHERE.forEach(u -> assertThat(PlainHttp.leavesThisHostInClear(URI.create(u.replace("http:", "https:"))))
                .as(u).isFalse());
    }

    private static Map<String, String> includeValues(String url, String... more) {
        Map<String, String> env = TestEnv.with("MILLPOND_FILTER_KEEP_FIELD_NAME", "team_id",
                "MILLPOND_FILTER_VALUES", "1,2", "MILLPOND_INCLUDE_VALUES_URL", url);
        return TestEnv.with(env, more);
    }

    private static final String[] TOKEN = {"MILLPOND_INCLUDE_VALUES_AUTH_HEADER_NAME", "X-Api-Key",
        "MILLPOND_INCLUDE_VALUES_AUTH_TOKEN", "iv-token-123"};

    @Test
    void theIncludeValuesTokenIsRefusedOverPlainHttpToAnotherHost() {
        for (String url : ELSEWHERE) {
            assertThatThrownBy(() -> ConfigLoader.load(includeValues(url, TOKEN))).as(url)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("MILLPOND_INCLUDE_VALUES_URL '")
                    .hasMessageContaining("with MILLPOND_INCLUDE_VALUES_AUTH_TOKEN set is plain http to another host:"
                            + " use https://, or set MILLPOND_INCLUDE_VALUES_ALLOW_INSECURE_HTTP=true")
                    .message().doesNotContain("iv-token-123").doesNotContain("pw@");
            // Allowed explicitly; and without a token nothing secret travels, so plain http stays as it was.
            assertThat(ConfigLoader.load(TestEnv.with(includeValues(url, TOKEN),
                    "MILLPOND_INCLUDE_VALUES_ALLOW_INSECURE_HTTP", "true")).includeValues().polling()).isPresent();
            assertThat(ConfigLoader.load(includeValues(url)).includeValues().polling()).isPresent();
            assertThat(ConfigLoader.load(includeValues(url.replace("http:", "https:"), TOKEN)).includeValues()
                    .polling()).isPresent();
        }
        for (String url : LOOPBACK) {
            assertThat(ConfigLoader.load(includeValues(url, TOKEN)).includeValues().polling()).as(url).isPresent();
        }
        assertThatThrownBy(() -> ConfigLoader.load(TestEnv.with(includeValues(ELSEWHERE.get(0), TOKEN),
                "MILLPOND_INCLUDE_VALUES_ALLOW_INSECURE_HTTP", "yes")))
                .hasMessage("MILLPOND_INCLUDE_VALUES_ALLOW_INSECURE_HTTP must be true or false, got 'yes'");
    }

    @Test
    void thePostHogTokenIsRefusedOverPlainHttpToAnotherHost() {
        for (String url : ELSEWHERE) {
            Map<String, String> env = Map.of("POSTHOG_PROJECT_TOKEN", "phc_token123", "POSTHOG_LOGS_ENDPOINT", url);
            assertThatThrownBy(() -> OtlpLogSettings.fromEnvironment(env, () -> "v")).as(url)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("POSTHOG_LOGS_ENDPOINT '")
                    .hasMessageContaining("with POSTHOG_PROJECT_TOKEN set is plain http to another host: use https://,"
                            + " or set POSTHOG_LOGS_ALLOW_INSECURE_HTTP=true")
                    .message().doesNotContain("phc_token123").doesNotContain("pw@");
            assertThat(OtlpLogSettings.fromEnvironment(TestEnv.with(env, "POSTHOG_LOGS_ALLOW_INSECURE_HTTP", "TRUE"),
                    () -> "v")).hasValueSatisfying(s -> assertThat(s.endpoint()).isEqualTo(url));
            // No token, no export: the endpoint is not even looked at.
            assertThat(OtlpLogSettings.fromEnvironment(Map.of("POSTHOG_LOGS_ENDPOINT", url), () -> "v")).isEmpty();
        }
        for (String url : LOOPBACK) {
            assertThat(OtlpLogSettings.fromEnvironment(Map.of("POSTHOG_PROJECT_TOKEN", "phc_token123",
                    "POSTHOG_LOGS_ENDPOINT", url), () -> "v")).as(url).isPresent();
        }
        assertThat(OtlpLogSettings.fromEnvironment(Map.of("POSTHOG_PROJECT_TOKEN", "phc_token123"), () -> "v"))
                .hasValueSatisfying(s -> assertThat(s.endpoint()).isEqualTo(OtlpLogSettings.DEFAULT_ENDPOINT));
        assertThatThrownBy(() -> OtlpLogSettings.fromEnvironment(Map.of("POSTHOG_PROJECT_TOKEN", "phc_token123",
                "POSTHOG_LOGS_ENDPOINT", "ftp://logs/x"), () -> "v"))
                .hasMessage("POSTHOG_LOGS_ENDPOINT must be an absolute http:// or https:// URL with a host");
    }

    /** The hoglake rule, which the other two now share, words its refusal as before. */
    @Test
    void hoglakeKeepsItsMessage() {
        Map<String, String> env = TestEnv.with("MILLPOND_DESTINATION", "hoglake", "HOGLAKE_URL", "http://u:p@cp:8080",
                "HOGLAKE_CATALOG", "millpond", "HOGLAKE_NAMESPACE", "analytics", "HOGLAKE_TABLE", "events");
        assertThatThrownBy(() -> ConfigLoader.load(env)).hasMessage("HOGLAKE_URL 'http://***@cp:8080' is plain http to"
                + " another host: use https://, or set HOGLAKE_ALLOW_INSECURE_HTTP=true if the network to it is trusted");
        assertThat(ConfigLoader.load(TestEnv.with(env, "HOGLAKE_ALLOW_INSECURE_HTTP", "true")).destination())
                .isEqualTo(Destination.HOGLAKE);
    }
}
