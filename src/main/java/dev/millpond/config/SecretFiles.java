package dev.millpond.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * {@code <NAME>_FILE}: every secret variable may instead name a file that holds the value (the container convention,
 * a Kubernetes Secret mounted as files), so the value never sits in the process environment, where
 * {@code /proc/<pid>/environ}, {@code kubectl describe} and crash reports can show it. Applied to the environment
 * before anything reads it: the result has {@code NAME} set to the file's content, without its trailing line break
 * (secret files usually end with one), and no {@code NAME_FILE}; everything downstream — validation, the 4-character
 * minimum, log redaction — sees the value as if it had been set directly.
 *
 * <p>Both {@code NAME} and {@code NAME_FILE} set, or a file that cannot be read, is a configuration error naming the
 * variable and the path, never the content. A blank {@code NAME_FILE} counts as unset (a chart renders unset as "").
 */
public final class SecretFiles {

    /** What names a file rather than holding the value. */
    public static final String SUFFIX = "_FILE";
    /**
     * The secret variables millpond reads, besides the {@code KAFKA_CONSUMER_*} passthrough's (any whose name says it
     * is a secret, such as {@code KAFKA_CONSUMER_SASL_PASSWORD}). The access key ids are not secret on their own, but
     * they live in the same Secret as their keys, so a Secret mounted as files must be able to provide them too.
     */
    public static final List<String> VARIABLES = List.of(
            "DUCKLAKE_RDS_PASSWORD",
            "DUCKDB_S3_ACCESS_KEY_ID",
            "DUCKDB_S3_SECRET_ACCESS_KEY",
            "HOGLAKE_S3_ACCESS_KEY",
            "HOGLAKE_S3_SECRET_KEY",
            "MILLPOND_INCLUDE_VALUES_AUTH_TOKEN",
            "POSTHOG_PROJECT_TOKEN");
    /** A secret is short; a file this large is the wrong file. */
    static final long MAX_BYTES = 1 << 20;

    private SecretFiles() {
    }

    /**
     * The environment with every {@code NAME_FILE} read, and the first problem met, if any. On a problem the variables
     * still hold every file that could be read, so the log redaction knows them while startup reports the problem.
     */
    public record Resolved(Map<String, String> variables, Optional<ConfigException> failure) {
        public Resolved {
            variables = Map.copyOf(variables);
        }

        /** The variables, or the configuration error that stops startup. */
        public Map<String, String> variablesOrThrow() {
            failure.ifPresent(e -> {
                throw e;
            });
            return variables;
        }
    }

    /** Whether {@code NAME_FILE} is read for {@code name}. */
    public static boolean accepts(String name) {
        return VARIABLES.contains(name)
                || name.startsWith(Env.PASSTHROUGH_PREFIX) && SecretVariables.isSecret(name);
    }

    /** Reads every {@code NAME_FILE} of {@code env} once. */
    public static Resolved resolve(Map<String, String> env) {
        List<String> names = new ArrayList<>(VARIABLES);
        // The passthrough's secrets are found among the variables present (there is no fixed list of them).
        new TreeSet<>(env.keySet()).stream()
                .filter(k -> k.endsWith(SUFFIX))
                .map(k -> k.substring(0, k.length() - SUFFIX.length()))
                .filter(n -> n.startsWith(Env.PASSTHROUGH_PREFIX) && accepts(n))
                .forEach(names::add);
        Map<String, String> out = new LinkedHashMap<>(env);
        ConfigException failure = null;
        for (String name : names) {
            String fileVariable = name + SUFFIX;
            String path = env.get(fileVariable);
            if (path == null) {
                continue;
            }
            out.remove(fileVariable);
            if (path.isBlank()) {
                continue;
            }
            String direct = env.get(name);
            try {
                if (direct != null && !direct.isEmpty()) {
                    throw new ConfigException(name + " and " + fileVariable + " are both set: set only one (the"
                            + " file, " + path.strip() + ", was not read)");
                }
                out.put(name, read(fileVariable, path.strip()));
            } catch (ConfigException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
        return new Resolved(out, Optional.ofNullable(failure));
    }

    private static String read(String variable, String path) {
        byte[] bytes;
        try {
            Path file = Path.of(path);
            if (Files.isDirectory(file)) {
                throw unreadable(variable, path, "it is a directory");
            }
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes((int) MAX_BYTES + 1);
            }
        } catch (NoSuchFileException e) {
            throw unreadable(variable, path, "no such file");
        } catch (AccessDeniedException e) {
            throw unreadable(variable, path, "permission denied");
        } catch (InvalidPathException e) {
            throw unreadable(variable, path, "not a valid path");
        } catch (IOException e) {
            // The exception's own text may quote the path only; its class says what went wrong.
            throw unreadable(variable, path, e.getClass().getSimpleName());
        }
        if (bytes.length > MAX_BYTES) {
            throw unreadable(variable, path, "larger than " + MAX_BYTES + " bytes, not a secret");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw unreadable(variable, path, "not UTF-8 text");
        }
        int end = text.length();
        while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
            end--;
        }
        return text.substring(0, end);
    }

    private static ConfigException unreadable(String variable, String path, String why) {
        return new ConfigException(variable + ": cannot read the secret file " + path + " (" + why + ")");
    }
}
