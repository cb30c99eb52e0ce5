package dev.millpond.config;

import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Optional;

/** The version the build stamped on the application: the log export's {@code service.version} unless set. */
public final class ApplicationVersion {

    private ApplicationVersion() {
    }

    /**
     * Quarkus records the Maven project version as {@code quarkus.application.version}; the jar manifest is the
     * fallback outside Quarkus (unit tests, tools).
     */
    public static String get() {
        try {
            Optional<String> version = ConfigProvider.getConfig()
                    .getOptionalValue("quarkus.application.version", String.class);
            if (version.isPresent()) {
                return version.get();
            }
        } catch (RuntimeException e) {
            // No config available: fall through to the manifest.
        }
        String manifest = ApplicationVersion.class.getPackage().getImplementationVersion();
        return manifest != null ? manifest : "unknown";
    }
}
