package dev.millpond.observability;

import io.smallrye.health.SmallRyeHealth;
import io.smallrye.health.SmallRyeHealthReporter;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * {@code /healthz} and {@code /readyz} with the original's plain-text bodies, so existing probes and runbooks keep
 * working. The verdict comes from the SmallRye Health checks, which also serve {@code /q/health/*} as JSON.
 */
@Path("/")
public class ProbeResource {

    @Inject
    SmallRyeHealthReporter reporter;

    @Inject
    PumpHealth health;

    @GET
    @Path("healthz")
    @Produces(MediaType.TEXT_PLAIN)
    public Uni<Response> healthz() {
        return reporter.getLivenessAsync().map(h -> answer(h, "unhealthy"));
    }

    @GET
    @Path("readyz")
    @Produces(MediaType.TEXT_PLAIN)
    public Uni<Response> readyz() {
        return reporter.getReadinessAsync().map(h -> answer(h, "not ready"));
    }

    private Response answer(SmallRyeHealth verdict, String failureWord) {
        boolean up = !verdict.isDown();
        String body = (up ? "ok " : failureWord + " ") + health.describe() + "\n";
        return Response.status(up ? 200 : 503).entity(body).type(MediaType.TEXT_PLAIN).build();
    }
}
