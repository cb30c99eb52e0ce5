package dev.millpond.observability;

/** A running (or no-op) log export: an {@link AutoCloseable} whose close does not throw, so shutdown paths need no catch. */
public interface LogExport extends AutoCloseable {

    /** Flushes what is pending and stops exporting. */
    @Override
    void close();
}
