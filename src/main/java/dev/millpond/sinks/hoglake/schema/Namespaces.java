package dev.millpond.sinks.hoglake.schema;

import dev.millpond.sinks.hoglake.catalog.CatalogReply;
import dev.millpond.sinks.hoglake.catalog.HoglakeCatalogClient;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire;
import dev.millpond.sinks.hoglake.catalog.HoglakeWriteException;
import org.jboss.logging.Logger;

import java.util.List;

/** Creates the namespace the sink's tables live in when it is missing; another pod creating it first is fine. */
final class Namespaces {

    private static final Logger LOG = Logger.getLogger(Namespaces.class);

    private Namespaces() {
    }

    static void ensure(HoglakeCatalogClient client, String catalog, String namespace) {
        CatalogReply<List<HoglakeWire.NamespaceInfo>> listed = client.namespaces(catalog);
        if (!listed.ok()) {
            throw new HoglakeWriteException("listing namespaces", listed.failure());
        }
        if (listed.value().stream().anyMatch(n -> namespace.equals(n.name()))) {
            return;
        }
        CatalogReply<HoglakeWire.NamespaceInfo> created = client.createNamespace(catalog, namespace);
        if (created.ok()) {
            LOG.infof("Created hoglake namespace %s.%s", catalog, namespace);
        } else if (!created.failure().isAlreadyExists()) {
            throw new HoglakeWriteException("creating namespace " + namespace, created.failure());
        }
    }
}
