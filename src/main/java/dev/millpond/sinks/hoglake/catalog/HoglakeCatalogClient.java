package dev.millpond.sinks.hoglake.catalog;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.AlterOp;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CatalogInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CommitRequest;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CommitResult;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.NamespaceInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableInfo;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.vertx.core.VertxException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The hoglake catalog as the writer uses it. Every call returns a {@link CatalogReply}: the answer, or a failure
 * already classified retryable or permanent, with the server's Retry-After when it sent one. Nothing is retried here:
 * the retry ladder belongs to the pump, which reads the verdict.
 *
 * <p>Built with the Quarkus REST client's programmatic builder because the URL and the per-request timeout come from
 * HOGLAKE_URL and HOGLAKE_REQUEST_TIMEOUT_S. The builder needs a running Quarkus application (it is not usable in a
 * plain JVM), which the pump always has.
 */
public final class HoglakeCatalogClient implements AutoCloseable {

    private final HoglakeApi api;

    public HoglakeCatalogClient(String root, Duration requestTimeout) {
        String base = root.strip().replaceAll("/+$", "") + "/v1";
        this.api = QuarkusRestClientBuilder.newBuilder()
                .baseUri(URI.create(base))
                .connectTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(requestTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .followRedirects(false)
                .register(new HoglakeErrorMapper())
                .build(HoglakeApi.class);
    }

    public CatalogReply<CatalogInfo> catalog(String catalog) {
        return call(CatalogCall.READ, () -> api.getCatalog(catalog));
    }

    public CatalogReply<CatalogInfo> createCatalog(String catalog, String dataPath) {
        return call(CatalogCall.CREATE, () -> api.createCatalog(new HoglakeWire.CreateCatalog(catalog, dataPath)));
    }

    public CatalogReply<List<NamespaceInfo>> namespaces(String catalog) {
        return call(CatalogCall.READ, () -> api.listNamespaces(catalog));
    }

    public CatalogReply<NamespaceInfo> createNamespace(String catalog, String namespace) {
        return call(CatalogCall.CREATE,
                () -> api.createNamespace(catalog, new HoglakeWire.CreateNamespace(namespace)));
    }

    public CatalogReply<TableInfo> table(String catalog, String namespace, String table) {
        return call(CatalogCall.READ, () -> api.getTable(catalog, namespace, table, false));
    }

    public CatalogReply<TableInfo> createTable(String catalog, String namespace, String table,
            List<HoglakeWire.ColumnDef> columns) {
        return call(CatalogCall.CREATE,
                () -> api.createTable(catalog, namespace, new HoglakeWire.CreateTable(table, columns)));
    }

    /** One alter: all ops apply atomically as one DDL snapshot, each seeing the shape the earlier ones produced. */
    public CatalogReply<TableInfo> alter(String catalog, String namespace, String table, List<AlterOp> ops) {
        return call(CatalogCall.ALTER, () -> api.alterTable(catalog, namespace, table, new HoglakeWire.Alter(ops)));
    }

    /**
     * Publishes a prepared append. The caller keeps {@code request} and sends the same value again on a retry, so a
     * commit whose response was lost is answered from the server's receipt instead of being published twice.
     */
    public CatalogReply<CommitResult> commitPrepared(String catalog, CommitRequest request) {
        return call(CatalogCall.COMMIT, () -> api.commitPrepared(catalog, request));
    }

    private static <T> CatalogReply<T> call(CatalogCall kind, Supplier<T> request) {
        try {
            return new CatalogReply.Ok<>(request.get());
        } catch (HoglakeHttpException e) {
            return new CatalogReply.Failed<>(CatalogFailure.fromHttp(kind, e));
        } catch (WebApplicationException e) {
            Optional<HoglakeHttpException> mapped = cause(e, HoglakeHttpException.class);
            if (mapped.isPresent()) {
                return new CatalogReply.Failed<>(CatalogFailure.fromHttp(kind, mapped.get()));
            }
            return new CatalogReply.Failed<>(classifyUnmapped(kind, e));
        } catch (ProcessingException e) {
            return new CatalogReply.Failed<>(classifyUnmapped(kind, e));
        } catch (VertxException e) {
            // The HTTP layer underneath reports a connection closed mid-response this way.
            return new CatalogReply.Failed<>(CatalogFailure.transport(kind, e));
        }
    }

    private static CatalogFailure classifyUnmapped(CatalogCall kind, RuntimeException e) {
        Optional<HoglakeHttpException> mapped = cause(e, HoglakeHttpException.class);
        if (mapped.isPresent()) {
            return CatalogFailure.fromHttp(kind, mapped.get());
        }
        // A body that is not the documented JSON is a broken contract, not a passing fault.
        if (cause(e, JsonProcessingException.class).isPresent()) {
            return CatalogFailure.malformedResponse(kind, cause(e, JsonProcessingException.class).get());
        }
        return CatalogFailure.transport(kind, cause(e, IOException.class).<Throwable>map(x -> x).orElse(e));
    }

    private static <X extends Throwable> Optional<X> cause(Throwable e, Class<X> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return Optional.of(type.cast(t));
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        if (api instanceof Closeable c) {
            try {
                c.close();
            } catch (IOException e) {
                // nothing left to release
            }
        }
    }
}
