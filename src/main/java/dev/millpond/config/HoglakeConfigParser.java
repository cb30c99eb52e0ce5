package dev.millpond.config;

import dev.millpond.vocabulary.Identifiers;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The hoglake group: HOGLAKE_*, with the original's validation and messages. Every message names the variable. */
final class HoglakeConfigParser {

    /** The server's catalog-name rule as the original validates it (the server now also allows a leading digit). */
    static final Pattern CATALOG_NAME = Pattern.compile("[a-z][a-z0-9_-]{0,62}");
    /**
     * The server's namespace and table identifier rule: wider than {@link Identifiers#RULE} (hyphens, a length
     * bound), so kept apart from it. Column names in HOGLAKE_PARTITION_BY follow {@link Identifiers#RULE}.
     */
    static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]{0,127}");
    /**
     * The data path is frozen into the catalog row when millpond creates the catalog, and hoglake has no route to
     * delete a catalog: a typo would mint a permanently unusable catalog, so the shape is checked before anything runs.
     */
    static final Pattern DATA_PATH = Pattern.compile("s3://[a-z0-9][a-z0-9.\\-]{1,61}[a-z0-9](/.*)?", Pattern.DOTALL);
    private static final Pattern PARTITION_CALL = Pattern.compile("(" + Identifiers.RULE + ")\\s*\\(\\s*(.*?)\\s*\\)",
            Pattern.DOTALL);
    /** Python's {@code float(str)} literal: digits with single underscores, optional fraction and exponent, inf, nan. */
    private static final String DIGITS = "[0-9](?:_?[0-9])*";
    private static final Pattern PYTHON_FLOAT = Pattern.compile(
            "[+-]?(?:(?:" + DIGITS + "\\.?(?:" + DIGITS + ")?|\\." + DIGITS + ")(?:[eE][+-]?" + DIGITS + ")?"
                    + "|inf|infinity|nan)", Pattern.CASE_INSENSITIVE);

    static final int DEFAULT_MAX_RETRY_COUNT = 8;
    static final double DEFAULT_REQUEST_TIMEOUT_S = 45.0;

    /**
     * The liveness probe fails the pod after this long without a poll. The consume loop is single-threaded, so every
     * second a flush spends retrying inside the sink is a second without a poll.
     */
    static final double LIVENESS_DEADLINE_S = 480.0;
    private static final double BACKOFF_BASE_S = 1.0;
    private static final double BACKOFF_CAP_S = 30.0;
    private static final double BACKOFF_JITTER = 0.25;

    private HoglakeConfigParser() {
    }

    static HoglakeConfig parse(Env env) {
        String catalog = env.required("HOGLAKE_CATALOG");
        if (!CATALOG_NAME.matcher(catalog).matches()) {
            throw new ConfigException("HOGLAKE_CATALOG " + pythonRepr(catalog)
                    + " is not a valid hoglake catalog name (must match " + CATALOG_NAME.pattern() + ")");
        }
        String namespace = identifier(env, "HOGLAKE_NAMESPACE");
        String table = identifier(env, "HOGLAKE_TABLE");

        int maxRetryCount = positiveInt(env, "HOGLAKE_MAX_RETRY_COUNT", DEFAULT_MAX_RETRY_COUNT);
        double timeoutSeconds = positiveNumber(env, "HOGLAKE_REQUEST_TIMEOUT_S", DEFAULT_REQUEST_TIMEOUT_S);
        checkLivenessBudget(maxRetryCount, timeoutSeconds);

        String partitionRaw = stripped(env, "HOGLAKE_PARTITION_BY");
        if (partitionRaw.isEmpty() && !stripped(env, "DUCKLAKE_PARTITION_BY").isEmpty()) {
            // The one stray variable of the other destination that changes the shape of the data: an operator who
            // flips MILLPOND_DESTINATION on an existing values file would silently get an unpartitioned table.
            throw new ConfigException("DUCKLAKE_PARTITION_BY is set but MILLPOND_DESTINATION=hoglake reads"
                    + " HOGLAKE_PARTITION_BY, which is unset — this pipeline would create an UNPARTITIONED hoglake"
                    + " table. Set HOGLAKE_PARTITION_BY (the same expression style, restricted to"
                    + " identity/year/month/day/hour/bucket), or remove DUCKLAKE_PARTITION_BY to confirm the table is"
                    + " meant to be unpartitioned.");
        }
        List<HoglakePartitionField> partitionBy = partitionRaw.isEmpty() ? List.of() : partitionBy(partitionRaw);

        String url = url(env.required("HOGLAKE_URL"));
        requireTlsUnlessLoopback(url, env.booleanFlag("HOGLAKE_ALLOW_INSECURE_HTTP", false));
        Optional<String> dataPath = dataPath(stripped(env, "HOGLAKE_DATA_PATH"));
        HoglakeS3 s3 = new HoglakeS3(staticKeys(env), nonBlank(env, "HOGLAKE_S3_ENDPOINT"),
                nonBlank(env, "HOGLAKE_S3_REGION"));
        return new HoglakeConfig(url, catalog, namespace, table, dataPath, s3, partitionBy, maxRetryCount,
                timeoutSeconds);
    }

    private static String identifier(Env env, String variable) {
        String value = env.required(variable);
        if (!IDENTIFIER.matcher(value).matches()) {
            throw new ConfigException(variable + " " + pythonRepr(value)
                    + " is not a valid hoglake identifier (must match " + IDENTIFIER.pattern() + ")");
        }
        return value;
    }

    /** The catalog client appends {@code /v1} to this root; anything but an absolute http(s) URL cannot work. */
    private static String url(String raw) {
        try {
            URI uri = new URI(raw.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null
                    && uri.getQuery() == null && uri.getFragment() == null) {
                return raw.strip();
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw new ConfigException("HOGLAKE_URL " + pythonRepr(raw)
                + " is not an http:// or https:// URL of the hoglake control plane (e.g. http://hoglake:8080)");
    }

    /**
     * Catalog replies decide where files go and commits say what they are: plain http to anything but this host is
     * refused unless HOGLAKE_ALLOW_INSECURE_HTTP=true says the network is trusted (an in-cluster control plane).
     */
    private static void requireTlsUnlessLoopback(String url, boolean allowInsecure) {
        URI uri = URI.create(url);
        PlainHttp.requireTlsUnlessLoopback(uri, "HOGLAKE_URL " + pythonRepr(PlainHttp.withoutUserInfo(uri)),
                allowInsecure, "HOGLAKE_ALLOW_INSECURE_HTTP");
    }

    private static Optional<String> dataPath(String raw) {
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        if (!DATA_PATH.matcher(raw).matches()) {
            throw new ConfigException("HOGLAKE_DATA_PATH " + pythonRepr(raw) + " is not an s3:// URI (expected"
                    + " s3://bucket/prefix/). It is frozen into the catalog when millpond creates it and hoglake has"
                    + " no route to delete a catalog, so a typo here mints a permanently unusable catalog under that"
                    + " name.");
        }
        return Optional.of(raw);
    }

    /** Both keys or neither; an empty or whitespace-only key counts as unset (a chart rendering an absent Secret). */
    private static Optional<HoglakeS3.StaticKeys> staticKeys(Env env) {
        Optional<String> access = nonBlankRaw(env, "HOGLAKE_S3_ACCESS_KEY");
        Optional<String> secret = nonBlankRaw(env, "HOGLAKE_S3_SECRET_KEY");
        if (access.isPresent() != secret.isPresent()) {
            String set = access.isPresent() ? "HOGLAKE_S3_ACCESS_KEY" : "HOGLAKE_S3_SECRET_KEY";
            String missing = access.isPresent() ? "HOGLAKE_S3_SECRET_KEY" : "HOGLAKE_S3_ACCESS_KEY";
            throw new ConfigException(set + " is set but " + missing + " is not: set both HOGLAKE_S3_ACCESS_KEY and"
                    + " HOGLAKE_S3_SECRET_KEY for static credentials, or neither to use the AWS default credential"
                    + " chain");
        }
        return access.map(a -> new HoglakeS3.StaticKeys(a, Secret.of(secret.orElseThrow())));
    }

    /**
     * HOGLAKE_PARTITION_BY: comma-separated entries (commas inside parentheses do not split), each {@code col},
     * {@code identity(col)}, {@code year|month|day|hour(col)} or {@code bucket(col, N)} with N &gt; 0. Transform names
     * are case-insensitive; columns must be safe identifiers; a repeated entry is refused. Everything else fails here,
     * at startup, because a spec the server would refuse must never reach the first flush.
     */
    static List<HoglakePartitionField> partitionBy(String raw) {
        List<String> entries = splitTopLevelCommas(raw);
        if (entries.isEmpty()) {
            throw new ConfigException("HOGLAKE_PARTITION_BY is set but contains no entries");
        }
        List<HoglakePartitionField> fields = new ArrayList<>();
        Set<HoglakePartitionField> seen = new HashSet<>();
        for (String entry : entries) {
            HoglakePartitionField field = partitionEntry(entry);
            if (!seen.add(field)) {
                throw badPartitionEntry(entry, "is duplicated");
            }
            fields.add(field);
        }
        return List.copyOf(fields);
    }

    private static HoglakePartitionField partitionEntry(String entry) {
        Matcher call = PARTITION_CALL.matcher(entry);
        String column;
        HoglakeTransform transform;
        OptionalInt bucketCount = OptionalInt.empty();
        if (!call.matches()) {
            if (entry.contains("(") || entry.contains(")")) {
                throw badPartitionEntry(entry, "is malformed");
            }
            column = entry;
            transform = HoglakeTransform.IDENTITY;
        } else {
            String name = call.group(1).toLowerCase(Locale.ROOT);
            transform = HoglakeTransform.fromWireName(name)
                    .orElseThrow(() -> badPartitionEntry(entry, "uses unknown transform " + pythonRepr(name)));
            List<String> args = call.group(2).isEmpty() ? List.of()
                    : List.of(call.group(2).split(",", -1)).stream().map(String::strip).toList();
            if (transform == HoglakeTransform.BUCKET) {
                if (args.size() != 2) {
                    throw badPartitionEntry(entry, "must be bucket(col, N)");
                }
                column = args.get(0);
                int n;
                try {
                    n = PythonInt.parseInt("HOGLAKE_PARTITION_BY", args.get(1));
                } catch (ConfigException e) {
                    throw badPartitionEntry(entry, "has non-integer bucket count " + pythonRepr(args.get(1)));
                }
                if (n <= 0) {
                    throw badPartitionEntry(entry, "has non-positive bucket count " + n);
                }
                bucketCount = OptionalInt.of(n);
            } else {
                if (args.size() != 1 || args.get(0).isEmpty()) {
                    throw badPartitionEntry(entry, "must be " + name + "(col)");
                }
                column = args.get(0);
            }
        }
        if (!Identifiers.isSafe(column)) {
            throw badPartitionEntry(entry, "has unsafe column name " + pythonRepr(column)
                    + " (must match " + Identifiers.RULE + ")");
        }
        return new HoglakePartitionField(column, transform, bucketCount);
    }

    private static ConfigException badPartitionEntry(String entry, String why) {
        return new ConfigException("HOGLAKE_PARTITION_BY entry " + pythonRepr(entry) + " " + why
                + "; supported forms: col | transform(col) | bucket(col, N) with transforms"
                + " identity, year, month, day, hour, bucket");
    }

    /** Split on commas outside parentheses, so {@code bucket(team_id, 16)} stays one entry; blank entries drop. */
    static List<String> splitTopLevelCommas(String raw) {
        List<String> entries = new ArrayList<>();
        int depth = 0;
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < raw.length(); i++) {
            char ch = raw.charAt(i);
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth = Math.max(0, depth - 1);
            }
            if (ch == ',' && depth == 0) {
                entries.add(current.toString().strip());
                current.setLength(0);
            } else {
                current.append(ch);
            }
        }
        entries.add(current.toString().strip());
        entries.removeIf(String::isEmpty);
        return entries;
    }

    /**
     * The longest one write can take: every attempt spending its whole request timeout, with the full backoff ladder
     * (1 s doubling, 30 s a step, up to 25 % jitter) between them.
     */
    static double worstCaseFlushSeconds(int maxRetryCount, double timeoutSeconds) {
        double ladder = 0;
        for (int attempt = 0; attempt < Math.max(0, maxRetryCount - 1); attempt++) {
            ladder += Math.min(BACKOFF_BASE_S * Math.pow(2, attempt), BACKOFF_CAP_S);
        }
        return maxRetryCount * timeoutSeconds + ladder * (1 + BACKOFF_JITTER);
    }

    static void checkLivenessBudget(int maxRetryCount, double timeoutSeconds) {
        double worst = worstCaseFlushSeconds(maxRetryCount, timeoutSeconds);
        if (worst <= LIVENESS_DEADLINE_S) {
            return;
        }
        throw new ConfigException("HOGLAKE_MAX_RETRY_COUNT=" + maxRetryCount + " with HOGLAKE_REQUEST_TIMEOUT_S="
                + pythonFloat(timeoutSeconds) + " allows a single flush to spend up to " + roundHalfEven(worst)
                + "s inside sink.write(), past the 480s liveness deadline (server.HealthState.max_poll_age_s): the"
                + " consume loop is single threaded, so the pod would be killed mid-flush rather than crashing with"
                + " an error. Lower either knob.");
    }

    private static int positiveInt(Env env, String variable, int fallback) {
        String raw = stripped(env, variable);
        if (raw.isEmpty()) {
            return fallback;
        }
        int value;
        try {
            value = PythonInt.parseInt(variable, raw);
        } catch (ConfigException e) {
            throw new ConfigException(variable + "=" + pythonRepr(raw) + " must be a positive integer");
        }
        if (value <= 0) {
            throw new ConfigException(variable + "=" + value + " must be a positive integer");
        }
        return value;
    }

    private static double positiveNumber(Env env, String variable, double fallback) {
        String raw = stripped(env, variable);
        if (raw.isEmpty()) {
            return fallback;
        }
        if (!PYTHON_FLOAT.matcher(raw).matches()) {
            throw new ConfigException(variable + "=" + pythonRepr(raw) + " must be a positive number");
        }
        String s = raw.replace("_", "").toLowerCase(Locale.ROOT);
        double value = s.endsWith("inf") || s.endsWith("infinity")
                ? (s.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY)
                : s.endsWith("nan") ? Double.NaN : Double.parseDouble(s);
        if (value <= 0) {
            throw new ConfigException(variable + "=" + pythonFloat(value) + " must be a positive number");
        }
        return value;
    }

    private static String stripped(Env env, String variable) {
        String v = env.raw(variable);
        return v == null ? "" : v.strip();
    }

    private static Optional<String> nonBlank(Env env, String variable) {
        String v = stripped(env, variable);
        return v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    private static Optional<String> nonBlankRaw(Env env, String variable) {
        String v = env.raw(variable);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v);
    }

    /** Python's {@code repr()} of a plain string, which the original's messages use. */
    static String pythonRepr(String s) {
        String quote = s.contains("'") && !s.contains("\"") ? "\"" : "'";
        StringBuilder b = new StringBuilder(quote);
        for (char c : s.toCharArray()) {
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (String.valueOf(c).equals(quote)) {
                        b.append('\\').append(c);
                    } else if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append(quote).toString();
    }

    /** Python's {@code str(float)} for the values a timeout takes: {@code 45.0}, {@code 0.5}, {@code inf}, {@code nan}. */
    static String pythonFloat(double v) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e16) {
            return new BigDecimal(v).setScale(1, RoundingMode.UNNECESSARY).toPlainString();
        }
        return Double.toString(v);
    }

    /** Python's {@code f"{x:.0f}"}: round half to even on the exact binary value. */
    private static String roundHalfEven(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return pythonFloat(v);
        }
        return new BigDecimal(v).setScale(0, RoundingMode.HALF_EVEN).toPlainString();
    }
}
