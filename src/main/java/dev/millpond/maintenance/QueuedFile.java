package dev.millpond.maintenance;

/** A row of DuckLake's deletion queue: the path as stored (often relative to the data path) and absolute. */
public record QueuedFile(long dataFileId, String storedPath, String absolutePath) {
}
