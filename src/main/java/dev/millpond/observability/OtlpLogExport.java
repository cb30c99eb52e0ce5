package dev.millpond.observability;

import dev.millpond.config.ApplicationVersion;
import dev.millpond.config.OtlpLogSettings;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import org.jboss.logging.Logger;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Optional export of application logs to PostHog Logs over OTLP/HTTP, next to (not instead of) stdout.
 *
 * <p>Uses the OpenTelemetry SDK directly because the project's Maven mirror does not serve the Quarkus OpenTelemetry
 * extension. The handler is attached to the root logger, so it sees exactly what the console sees.
 */
public final class OtlpLogExport implements LogExport {


    private static final Logger LOG = Logger.getLogger(OtlpLogExport.class);
    private static final String SERVICE_NAME = "millpond";
    /** Bounds shutdown: a dead endpoint must not hold up the pod's termination grace period. */
    private static final long CLOSE_TIMEOUT_SECONDS = 10;

    private final java.util.logging.Logger root;
    private final OtlpLogHandler handler;
    private final SdkLoggerProvider provider;

    private OtlpLogExport(java.util.logging.Logger root, OtlpLogHandler handler, SdkLoggerProvider provider) {
        this.root = root;
        this.handler = handler;
        this.provider = provider;
    }

    /**
     * Installs the export when {@code POSTHOG_PROJECT_TOKEN} is set; otherwise does nothing and returns a no-op.
     * Close the result at shutdown to flush the last batch.
     */
    public static LogExport installIfConfigured(Map<String, String> env) {
        Optional<OtlpLogSettings> settings = OtlpLogSettings.fromEnvironment(env, ApplicationVersion::get);
        if (settings.isEmpty()) {
            return () -> {
            };
        }
        return install(settings.get());
    }

    static OtlpLogExport install(OtlpLogSettings settings) {
        OtlpHttpLogRecordExporter exporter = OtlpHttpLogRecordExporter.builder()
                .setEndpoint(settings.endpoint())
                .addHeader("Authorization", "Bearer " + settings.token())
                .build();
        SdkLoggerProvider provider = SdkLoggerProvider.builder()
                .setResource(resource(settings))
                .addLogRecordProcessor(BatchLogRecordProcessor.builder(exporter).build())
                .build();
        OtlpLogHandler handler = new OtlpLogHandler(provider.get("dev.millpond"));
        // Under Quarkus the JUL root is the JBoss LogManager root, the one its console handler hangs off.
        java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
        root.addHandler(handler);
        // The endpoint only: the settings' token must never reach a log line.
        LOG.infof("Exporting logs via OTLP/HTTP to %s", settings.endpoint());
        return new OtlpLogExport(root, handler, provider);
    }

    /**
     * The SDK's defaults ({@code telemetry.sdk.*}), then {@code OTEL_RESOURCE_ATTRIBUTES}, then millpond's own
     * attributes: a later one wins, so an explicit setting overrides the variable, as in the original.
     */
    static Resource resource(OtlpLogSettings settings) {
        AttributesBuilder fromEnvironment = Attributes.builder();
        settings.environmentResource().forEach(fromEnvironment::put);
        return Resource.getDefault().merge(Resource.create(fromEnvironment.build()))
                .merge(Resource.create(resourceAttributes(settings)));
    }

    static Attributes resourceAttributes(OtlpLogSettings settings) {
        AttributesBuilder attributes = Attributes.builder()
                .put("service.name", SERVICE_NAME)
                .put("service.namespace", settings.serviceNamespace())
                .put("service.version", settings.serviceVersion())
                .put("messaging.system", "kafka");
        settings.topic().ifPresent(v -> attributes.put("messaging.destination.name", v));
        settings.consumerGroup().ifPresent(v -> attributes.put("messaging.kafka.consumer.group", v));
        settings.table().ifPresent(v -> attributes.put("millpond.ducklake.table", v));
        settings.dataPath().ifPresent(v -> attributes.put("millpond.ducklake.data_path", v));
        settings.serviceInstanceId().ifPresent(id -> attributes.put("service.instance.id", id));
        return attributes.build();
    }

    /** Detaches first so nothing new is emitted, then flushes the batch and stops the exporter. */
    @Override
    public void close() {
        root.removeHandler(handler);
        provider.shutdown().join(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
