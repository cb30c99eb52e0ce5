package dev.millpond.observability;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Logger;

/**
 * Logging for the image's command-line tools ({@code ducklake-maintenance}, {@code ducklake-metrics}), which run as
 * plain mains outside Quarkus: log records go to stderr through {@code java.util.logging} with the writer's
 * redaction rule ({@link RedactingRecordFilter}), and stdout and stderr themselves are {@link RedactingOutputStream}s,
 * so what picocli or a library prints directly is redacted the same way. A failing catalog connection's
 * {@code password='…'} never reaches a CronJob's log.
 */
public final class ToolLogging {

    private ToolLogging() {
    }

    /** Installs the redacting streams and log handler for this process; returns the redactor they use. */
    public static SecretRedactor install(Map<String, String> env) {
        // JBoss Logging over the JDK's logging: the jar also carries the JBoss LogManager, which only Quarkus
        // configures, so left to choose, JBoss Logging would log into an unconfigured manager and print nothing.
        System.setProperty("org.jboss.logging.provider", "jdk");
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT %4$s [%3$s] %5$s%6$s%n");
        SecretRedactor redactor = SecretRedactor.fromEnvironment(env);
        RedactingOutputStream out = new RedactingOutputStream(new FileOutputStream(FileDescriptor.out), redactor);
        RedactingOutputStream err = new RedactingOutputStream(new FileOutputStream(FileDescriptor.err), redactor);
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                out.drain();
                err.drain();
            } catch (java.io.IOException ignored) {
                // the stream is gone; nothing left to say
            }
        }, "tool-output-drain"));
        Logger root = Logger.getLogger("");
        for (Handler h : root.getHandlers()) {
            root.removeHandler(h);
        }
        Handler console = new ConsoleHandler(); // on the System.err just installed
        console.setFilter(new RedactingRecordFilter(redactor));
        root.addHandler(console);
        return redactor;
    }
}
