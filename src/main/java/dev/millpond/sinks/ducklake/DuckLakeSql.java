package dev.millpond.sinks.ducklake;

/**
 * Quoting for the SQL the DuckLake sink generates. Identifiers reaching here already passed
 * {@link dev.millpond.vocabulary.Identifiers#isSafe}.
 */
public final class DuckLakeSql {

    private DuckLakeSql() {
    }

    public static String ident(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    public static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    static String attach(CatalogLocation catalog, String dataPath) {
        return "ATTACH " + literal("ducklake:" + catalog.attachTarget()) + " AS lake (DATA_PATH " + literal(dataPath) + ")";
    }
}
