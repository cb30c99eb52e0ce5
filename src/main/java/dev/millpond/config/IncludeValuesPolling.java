package dev.millpond.config;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * How the include-values endpoint is polled; present only when MILLPOND_INCLUDE_VALUES_URL is set.
 *
 * @param url            MILLPOND_INCLUDE_VALUES_URL (http or https)
 * @param pollInterval   MILLPOND_INCLUDE_VALUES_POLL_INTERVAL_S (60), jittered ±10 % per poll
 * @param removalPolls   MILLPOND_INCLUDE_VALUES_REMOVAL_POLLS (5): consecutive successful polls of absence
 * @param requestTimeout MILLPOND_INCLUDE_VALUES_REQUEST_TIMEOUT_S (10)
 * @param startupTimeout MILLPOND_INCLUDE_VALUES_STARTUP_TIMEOUT_S (60), authoritative mode only
 * @param auth           the optional auth header
 */
public record IncludeValuesPolling(
        URI url,
        Duration pollInterval,
        int removalPolls,
        Duration requestTimeout,
        Duration startupTimeout,
        Optional<IncludeValuesAuth> auth) {

    /** The URL without user info, query or fragment, which may carry credentials: the form used in logs. */
    public String urlForLogs() {
        String port = url.getPort() < 0 ? "" : ":" + url.getPort();
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        return url.getScheme() + "://" + url.getHost() + port + path;
    }
}
