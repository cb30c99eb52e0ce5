package dev.millpond.ducklake;

/**
 * Quoting for the SQL the DuckLake sink and the maintenance tools generate. Identifiers reaching here already passed
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

    /** With {@code automaticMigration}, DuckLake migrates an older catalog format in place instead of refusing it. */
    static String attach(CatalogLocation catalog, String dataPath, boolean automaticMigration) {
        return "ATTACH " + literal("ducklake:" + catalog.attachTarget()) + " AS lake (DATA_PATH " + literal(dataPath)
                + (automaticMigration ? ", AUTOMATIC_MIGRATION TRUE" : "") + ")";
    }
}
