package dev.millpond.config;

import java.nio.file.Path;

/** MILLPOND_DUCKDB_EXTENSION_DIR, read the same way by the writer and the tools. */
final class DuckDbExtensionDirectory {

    static final String VARIABLE = "MILLPOND_DUCKDB_EXTENSION_DIR";
    /** Where the image bakes the DuckDB extensions; dev and tests point the variable at a local copy. */
    static final String DEFAULT = "/opt/millpond/duckdb-extensions";

    private DuckDbExtensionDirectory() {
    }

    /** Unset or blank gives the image's directory. */
    static Path parse(Env env) {
        String v = env.raw(VARIABLE);
        return Path.of(v == null || v.isBlank() ? DEFAULT : v);
    }
}
