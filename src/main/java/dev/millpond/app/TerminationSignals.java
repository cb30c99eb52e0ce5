package dev.millpond.app;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Quarkus;
import org.jboss.logging.Logger;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT start an orderly shutdown that exits 0, as the original does: the pump finishes its step,
 * flushes and commits. The JVM's default handling would report 143/130, which Kubernetes and operators read as a
 * crash of a pod that in fact stopped cleanly.
 */
final class TerminationSignals {

    private static final Logger LOG = Logger.getLogger(TerminationSignals.class);

    private TerminationSignals() {
    }

    static void install() {
        if (LaunchMode.current() == LaunchMode.DEVELOPMENT) {
            // quarkus:dev treats an exit as "stopped, wait for a change", so the JVM would outlive SIGTERM and Ctrl-C;
            // there the JVM's default handling is what a developer wants.
            return;
        }
        for (String name : new String[]{"TERM", "INT"}) {
            try {
                Signal.handle(new Signal(name), signal -> {
                    LOG.infof("SIG%s received", name);
                    Quarkus.asyncExit(0);
                });
            } catch (IllegalArgumentException e) {
                LOG.warnf("Cannot handle SIG%s here: %s", name, e.getMessage());
            }
        }
    }
}
