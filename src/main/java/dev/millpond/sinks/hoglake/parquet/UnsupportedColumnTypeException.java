package dev.millpond.sinks.hoglake.parquet;

/** A column whose type this writer cannot encode: permanent, retrying cannot change the type. */
public final class UnsupportedColumnTypeException extends RuntimeException {
    public UnsupportedColumnTypeException(String message) {
        super(message);
    }
}
