package dev.millpond.observability;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/** Alive while polls keep returning: a wedged loop (or a flush stuck in retries) stops polling and gets restarted. */
@Liveness
@ApplicationScoped
public class PumpLivenessCheck implements HealthCheck {

    @Inject
    PumpHealth health;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("pump-poll")
                .status(health.alive())
                .withData("detail", health.describe())
                .build();
    }
}
