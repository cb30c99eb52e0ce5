package dev.millpond.observability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one rule for what no log line may carry: secrets, both as values the process knows (every environment
 * variable whose name says it holds a password, secret, token or key) and in the shapes other libraries print them
 * (a libpq connection string's {@code password='…'}, a JAAS {@code password="…"}, DuckDB's
 * {@code s3_secret_access_key='…'}, HTTP {@code Authorization} headers and bearer tokens, presigned-URL signatures).
 * Each is replaced by {@value #MASK}.
 */
public final class SecretRedactor {

    public static final String MASK = "***";

    /** Environment variable names whose values are secrets. */
    static final Pattern SECRET_VARIABLE = Pattern.compile(
            "(?i).*(PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL|API_KEY|PRIVATE_KEY|AUTH_HEADER_VALUE).*");
    /** Shorter known values are not replaced wherever they occur (that would mangle ordinary words). */
    static final int MIN_LITERAL_LENGTH = 4;

    private static final String QUOTED_OR_BARE = "('(?:\\\\.|[^'\\\\])*'|\"(?:\\\\.|[^\"\\\\])*\"|[^\\s,;&)\\]}]+)";
    private static final List<Pattern> SHAPES = List.of(
            // key = value / key: value, quoted (libpq and JAAS escapes) or bare
            Pattern.compile("(?i)((?:\\b|_)(?:password|passwd|pwd|secret|secret_access_key|secretaccesskey|"
                    + "session_token|token|api[_-]?key|private[_-]?key|credentials?)\\b\\s*[=:]\\s*)"
                    + QUOTED_OR_BARE),
            // "Authorization: Bearer x", "authorization=AWS4-HMAC-SHA256 Credential=…, Signature=…"
            Pattern.compile("(?i)(\\b(?:proxy-)?authorization\\b\"?\\s*[=:]\\s*\"?)([^\"\\r\\n]+)"),
            Pattern.compile("(?i)(\\bbearer\\s+)([A-Za-z0-9._~+/=-]+)"),
            // presigned URLs and SigV4 headers
            Pattern.compile("(?i)(\\b(?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|Signature)=)"
                    + "([^\\s&,\"']+)"));

    private final List<String> literals;

    private SecretRedactor(List<String> literals) {
        this.literals = literals;
    }

    /** Knows the secret values in {@code env}, longest first so one secret containing another is masked whole. */
    public static SecretRedactor fromEnvironment(Map<String, String> env) {
        List<String> values = new ArrayList<>();
        env.forEach((name, value) -> {
            if (value != null && SECRET_VARIABLE.matcher(name).matches()) {
                String v = value.strip();
                if (v.length() >= MIN_LITERAL_LENGTH && !values.contains(v)) {
                    values.add(v);
                }
            }
        });
        values.sort(Comparator.comparingInt(String::length).reversed());
        return new SecretRedactor(List.copyOf(values));
    }

    /** {@code text} with every known secret and every secret-shaped value masked; null stays null. */
    public String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = text;
        for (String literal : literals) {
            if (out.contains(literal)) {
                out = out.replace(literal, MASK);
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
