package dev.millpond.sinks.ducklake;

import dev.millpond.ducklake.Jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DuckDB's {@code memory_limit} as a number of bytes, read back from DuckDB itself, so whatever set it (the memory
 * budget, DUCKDB_MEMORY_LIMIT in any of DuckDB's units) is what the companions' shredding budget follows. DuckDB
 * reports it rounded to one decimal of a binary unit ({@code 186.0 MiB}, {@code 953.6 MiB}).
 */
final class DuckDbMemory {

    private static final Pattern REPORTED = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(bytes|KiB|MiB|GiB|TiB)\\s*");

    private DuckDbMemory() {
    }

    static OptionalLong limitBytes(Connection connection) {
        try {
            return parse(Jdbc.queryString(connection, "SELECT current_setting('memory_limit')"));
        } catch (SQLException e) {
            return OptionalLong.empty();
        }
    }

    static OptionalLong parse(String reported) {
        Matcher m = reported == null ? null : REPORTED.matcher(reported);
        if (m == null || !m.matches()) {
            return OptionalLong.empty();
        }
        int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "kib" -> 10;
            case "mib" -> 20;
            case "gib" -> 30;
            case "tib" -> 40;
            default -> 0;
        };
        return OptionalLong.of((long) (Double.parseDouble(m.group(1)) * (1L << shift)));
    }
}
