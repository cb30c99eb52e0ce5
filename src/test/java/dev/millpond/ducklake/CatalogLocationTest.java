package dev.millpond.ducklake;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The libpq string of the catalog ATTACH: whatever the values hold (spaces, quotes, backslashes, {@code key=value}
 * text), a libpq conninfo parser reads back exactly the keywords millpond wrote, each with its value, the connection
 * limits last.
 */
class CatalogLocationTest {

    private static final String KEYWORDS = "host port dbname user password sslmode sslrootcert connect_timeout"
            + " keepalives keepalives_idle keepalives_interval keepalives_count tcp_user_timeout";
    private static final List<String> LIMITS = List.of("10", "1", "30", "10", "3", "60000");

    @Test
    void generatedValuesNeverAddOrChangeAKeyword() {
        Random random = new Random(17);
        String alphabet = "ab Z9=' \\\\\"_-.;:/sslmode=disable";
        for (int i = 0; i < 5_000; i++) {
            String[] v = new String[7];
            for (int k = 0; k < v.length; k++) {
                StringBuilder s = new StringBuilder();
                for (int n = random.nextInt(10); n > 0; n--) {
                    s.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                v[k] = s.toString();
            }
            v[6] = v[6].isEmpty() ? "/ca.pem" : v[6];
            CatalogLocation.Postgres p = new CatalogLocation.Postgres(v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
            String target = p.attachTarget();
            assertThat(target).startsWith("postgres:");
            Map<String, String> parsed = conninfo(target.substring("postgres:".length()));
            assertThat(String.join(" ", parsed.keySet())).as(target).isEqualTo(KEYWORDS);
            List<String> expected = new ArrayList<>(List.of(v));
            expected.addAll(LIMITS);
            assertThat(parsed.values()).as(target).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void aHostWithKeywordsInItStaysOneQuotedValue() {
        String target = new CatalogLocation.Postgres("db sslmode=disable", "5432", "d", "u", "p").attachTarget();
        assertThat(target).startsWith("postgres:host='db sslmode=disable' port='5432' ")
                .endsWith(" sslmode='prefer' " + CatalogLocation.Postgres.CONNECTION_LIMITS);
    }

    /** libpq's conninfo grammar: {@code keyword = value}, a value bare or single-quoted with {@code \} escapes. */
    private static Map<String, String> conninfo(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        int i = 0;
        while (true) {
            while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            if (i >= text.length()) {
                return out;
            }
            int eq = text.indexOf('=', i);
            String key = text.substring(i, eq).strip();
            i = eq + 1;
            while (Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            StringBuilder value = new StringBuilder();
            if (text.charAt(i) == '\'') {
                i++;
                while (text.charAt(i) != '\'') {
                    if (text.charAt(i) == '\\') {
                        i++;
                    }
                    value.append(text.charAt(i++));
                }
                i++;
            } else {
                while (i < text.length() && !Character.isWhitespace(text.charAt(i))) {
                    if (text.charAt(i) == '\\') {
                        i++;
                    }
                    value.append(text.charAt(i++));
                }
            }
            assertThat(out.put(key, value.toString())).as("keyword %s twice in %s", key, text).isNull();
        }
    }
}
