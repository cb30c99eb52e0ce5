package dev.millpond.sinks.hoglake;

import dev.millpond.sinks.hoglake.catalog.CatalogFailure;
import dev.millpond.sinks.hoglake.catalog.CatalogReply;
import dev.millpond.sinks.hoglake.catalog.HoglakeCatalogClient;
import dev.millpond.sinks.hoglake.catalog.HoglakeWire.CatalogInfo;
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
            return checked(read.value(), dataPath);
        }
        CatalogFailure failure = read.failure();
        if (!failure.isNotFound()) {
            throw new HoglakeStartupException("Cannot resolve hoglake catalog '" + catalog + "' at " + url + ": "
                    + failure + " — check HOGLAKE_URL and that the control plane is up", unavailable(failure));
        }
        if (dataPath.isEmpty()) {
            throw new HoglakeStartupException("Hoglake catalog '" + catalog + "' does not exist at " + url
                    + " — create it, or set HOGLAKE_DATA_PATH so millpond creates it");
        }
        CatalogReply<CatalogInfo> created = client.createCatalog(catalog, dataPath.get());
        if (created.ok()) {
            LOG.infof("Created hoglake catalog '%s' with data_path %s", catalog, dataPath.get());
            return checked(created.value(), dataPath);
        }
        if (created.failure().isAlreadyExists()) {
            CatalogReply<CatalogInfo> again = client.catalog(catalog);
            if (again.ok()) {
                return checked(again.value(), dataPath);
            }
            throw new HoglakeStartupException("Cannot resolve hoglake catalog '" + catalog + "' at " + url
                    + " after another writer created it: " + again.failure(), unavailable(again.failure()));
        }
        throw new HoglakeStartupException("Cannot create hoglake catalog '" + catalog + "' with data_path "
                + dataPath.get() + " at " + url + ": " + created.failure() + " — check HOGLAKE_DATA_PATH",
                unavailable(created.failure()));
    }

    /** Unreachable or answering 5xx, as the write ladder judges it. */
    private static boolean unavailable(CatalogFailure failure) {
        return HoglakeFailures.of(failure).kind() == dev.millpond.sinks.WriteFailure.Kind.UNAVAILABLE;
    }

    /**
     * The control plane's {@code data_path} decides where every file is uploaded, so it is checked before use: an
     * {@code s3://bucket[/prefix]} URI without empty, {@code .} or {@code ..} segments, whitespace or control
     * characters; and when HOGLAKE_DATA_PATH is set, the same path (a catalog whose path differs is not the one this
     * deployment was configured for).
     */
    static CatalogInfo checked(CatalogInfo info, Optional<String> dataPath) {
        String path = info.dataPath();
        if (!wellFormed(path)) {
            throw new HoglakeStartupException("Hoglake catalog '" + info.name() + "' has a malformed data_path "
                    + (path == null ? "(none)" : "'" + printable(path) + "'") + " (expected s3://bucket/prefix without empty,"
                    + " . or .. segments) — refusing to upload anywhere under it");
        }
        if (dataPath.isPresent() && !strip(dataPath.get()).equals(strip(path))) {
            throw new HoglakeStartupException("Hoglake catalog '" + info.name() + "' has data_path " + path
                    + " but HOGLAKE_DATA_PATH=" + dataPath.get() + " — fix HOGLAKE_DATA_PATH (or unset it to use the"
                    + " catalog's own path)");
        }
        return info;
    }

    /** Control characters as escapes, so the refusal stays one line. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (c < ' ' || c == 0x7f) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    static boolean wellFormed(String path) {
        if (path == null || !path.startsWith("s3://") || path.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
            return false;
        }
        String rest = path.substring("s3://".length());
        if (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        String[] segments = rest.split("/", -1);
        for (String segment : segments) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }

    private static String strip(String path) {
        return path.replaceAll("/+$", "");
    }
}
