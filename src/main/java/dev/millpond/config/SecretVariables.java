package dev.millpond.config;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Which environment variables hold secrets (by name), and the one rule on their values: a secret must be at least
 * {@value #MIN_LENGTH} characters, because log redaction masks known values literally and a shorter value cannot be
 * masked wherever it occurs without masking ordinary words too. A shorter secret is also guessable, so refusing it
 * at startup loses nothing worth keeping.
 */
public final class SecretVariables {

    /** Environment variable names whose values are secrets. */
    public static final Pattern NAME = Pattern.compile(
            "(?i).*(PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL|API_KEY|PRIVATE_KEY|KEY_PEM|AUTH_HEADER_VALUE).*");
    /** Names that match {@link #NAME} but hold no secret (where to fetch a token is not a token). */
    private static final Pattern NOT_A_SECRET = Pattern.compile("(?i).*(_URL|_ENDPOINT|_ENDPOINT_URL|_FILE|_LOCATION)$");
    public static final int MIN_LENGTH = 4;

    private SecretVariables() {
    }

    public static boolean isSecret(String name) {
        return NAME.matcher(name).matches() && !NOT_A_SECRET.matcher(name).matches();
    }

    /** Refuses a set, non-blank secret among {@code names} that is shorter than {@link #MIN_LENGTH}. */
    static void requireMaskable(Map<String, String> vars, Iterable<String> names) {
        for (String name : names) {
            String value = vars.get(name);
            if (value != null && !value.isBlank() && isSecret(name) && value.strip().length() < MIN_LENGTH) {
                throw new ConfigException(name + " is shorter than " + MIN_LENGTH + " characters; secrets that"
                        + " short cannot be kept out of logs (and are guessable): use a longer one");
            }
        }
    }
}
