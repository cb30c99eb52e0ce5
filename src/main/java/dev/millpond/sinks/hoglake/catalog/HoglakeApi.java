package dev.millpond.sinks.hoglake.catalog;

import dev.millpond.sinks.hoglake.catalog.HoglakeWire.Alter;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CatalogInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CommitRequest;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CommitResult;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CreateCatalog;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CreateNamespace;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CreateTable;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.NamespaceInfo;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.TableInfo;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import java.util.List;

/**
 * The writer-path routes of the hoglake control plane, relative to {@code {root}/v1}. Built programmatically by
 * {@link HoglakeCatalogClient} (the URL and timeouts come from HOGLAKE_*, not from Quarkus configuration); a non-2xx
 * answer surfaces as a {@link HoglakeHttpException}.
 */
@RegisterRestClient(configKey = "hoglake")
@Path("/catalogs")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public interface HoglakeApi {

    @GET
    @Path("/{catalog}")
    CatalogInfo getCatalog(@PathParam("catalog") String catalog);

    @POST
    CatalogInfo createCatalog(CreateCatalog request);

    @GET
    @Path("/{catalog}/namespaces")
    List<NamespaceInfo> listNamespaces(@PathParam("catalog") String catalog);

    @POST
    @Path("/{catalog}/namespaces")
    NamespaceInfo createNamespace(@PathParam("catalog") String catalog, CreateNamespace request);

    /** {@code totals=false}: the writer never needs the table's record and file totals. */
    @GET
    @Path("/{catalog}/namespaces/{namespace}/tables/{table}")
    TableInfo getTable(@PathParam("catalog") String catalog, @PathParam("namespace") String namespace,
            @PathParam("table") String table, @QueryParam("totals") Boolean totals);

    @POST
    @Path("/{catalog}/namespaces/{namespace}/tables")
    TableInfo createTable(@PathParam("catalog") String catalog, @PathParam("namespace") String namespace,
            CreateTable request);

    @POST
    @Path("/{catalog}/namespaces/{namespace}/tables/{table}/alter")
    TableInfo alterTable(@PathParam("catalog") String catalog, @PathParam("namespace") String namespace,
            @PathParam("table") String table, Alter request);

    @POST
    @Path("/{catalog}/commit/prepared")
    CommitResult commitPrepared(@PathParam("catalog") String catalog, CommitRequest request);
}
