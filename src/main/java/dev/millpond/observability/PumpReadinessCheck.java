package dev.millpond.observability;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready only when the sink is constructed, partitions are assigned and polls are fresh (docs/decisions.md, "Ready
 * means ready").
 */
@Readiness
@ApplicationScoped
public class PumpReadinessCheck implements HealthCheck {

    @Inject
    PumpHealth health;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("pump-ready")
                .status(health.ready())
                .withData("detail", health.readinessDetail())
                .build();
    }
}
