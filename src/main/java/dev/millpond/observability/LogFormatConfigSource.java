package dev.millpond.observability;

import org.eclipse.microprofile.config.spi.ConfigSource;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps the original's logging variables onto Quarkus logging. {@code MILLPOND_LOG_FORMAT} unset or {@code json} gives
 * one JSON object per line with the original's keys ({@code ts}, {@code level}, {@code logger}, {@code msg},
 * {@code exc}); any other value gives text lines prefixed {@code [ordinal][logger]}, as the original prints them.
 */
public final class LogFormatConfigSource implements ConfigSource {

    private static final Pattern ORDINAL = Pattern.compile("-(\\d+)$");
    private final Map<String, String> properties;

    public LogFormatConfigSource() {
        this(System.getenv());
    }

    LogFormatConfigSource(Map<String, String> env) {
        Map<String, String> p = new HashMap<>();
        String format = env.getOrDefault("MILLPOND_LOG_FORMAT", "json").trim().toLowerCase(Locale.ROOT);
        boolean json = format.equals("json");
        p.put("quarkus.log.console.json.enabled", Boolean.toString(json));
        if (json) {
            p.put("quarkus.log.console.json.key-overrides",
                    "timestamp=ts,logger-name=logger,message=msg,stack-trace=exc");
            p.put("quarkus.log.console.json.excluded-keys",
                    "sequence,loggerClassName,threadName,threadId,mdc,ndc,hostName,processName,processId");
            p.put("quarkus.log.console.json.exception-output-type", "formatted");
            p.put("quarkus.log.console.json.date-format", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
            p.put("quarkus.log.console.json.zone-id", "UTC");
        } else {
            p.put("quarkus.log.console.format",
                    "%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [" + ordinal(env) + "][%c{1.}] %s%e%n");
        }
        this.properties = Map.copyOf(p);
    }

    private static String ordinal(Map<String, String> env) {
        String pod = env.get("POD_NAME");
        if (pod == null || pod.isEmpty()) {
            pod = env.getOrDefault("HOSTNAME", "millpond-0");
        }
        Matcher m = ORDINAL.matcher(pod);
        return m.find() ? Integer.toString(Integer.parseInt(m.group(1))) : "?";
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
        return "millpond-log-format";
    }

    @Override
    public int getOrdinal() {
        // Above application.properties (250), below system properties (400) and env (300) so operators can override.
        return 275;
    }
}
