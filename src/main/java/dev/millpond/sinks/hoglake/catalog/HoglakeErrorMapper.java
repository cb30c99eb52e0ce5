package dev.millpond.sinks.hoglake.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.ext.ResponseExceptionMapper;

import java.util.Optional;

/**
 * Turns every non-2xx answer into a {@link HoglakeHttpException}, 3xx included (redirects are not followed: a
 * control plane that redirects is misconfigured, and following one could send a commit somewhere else).
 */
final class HoglakeErrorMapper implements ResponseExceptionMapper<HoglakeHttpException> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public boolean handles(int status, jakarta.ws.rs.core.MultivaluedMap<String, Object> headers) {
        return status >= 300;
    }

    @Override
    public HoglakeHttpException toThrowable(Response response) {
        Optional<HoglakeWire.ApiError> body = Optional.empty();
        try {
            String text = response.hasEntity() ? response.readEntity(String.class) : "";
            if (!text.isBlank()) {
                HoglakeWire.ApiError parsed = JSON.readValue(text, HoglakeWire.ApiError.class);
                if (parsed.error() != null) {
                    body = Optional.of(parsed);
                }
            }
        } catch (Exception notAnEnvelope) {
            // A proxy's HTML error page, say: the status alone classifies it.
        }
        return new HoglakeHttpException(response.getStatus(), body,
                Optional.ofNullable(response.getHeaderString("Retry-After")));
    }

    /** Before the default mapper, which would throw a plain WebApplicationException. */
    @Override
    public int getPriority() {
        return 1;
    }
}
