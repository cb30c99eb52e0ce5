package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.IncompatibleCatalogException;
import dev.millpond.sinks.StartupOutage;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The verdict on a failure to attach the lake at startup. The transport and availability errors are the ones the
 * write ladder waits out ({@link DuckLakeFailures}); but libpq words a refused login as a failed "connection to
 * server", so the errors that are configuration are recognised first and never waited for.
 */
public final class DuckLakeStartupFailures {

    /** Lower-case fragments of refusals that waiting cannot fix: credentials, names, grants. */
    static final List<String> CONFIGURATION_MARKERS = List.of(
            // libpq / the Postgres catalog
            "password authentication failed", "authentication failed", "no pg_hba.conf entry", "does not exist",
            "permission denied", "password is required", "role \"",
            // httpfs / the object store
            "http 401", "http 403", "access denied", "accessdenied", "forbidden", "invalidaccesskeyid",
            "signaturedoesnotmatch", "nosuchbucket", "no such bucket");

    /** Fragments that place an unavailable error at the Postgres catalog rather than the object store. */
    private static final List<String> CATALOG_MARKERS = List.of("postgres", "connection to server", "libpq",
            "server closed the connection", "could not connect", "database system");

    private DuckLakeStartupFailures() {
    }

    /** Which dependency was unreachable, when {@code failure} is an outage; empty when waiting cannot help. */
    public static Optional<StartupOutage> outage(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof IncompatibleCatalogException) {
                return Optional.empty();
            }
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (CONFIGURATION_MARKERS.stream().anyMatch(message::contains)) {
                return Optional.empty();
            }
        }
        if (!DuckLakeFailures.isUnavailable(failure)) {
            return Optional.empty();
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (CATALOG_MARKERS.stream().anyMatch(message::contains)) {
                return Optional.of(StartupOutage.CATALOG);
            }
        }
        return Optional.of(StartupOutage.OBJECT_STORE);
    }
}
