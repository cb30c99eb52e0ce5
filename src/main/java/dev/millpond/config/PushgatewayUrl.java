package dev.millpond.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.Optional;

/** PUSHGATEWAY_URL: where each maintenance run, from the tools or scheduled in the writer, pushes its timings. */
public final class PushgatewayUrl {

    static final String VARIABLE = "PUSHGATEWAY_URL";

    private PushgatewayUrl() {
    }

    /**
     * The Pushgateway's base URL, without a trailing slash; {@code http://} when no scheme is given. Empty when unset
     * or blank.
     *
     * @throws ConfigException when it is not a URL
     */
    public static Optional<URI> fromEnvironment(Map<String, String> vars) {
        String url = new Env(vars).raw(VARIABLE);
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        String base = (url.contains("://") ? url : "http://" + url).strip().replaceAll("/+$", "");
        try {
            return Optional.of(new URI(base));
        } catch (URISyntaxException e) {
            throw new ConfigException(VARIABLE + " is not a valid URL: " + e.getReason());
        }
    }
}
