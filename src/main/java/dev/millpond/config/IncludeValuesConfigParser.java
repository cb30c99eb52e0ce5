package dev.millpond.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Parses MILLPOND_INCLUDE_VALUES_* with every startup error of the original's mode table: MODE or auth
 * without a URL, a URL without the keep filter and its static values, auth name and token not together.
 * The numeric knobs are read only when the URL is set; without it nothing polls and they mean nothing.
 */
final class IncludeValuesConfigParser {

    static final String URL = "MILLPOND_INCLUDE_VALUES_URL";
    static final String MODE = "MILLPOND_INCLUDE_VALUES_MODE";
    static final String POLL_INTERVAL_S = "MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S";
    static final String REMOVAL_POLLS = "MILLPOND_INCLUDE_VALUES_REMOVAL_POLLS";
    static final String REQUEST_TIMEOUT_S = "MILLPOND_INCLUDE_VALUES_REQUEST_TIMEOUT_S";
    static final String STARTUP_TIMEOUT_S = "MILLPOND_INCLUDE_VALUES_STARTUP_TIMEOUT_S";
    static final String AUTH_HEADER_NAME = "MILLPOND_INCLUDE_VALUES_AUTH_HEADER_NAME";
    static final String AUTH_TOKEN = "MILLPOND_INCLUDE_VALUES_AUTH_TOKEN";
    static final String ALLOW_INSECURE_HTTP = "MILLPOND_INCLUDE_VALUES_ALLOW_INSECURE_HTTP";
    static final String KEEP_FIELD = "MILLPOND_FILTER_KEEP_FIELD_NAME";
    static final String KEEP_VALUES = "MILLPOND_FILTER_VALUES";

    /** RFC 9110 token characters: anything else is refused by the JDK client only at request time. */
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    /** Headers the JDK HTTP client refuses to let callers set. */
    private static final Set<String> RESTRICTED_HEADERS = Set.of("connection", "content-length", "expect", "host",
            "upgrade");

    private IncludeValuesConfigParser() {
    }

    /** @param keep the keep filter as the record-handling group parsed it: its values are the static pins */
    static IncludeValuesConfig parse(Env env, Optional<FilterSpec> keep) {
        Optional<String> url = nonBlank(env, URL);
        Optional<String> mode = nonBlank(env, MODE);
        Optional<String> headerName = nonBlank(env, AUTH_HEADER_NAME);
        Optional<String> token = nonBlank(env, AUTH_TOKEN);
        Optional<FilterSpec> staticValues = keep;

        if (url.isEmpty()) {
            // A MODE or auth header names a dynamic source that was meant to exist: refusing beats running static.
            if (mode.isPresent()) {
                throw new ConfigException(MODE + " is set but " + URL + " is not: set the URL, or remove " + MODE);
            }
            if (headerName.isPresent() || token.isPresent()) {
                throw new ConfigException(AUTH_HEADER_NAME + "/" + AUTH_TOKEN + " are set but " + URL
                        + " is not: set the URL, or remove the auth variables");
            }
            return new IncludeValuesConfig(IncludeValuesMode.STATIC, staticValues, Optional.empty());
        }

        if (nonBlank(env, KEEP_FIELD).isEmpty()) {
            throw new ConfigException(URL + " requires the keep filter: set " + KEEP_FIELD + " and " + KEEP_VALUES);
        }
        if (staticValues.isEmpty()) {
            throw new ConfigException(URL + " requires static values in " + KEEP_VALUES
                    + " (they set the value type and become the permanent pins)");
        }
        IncludeValuesMode parsedMode = mode.map(IncludeValuesMode::parseUrlMode).orElse(IncludeValuesMode.SHADOW);
        if (headerName.isPresent() != token.isPresent()) {
            throw new ConfigException(AUTH_HEADER_NAME + " and " + AUTH_TOKEN + " must be set together");
        }
        Optional<IncludeValuesAuth> auth = headerName.map(
                name -> new IncludeValuesAuth(headerName(name.strip()), Secret.of(token.orElseThrow())));

        URI endpoint = httpUrl(url.get().strip());
        boolean allowInsecure = env.booleanFlag(ALLOW_INSECURE_HTTP, false);
        if (auth.isPresent()) {
            // The token goes with every poll: over plain http to another host anyone on the way can read it.
            PlainHttp.requireTlsUnlessLoopback(endpoint, URL + " '" + PlainHttp.withoutUserInfo(endpoint)
                    + "' with " + AUTH_TOKEN + " set", allowInsecure, ALLOW_INSECURE_HTTP);
        }
        IncludeValuesPolling polling = new IncludeValuesPolling(
                endpoint,
                positiveSeconds(env, POLL_INTERVAL_S, 60),
                removalPolls(env),
                positiveSeconds(env, REQUEST_TIMEOUT_S, 10),
                positiveSeconds(env, STARTUP_TIMEOUT_S, 60),
                auth);
        return new IncludeValuesConfig(parsedMode, staticValues, Optional.of(polling));
    }

    private static Optional<String> nonBlank(Env env, String name) {
        return Optional.ofNullable(env.raw(name)).filter(v -> !v.isBlank());
    }

    private static URI httpUrl(String raw) {
        URI uri;
        try {
            uri = new URI(raw);
        } catch (URISyntaxException e) {
            throw new ConfigException(URL + " is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw new ConfigException(URL + " must be an absolute http:// or https:// URL with a host");
        }
        return uri;
    }

    private static String headerName(String name) {
        if (!HEADER_NAME.matcher(name).matches() || RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
            throw new ConfigException(AUTH_HEADER_NAME + " must be an HTTP header name the client may set, got '"
                    + name + "'");
        }
        return name;
    }

    /** Seconds as a Python float ({@code 60}, {@code 0.5}, {@code 1e1}); must be finite and > 0. */
    private static Duration positiveSeconds(Env env, String name, double fallback) {
        double seconds = number(env, name, fallback);
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new ConfigException(name + " must be > 0, got '" + env.raw(name) + "'");
        }
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }

    private static int removalPolls(Env env) {
        double polls = number(env, REMOVAL_POLLS, 5);
        if (polls != Math.rint(polls) || polls > Integer.MAX_VALUE) {
            throw new ConfigException(REMOVAL_POLLS + " must be a whole number, got '" + env.raw(REMOVAL_POLLS) + "'");
        }
        if (polls < 1) {
            throw new ConfigException(REMOVAL_POLLS + " must be >= 1, got '" + env.raw(REMOVAL_POLLS) + "'");
        }
        return (int) polls;
    }

    private static double number(Env env, String name, double fallback) {
        String raw = env.raw(name);
        if (raw == null) {
            return fallback;
        }
        String s = raw.strip();
        // Double.parseDouble also takes hex floats and a trailing d/f, which Python's float() does not.
        if (!s.matches("[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?")) {
            throw new ConfigException(name + " must be a number, got '" + raw + "'");
        }
        return Double.parseDouble(s);
    }
}
