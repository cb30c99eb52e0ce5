package dev.millpond.sinks.hoglake.catalog;

/** A catalog request of the write path failed; the failure carries the verdict the pump's ladder reads. */
public final class HoglakeWriteException extends RuntimeException {
    private final transient CatalogFailure failure;

    public HoglakeWriteException(String what, CatalogFailure failure) {
        super(what + ": " + failure, null, false, false);
        this.failure = failure;
    }

    public CatalogFailure failure() {
        return failure;
    }
}
