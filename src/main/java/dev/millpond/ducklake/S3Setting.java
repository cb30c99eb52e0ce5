package dev.millpond.ducklake;

import dev.millpond.config.S3Settings;

import java.util.ArrayList;
import java.util.List;

/** One of DuckDB's legacy {@code s3_*} settings, applied to every connection that attaches the lake. */
public record S3Setting(String name, String value) {

    /** DUCKDB_S3_* as DuckDB settings; the writer and the maintenance tools attach the lake with this list. */
    public static List<S3Setting> from(S3Settings s3) {
        List<S3Setting> sets = new ArrayList<>();
        // The original's order, each only when configured.
        s3.endpoint().ifPresent(v -> sets.add(new S3Setting("s3_endpoint", v)));
        sets.add(new S3Setting("s3_access_key_id", s3.accessKeyId()));
        sets.add(new S3Setting("s3_secret_access_key", s3.secretAccessKey().reveal()));
        s3.useSsl().ifPresent(v -> sets.add(new S3Setting("s3_use_ssl", v)));
        s3.urlStyle().ifPresent(v -> sets.add(new S3Setting("s3_url_style", v)));
        s3.region().ifPresent(v -> sets.add(new S3Setting("s3_region", v)));
        return sets;
    }

    @Override
    public String toString() {
        return name.contains("secret") ? name + "=***" : name + "=" + value;
    }
}
