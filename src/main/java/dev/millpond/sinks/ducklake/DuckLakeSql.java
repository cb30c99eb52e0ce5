package dev.millpond.sinks.ducklake;

/** Quoting for the SQL the DuckLake sink generates. Identifiers reaching here already passed SAFE_IDENTIFIER. */
final class DuckLakeSql {

    private DuckLakeSql() {
    }

    static String ident(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    static String attach(CatalogLocation catalog, String dataPath) {
        return "ATTACH " + literal("ducklake:" + catalog.attachTarget()) + " AS lake (DATA_PATH " + literal(dataPath) + ")";
    }
}
