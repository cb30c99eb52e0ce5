package dev.millpond.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The "Log export (optional)" environment variables, and the pipeline variables the export's resource names, read once
 * at startup — before the configuration is validated, so a configuration error is exported too: a pipeline value
 * that is unset is left out of the resource rather than refused here.
 *
 * <p>{@link #toString()} deliberately leaves the token out: a record's generated {@code toString} would print it,
 * and settings objects end up in log lines and assertion messages.
 *
 * @param topic             KAFKA_TOPIC: {@code messaging.destination.name}
 * @param consumerGroup     GROUP_ID or its default: {@code messaging.kafka.consumer.group}
 * @param table             the destination's table (DUCKLAKE_TABLE, or HOGLAKE_TABLE): {@code millpond.ducklake.table}
 * @param dataPath          DUCKLAKE_DATA_PATH (or HOGLAKE_DATA_PATH): {@code millpond.ducklake.data_path}
 * @param environmentResource OTEL_RESOURCE_ATTRIBUTES, parsed; the attributes above win over it
 */
public record OtlpLogSettings(String token, String endpoint, String serviceNamespace,
                              Optional<String> serviceInstanceId, String serviceVersion, Optional<String> topic,
                              Optional<String> consumerGroup, Optional<String> table, Optional<String> dataPath,
                              Map<String, String> environmentResource) {

    public static final String TOKEN = "POSTHOG_PROJECT_TOKEN";
    public static final String ENDPOINT = "POSTHOG_LOGS_ENDPOINT";
    public static final String NAMESPACE = "MILLPOND_SERVICE_NAMESPACE";
    public static final String INSTANCE_ID = "MILLPOND_SERVICE_INSTANCE_ID";
    public static final String VERSION = "MILLPOND_SERVICE_VERSION";
    public static final String ALLOW_INSECURE_HTTP = "POSTHOG_LOGS_ALLOW_INSECURE_HTTP";

    public static final String DEFAULT_ENDPOINT = "https://us.i.posthog.com/i/v1/logs";
    public static final String DEFAULT_NAMESPACE = "millpond";

    public OtlpLogSettings {
        environmentResource = Map.copyOf(environmentResource);
    }

    /** Empty when the token is unset or blank: the export is opt-in and its absence is not an error. */
    public static Optional<OtlpLogSettings> fromEnvironment(Map<String, String> env, Supplier<String> packageVersion) {
        Optional<String> token = nonBlank(env.get(TOKEN));
        if (token.isEmpty()) {
            return Optional.empty();
        }
        Destination destination;
        try {
            destination = Destination.parse(env.get("MILLPOND_DESTINATION"));
        } catch (ConfigException e) {
            destination = Destination.DUCKLAKE; // the loader refuses it right after, and that line is exported
        }
        String prefix = destination == Destination.HOGLAKE ? "HOGLAKE_" : "DUCKLAKE_";
        Optional<String> topic = present(env.get("KAFKA_TOPIC"));
        Optional<String> table = present(env.get(prefix + "TABLE"));
        Destination d = destination;
        Optional<String> group = present(env.get("GROUP_ID")).or(() -> topic.isPresent() && table.isPresent()
                ? Optional.of(MillpondConfig.defaultGroupId(d, topic.get(), table.get())) : Optional.empty());
        return Optional.of(new OtlpLogSettings(token.get(), endpoint(env),
                nonBlank(env.get(NAMESPACE)).orElse(DEFAULT_NAMESPACE),
                nonBlank(env.get(INSTANCE_ID)),
                nonBlank(env.get(VERSION)).orElseGet(packageVersion),
                topic, group, table, present(env.get(prefix + "DATA_PATH")),
                ResourceAttributesVariable.parse(env.get(ResourceAttributesVariable.NAME))));
    }

    /**
     * POSTHOG_LOGS_ENDPOINT, which receives the project token with every batch: an absolute http(s) URL, and plain
     * http only to this host unless POSTHOG_LOGS_ALLOW_INSECURE_HTTP=true.
     */
    private static String endpoint(Map<String, String> env) {
        String endpoint = nonBlank(env.get(ENDPOINT)).orElse(DEFAULT_ENDPOINT);
        URI uri;
        try {
            uri = new URI(endpoint);
        } catch (URISyntaxException e) {
            throw new ConfigException(ENDPOINT + " is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw new ConfigException(ENDPOINT + " must be an absolute http:// or https:// URL with a host");
        }
        PlainHttp.requireTlsUnlessLoopback(uri, ENDPOINT + " '" + PlainHttp.withoutUserInfo(uri) + "' with " + TOKEN
                + " set", allowInsecureHttp(env), ALLOW_INSECURE_HTTP);
        return endpoint;
    }

    private static boolean allowInsecureHttp(Map<String, String> env) {
        String value = env.get(ALLOW_INSECURE_HTTP);
        if (value == null || value.isBlank()) {
            return false;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ConfigException(ALLOW_INSECURE_HTTP + " must be true or false, got '" + value + "'");
        };
    }

    // An empty value means "use the default", as everywhere else in the config (a Helm chart renders unset as "").
    private static Optional<String> nonBlank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /** The pipeline variables are used as the loader reads them: verbatim, empty meaning unset. */
    private static Optional<String> present(String value) {
        return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
    }

    @Override
    public String toString() {
        return "OtlpLogSettings[endpoint=" + endpoint + ", serviceNamespace=" + serviceNamespace
                + ", serviceInstanceId=" + serviceInstanceId.orElse("") + ", serviceVersion=" + serviceVersion
                + ", topic=" + topic.orElse("") + ", consumerGroup=" + consumerGroup.orElse("") + ", table="
                + table.orElse("") + ", dataPath=" + dataPath.orElse("") + ", environmentResource="
                + environmentResource + ", token=<redacted>]";
    }
}
