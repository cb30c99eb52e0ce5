package dev.millpond.sinks.hoglake;

import dev.millpond.sinks.hoglake.HoglakeWire.CatalogInfo;
import org.jboss.logging.Logger;

import java.util.Optional;

/**
 * The startup resolve of HOGLAKE_CATALOG: read it; when it is missing and HOGLAKE_DATA_PATH is set, create it (another
 * pod creating it at the same moment is fine: read it again). Anything else refuses startup with one line naming
 * the setting to look at, so a wrong URL or a missing catalog fails before the pod claims readiness.
 */
final class CatalogResolution {

    private static final Logger LOG = Logger.getLogger(CatalogResolution.class);

    private CatalogResolution() {
    }

    static CatalogInfo resolve(HoglakeCatalogClient client, String url, String catalog, Optional<String> dataPath) {
        CatalogReply<CatalogInfo> read = client.catalog(catalog);
        if (read.ok()) {
            warnOnOtherDataPath(read.value(), dataPath);
            return read.value();
        }
        CatalogFailure failure = read.failure();
        if (!failure.isNotFound()) {
            throw new HoglakeStartupException("Cannot resolve hoglake catalog '" + catalog + "' at " + url + ": "
                    + failure + " — check HOGLAKE_URL and that the control plane is up");
        }
        if (dataPath.isEmpty()) {
            throw new HoglakeStartupException("Hoglake catalog '" + catalog + "' does not exist at " + url
                    + " — create it, or set HOGLAKE_DATA_PATH so millpond creates it");
        }
        CatalogReply<CatalogInfo> created = client.createCatalog(catalog, dataPath.get());
        if (created.ok()) {
            LOG.infof("Created hoglake catalog '%s' with data_path %s", catalog, dataPath.get());
            return created.value();
        }
        if (created.failure().isAlreadyExists()) {
            CatalogReply<CatalogInfo> again = client.catalog(catalog);
            if (again.ok()) {
                warnOnOtherDataPath(again.value(), dataPath);
                return again.value();
            }
            throw new HoglakeStartupException("Cannot resolve hoglake catalog '" + catalog + "' at " + url
                    + " after another writer created it: " + again.failure());
        }
        throw new HoglakeStartupException("Cannot create hoglake catalog '" + catalog + "' with data_path "
                + dataPath.get() + " at " + url + ": " + created.failure() + " — check HOGLAKE_DATA_PATH");
    }

    /** The catalog's data path was frozen when it was created; HOGLAKE_DATA_PATH only matters for creation. */
    private static void warnOnOtherDataPath(CatalogInfo info, Optional<String> dataPath) {
        if (dataPath.isPresent() && !strip(dataPath.get()).equals(strip(info.dataPath()))) {
            LOG.warnf("Hoglake catalog '%s' has data_path %s; HOGLAKE_DATA_PATH=%s is only used to create a missing"
                    + " catalog, so files go under the catalog's own path", info.name(), info.dataPath(),
                    dataPath.get());
        }
    }

    private static String strip(String path) {
        return path.replaceAll("/+$", "");
    }
}
