package dev.millpond.observability;

import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The "Log export (optional)" environment variables, read once at startup.
 *
 * <p>{@link #toString()} deliberately leaves the token out: a record's generated {@code toString} would print it,
 * and settings objects end up in log lines and assertion messages.
 */
public record OtlpLogSettings(String token, String endpoint, String serviceNamespace,
                              Optional<String> serviceInstanceId, String serviceVersion) {

    public static final String TOKEN = "POSTHOG_PROJECT_TOKEN";
    public static final String ENDPOINT = "POSTHOG_LOGS_ENDPOINT";
    public static final String NAMESPACE = "MILLPOND_SERVICE_NAMESPACE";
    public static final String INSTANCE_ID = "MILLPOND_SERVICE_INSTANCE_ID";
    public static final String VERSION = "MILLPOND_SERVICE_VERSION";

    public static final String DEFAULT_ENDPOINT = "https://us.i.posthog.com/i/v1/logs";
    public static final String DEFAULT_NAMESPACE = "millpond";

    /** Empty when the token is unset or blank: the export is opt-in and its absence is not an error. */
    public static Optional<OtlpLogSettings> fromEnvironment(Map<String, String> env, Supplier<String> packageVersion) {
        Optional<String> token = nonBlank(env.get(TOKEN));
        if (token.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new OtlpLogSettings(token.get(),
                nonBlank(env.get(ENDPOINT)).orElse(DEFAULT_ENDPOINT),
                nonBlank(env.get(NAMESPACE)).orElse(DEFAULT_NAMESPACE),
                nonBlank(env.get(INSTANCE_ID)),
                nonBlank(env.get(VERSION)).orElseGet(packageVersion)));
    }

    // An empty value means "use the default", as everywhere else in the config (a Helm chart renders unset as "").
    private static Optional<String> nonBlank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    @Override
    public String toString() {
        return "OtlpLogSettings[endpoint=" + endpoint + ", serviceNamespace=" + serviceNamespace
                + ", serviceInstanceId=" + serviceInstanceId.orElse("") + ", serviceVersion=" + serviceVersion
                + ", token=<redacted>]";
    }
}
