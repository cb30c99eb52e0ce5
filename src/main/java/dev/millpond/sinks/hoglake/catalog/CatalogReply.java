package dev.millpond.sinks.hoglake.catalog;

/** The outcome of one catalog request, as a value: the answer, or a classified failure. */
public sealed interface CatalogReply<T> {

    record Ok<T>(T value) implements CatalogReply<T> {
    }

    record Failed<T>(CatalogFailure failure) implements CatalogReply<T> {
    }

    default boolean ok() {
        return this instanceof Ok<T>;
    }

    /** The answer; fails if the request failed. */
    default T value() {
        if (this instanceof Ok<T> o) {
            return o.value();
        }
        throw new IllegalStateException(((Failed<T>) this).failure().toString());
    }

    /** The failure; fails if the request succeeded. */
    default CatalogFailure failure() {
        if (this instanceof Failed<T> f) {
            return f.failure();
        }
        throw new IllegalStateException("the request succeeded");
    }
}
