package dev.millpond.sinks.hoglake;

/** The startup probe could not write under the data path: configuration, refused at startup and never retried. */
public final class ObjectStoreProbeException extends RuntimeException {
    public ObjectStoreProbeException(String message, Throwable cause) {
        super(message, cause);
    }
}
