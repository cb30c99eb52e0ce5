package dev.millpond.observability;

import dev.millpond.config.SecretVariables;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one rule for what no log line may carry: secrets, both as values the process knows (every environment
 * variable whose name says it holds a password, secret, token or key, see {@link SecretVariables}) and in the shapes
 * other libraries print them (a libpq connection string's {@code password='…'}, a JAAS {@code password="…"},
 * DuckDB's {@code s3_secret_access_key='…'}, HTTP {@code Authorization} headers and bearer tokens, presigned-URL
 * signatures, the password in a URL's {@code user:password@}, PEM private keys). Each is replaced by {@value #MASK}.
 *
 * <p>Known values are masked as whole tokens: a value that is part of a longer identifier ({@code ducklake} in
 * {@code __ducklake_metadata_lake}) is left alone, and so are the values of the libpq keywords that name what a
 * connection is for ({@code dbname}, {@code user}, {@code host}, …), so a password that is also a common word does
 * not hide what a line is about.
 */
public final class SecretRedactor {

    public static final String MASK = "***";

    /** A known value this short is never set: startup refuses it (see {@link SecretVariables}). */
    static final int MIN_LITERAL_LENGTH = SecretVariables.MIN_LENGTH;

    private static final String IDENTIFIER_CHAR = "[A-Za-z0-9_]";
    /** libpq keywords whose values name the target, never hold a secret; known values inside them stay visible. */
    private static final String NAMING_KEYWORD_VALUE = "\\b(?:dbname|user|host|hostaddr|port|application_name|sslmode"
            + "|sslrootcert)\\s*=\\s*(?:'(?:\\\\.|[^'\\\\])*'|[^\\s'\"]+)";
    /**
     * A quoted value (libpq and JAAS escapes), or a bare one: its words up to a delimiter, a quote, the end of the
     * line or the next {@code key=} (so {@code password=two words} loses both words).
     */
    private static final String QUOTED_OR_BARE = "('(?:\\\\.|[^'\\\\])*'|\"(?:\\\\.|[^\"\\\\])*\"|"
            + "[^\\s,;&)\\]}'\"]+(?:[ \\t]+(?![^\\s=:]+\\s*[=:])[^\\s,;&)\\]}'\"=]+)*)";
    private static final List<Pattern> SHAPES = List.of(
            // key = value / key: value / "key": value
            Pattern.compile("(?i)((?:\\b|_)(?:password|passwd|pwd|secret|secret_access_key|secretaccesskey|"
                    + "session_token|token|api[_-]?key|private[_-]?key|credentials?)\\b\"?\\s*[=:]\\s*)"
                    + QUOTED_OR_BARE),
            // "Authorization: Bearer x", "authorization=AWS4-HMAC-SHA256 Credential=…, Signature=…"
            Pattern.compile("(?i)(\\b(?:proxy-)?authorization\\b\"?\\s*[=:]\\s*\"?)([^\"\\r\\n]+)"),
            Pattern.compile("(?i)(\\bbearer\\s+)([A-Za-z0-9._~+/=-]+)"),
            // presigned URLs and SigV4 headers
            Pattern.compile("(?i)(\\b(?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|Signature)=)"
                    + "([^\\s&,\"']+)"),
            // scheme://user:password@host: the password; scheme://token@host: the whole user info
            Pattern.compile("(?i)(\\b[a-z][a-z0-9+.-]*://[^/\\s:@'\"]*:)([^/\\s@'\"]+)(?=@)"),
            Pattern.compile("(?i)(\\b[a-z][a-z0-9+.-]*://)([^/\\s:@'\"]+)(?=@)"),
            // a PEM private key, armour kept so the line says what was there
            Pattern.compile("(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)([\\s\\S]*?)(?=-----END [A-Z0-9 ]*PRIVATE KEY-----|$)"));

    private final List<String> literals;
    /** Null when no values are known. */
    private final Pattern known;

    private SecretRedactor(List<String> literals) {
        this.literals = literals;
        if (literals.isEmpty()) {
            this.known = null;
        } else {
            StringBuilder alternatives = new StringBuilder();
            for (String literal : literals) {
                if (!alternatives.isEmpty()) {
                    alternatives.append('|');
                }
                // A value that starts or ends with an identifier character must not continue into one there.
                if (Character.isLetterOrDigit(literal.charAt(0)) || literal.charAt(0) == '_') {
                    alternatives.append("(?<!").append(IDENTIFIER_CHAR).append(")");
                }
                alternatives.append(Pattern.quote(literal));
                char last = literal.charAt(literal.length() - 1);
                if (Character.isLetterOrDigit(last) || last == '_') {
                    alternatives.append("(?!").append(IDENTIFIER_CHAR).append(")");
                }
            }
            this.known = Pattern.compile("(" + NAMING_KEYWORD_VALUE + ")|" + alternatives);
        }
    }

    /**
     * Knows the secret values in {@code env}, longest first so one secret containing another is masked whole. A
     * value of several lines (a PEM key) is also known line by line, for output that is redacted a line at a time.
     */
    public static SecretRedactor fromEnvironment(Map<String, String> env) {
        List<String> values = new ArrayList<>();
        env.forEach((name, value) -> {
            if (value != null && SecretVariables.isSecret(name)) {
                add(values, value.strip());
                if (value.contains("\n")) {
                    value.lines().map(String::strip).filter(l -> !l.startsWith("-----")).forEach(l -> add(values, l));
                }
            }
        });
        values.sort(Comparator.comparingInt(String::length).reversed());
        return new SecretRedactor(List.copyOf(values));
    }

    private static void add(List<String> values, String v) {
        if (v.length() >= MIN_LITERAL_LENGTH && !values.contains(v)) {
            values.add(v);
        }
    }

    /** {@code text} with every known secret and every secret-shaped value masked; null stays null. */
    public String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = text;
        if (known != null && mayContainLiteral(out)) {
            Matcher m = known.matcher(out);
            if (m.find()) {
                out = m.replaceAll(r -> Matcher.quoteReplacement(r.group(1) != null ? r.group(1) : MASK));
            }
        }
        for (Pattern shape : SHAPES) {
            Matcher m = shape.matcher(out);
            if (m.find()) {
                out = m.replaceAll(r -> Matcher.quoteReplacement(r.group(1) + mask(r.group(2))));
            }
        }
        return out;
    }

    private boolean mayContainLiteral(String text) {
        for (String literal : literals) {
            if (text.contains(literal)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@link #redact} would change {@code text}. */
    public boolean needsRedaction(String text) {
        return text != null && !redact(text).equals(text);
    }

    /** Keeps the quoting so the line still parses the way it did. */
    private static String mask(String value) {
        if (value.length() >= 2 && (value.startsWith("'") || value.startsWith("\""))) {
            return value.charAt(0) + MASK + value.charAt(0);
        }
        return MASK;
    }

    @Override
    public String toString() {
        return "SecretRedactor[" + literals.size() + " known values]";
    }
}
