package dev.millpond.testsupport.hoglake;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/** A refusal in the hoglake envelope: {@code {"error", "detail"}}, plus the typed-409 fields when they apply. */
final class ApiError extends RuntimeException {
    final int status;
    final String error;
    final List<String> tables;
    final Long readSnapshot;
    final boolean rePrepare;

    private ApiError(int status, String error, String detail, List<String> tables, Long readSnapshot,
            boolean rePrepare) {
        super(detail, null, false, false);
        this.status = status;
        this.error = error;
        this.tables = tables;
        this.readSnapshot = readSnapshot;
        this.rePrepare = rePrepare;
    }

    static ApiError badRequest(String detail) {
        return new ApiError(400, "bad_request", detail, null, null, false);
    }

    static ApiError notFound(String detail) {
        return new ApiError(404, "not_found", detail, null, null, false);
    }

    static ApiError alreadyExists(String detail) {
        return new ApiError(409, "already_exists", detail, null, null, false);
    }

    static ApiError validation(String detail) {
        return new ApiError(422, "validation", detail, null, null, false);
    }

    static ApiError tableRecreated(String qualified, String expected, String live) {
        return new ApiError(409, "table_recreated", "expected_table_uuid " + expected + " does not match " + qualified
                + " (live " + live + "): the table was recreated", List.of(qualified), null, true);
    }

    static ApiError tableDropped(String qualified, long dropSnapshot) {
        return new ApiError(409, "table_dropped", "table " + qualified + " was dropped at snapshot " + dropSnapshot,
                List.of(qualified), null, false);
    }

    static ApiError ddlSinceReadSnapshot(List<String> tables, long readSnapshot) {
        return new ApiError(409, "ddl_since_read_snapshot", "tables changed since read_snapshot " + readSnapshot,
                tables, readSnapshot, true);
    }

    static ApiError commitQueueTimeout() {
        return new ApiError(503, "commit_queue_timeout", "timed out waiting for the catalog commit lock", null, null,
                false);
    }

    ObjectNode body() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("error", error);
        if (getMessage() != null) {
            n.put("detail", getMessage());
        }
        if (tables != null) {
            tables.forEach(n.putArray("tables")::add);
        }
        if (readSnapshot != null) {
            n.put("read_snapshot", readSnapshot);
        }
        if (rePrepare) {
            n.put("retry", "re-prepare");
        }
        return n;
    }
}
