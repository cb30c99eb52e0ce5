package dev.millpond.sinks.hoglake.catalog;

/** Which kind of request failed: a 409 means something different for each. */
public enum CatalogCall {
    /** GETs: catalog, namespaces, table. */
    READ,
    /** Creates of a catalog, namespace or table: a 409 is {@code already_exists}, someone else created it first. */
    CREATE,
    /** Alters: a 409 is a conflict with a concurrent change. */
    ALTER,
    /** The prepared commit: a 409 is a conflict (optimistic concurrency) or a recreated table. */
    COMMIT
}
