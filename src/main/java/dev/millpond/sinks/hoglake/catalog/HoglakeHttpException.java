package dev.millpond.sinks.hoglake.catalog;

import java.util.Optional;

/** A non-2xx answer of the control plane: its status, the parsed error envelope (when it had one) and Retry-After. */
public final class HoglakeHttpException extends RuntimeException {
    private final int status;
    private final transient Optional<HoglakeWire.ApiError> body;
    private final Optional<String> retryAfter;

    public HoglakeHttpException(int status, Optional<HoglakeWire.ApiError> body, Optional<String> retryAfter) {
        super("HTTP " + status + body.map(b -> " " + b.error() + (b.detail() == null ? "" : ": " + b.detail()))
                .orElse(""), null, false, false);
        this.status = status;
        this.body = body;
        this.retryAfter = retryAfter;
    }

    public int status() {
        return status;
    }

    public Optional<HoglakeWire.ApiError> body() {
        return body;
    }

    /** The raw Retry-After header, if the answer carried one. */
    public Optional<String> retryAfter() {
        return retryAfter;
    }
}
