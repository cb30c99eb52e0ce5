package dev.millpond.config;

/**
 * MILLPOND_INCLUDE_VALUES_AUTH_HEADER_NAME + _AUTH_TOKEN: one header sent with every poll.
 *
 * @param headerName an HTTP token the JDK client accepts
 * @param token      the header value, redacted in every string form
 */
public record IncludeValuesAuth(String headerName, Secret token) {
}
