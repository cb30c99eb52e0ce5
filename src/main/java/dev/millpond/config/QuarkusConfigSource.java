package dev.millpond.config;

import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Hands Quarkus the settings it applies itself — {@code LOG_LEVEL}, {@code MILLPOND_LOG_FORMAT} and
 * {@code MILLPOND_HTTP_PORT} — parsed by the same rules {@link ConfigLoader} validates them with, so what was validated
 * is what runs. Quarkus never reads those variables itself: a value Quarkus would refuse (such as {@code CRITICAL}, a
 * Python level name) reaches it already translated.
 *
 * <p>A config source cannot fail startup with a one-line message (Quarkus wraps anything it throws in a stack trace),
 * so an invalid value gets a harmless stand-in here (INFO, an ephemeral port) and {@link ConfigLoader}, run when the
 * application starts, rejects it with the line that names the variable.
 *
 * <p>{@code MILLPOND_LOG_FORMAT} unset or {@code json} gives one JSON object per line with the original's keys
 * ({@code ts}, {@code level}, {@code logger}, {@code msg}, {@code exc}); any other value gives text lines prefixed
 * {@code [ordinal][logger]}, as the original prints them.
 */
public final class QuarkusConfigSource implements ConfigSource {

    private final Map<String, String> properties;

    public QuarkusConfigSource() {
        this(System.getenv());
    }

    QuarkusConfigSource(Map<String, String> envVars) {
        Env env = new Env(envVars);
        Map<String, String> p = new HashMap<>();
        LogLevel level = orElse(() -> LogLevel.parse(env.raw(LogLevel.VARIABLE)), LogLevel.INFO);
        p.put("quarkus.log.level", level.jbossLevel());
        p.put("quarkus.http.port", Integer.toString(orElse(() -> ConfigLoader.httpPort(env), 0)));
        if (LogFormat.parse(env.raw(LogFormat.VARIABLE)) == LogFormat.JSON) {
            p.put("quarkus.log.console.json.enabled", "true");
            p.put("quarkus.log.console.json.key-overrides",
                    "timestamp=ts,logger-name=logger,message=msg,stack-trace=exc");
            p.put("quarkus.log.console.json.excluded-keys",
                    "sequence,loggerClassName,threadName,threadId,mdc,ndc,hostName,processName,processId");
            p.put("quarkus.log.console.json.exception-output-type", "formatted");
            p.put("quarkus.log.console.json.date-format", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
            p.put("quarkus.log.console.json.zone-id", "UTC");
        } else {
            String ordinal = orElse(() -> Integer.toString(ConfigLoader.parseOrdinal(ConfigLoader.podName(env))), "?");
            p.put("quarkus.log.console.json.enabled", "false");
            p.put("quarkus.log.console.format", "%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [" + ordinal + "][%c{1.}] %s%e%n");
        }
        this.properties = Map.copyOf(p);
    }

    private static <T> T orElse(Supplier<T> parse, T standIn) {
        try {
            return parse.get();
        } catch (ConfigException e) {
            return standIn; // ConfigLoader reports it when the application starts
        }
    }

    @Override
    public Map<String, String> getProperties() {
        return properties;
    }

    @Override
    public Set<String> getPropertyNames() {
        return properties.keySet();
    }

    @Override
    public String getValue(String name) {
        return properties.get(name);
    }

    @Override
    public String getName() {
        return "millpond-environment";
    }

    @Override
    public int getOrdinal() {
        // Above application.properties (250), below environment variables (300) and system properties (400), so an
        // explicit QUARKUS_* variable or -Dquarkus.* still wins.
        return 275;
    }
}
