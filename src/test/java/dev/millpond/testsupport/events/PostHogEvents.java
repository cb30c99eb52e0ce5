package dev.millpond.testsupport.events;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

/**
 * Events the size and shape of PostHog's ingestion topic (~1.18 KB each): uuid, event, team_id, distinct_id, two
 * timestamps, a {@code properties} object of 20–40 keys of mixed types (strings, ints, floats, bools, nulls, arrays
 * and nested objects), a nested {@code person_properties} and an {@code elements_chain}. Seeded by the event's id, so
 * the same id always gives the same bytes and a run is reproducible. Top-level keys are the same in every event (as
 * in the real topic), so the columns are stable; the variety is inside the nested objects, which land as JSON text.
 */
public final class PostHogEvents {

    static final String[] EVENTS = {"$pageview", "$pageview", "$pageview", "$autocapture", "$autocapture",
        "$pageleave", "$identify", "$feature_flag_called", "signup", "purchase", "$web_vitals", "$exception"};
    static final String[] BROWSERS = {"Chrome", "Firefox", "Safari", "Edge", "Mobile Safari", "Samsung Internet"};
    static final String[] OSES = {"Windows", "Mac OS X", "Linux", "iOS", "Android", "Chrome OS"};
    static final String[] DEVICES = {"Desktop", "Mobile", "Tablet"};
    static final String[] PATHS = {"/", "/pricing", "/docs/getting-started", "/blog/how-we-scaled-ingestion",
        "/product/analytics", "/signup", "/login", "/settings/billing", "/docs/api/events", "/careers"};
    static final String[] HOSTS = {"app.example.com", "www.example.com", "eu.example.com", "docs.example.com"};
    static final String[] COUNTRIES = {"US", "GB", "DE", "FR", "IN", "BR", "CA", "NL", "AU", "JP"};
    static final String[] CITIES = {"New York", "London", "Berlin", "Paris", "Bengaluru", "São Paulo",
        "Toronto", "Amsterdam", "Sydney", "Tokyo"};
    static final String[] FLAGS = {"new-onboarding", "beta-dashboard", "session-replay-v2", "billing-v3",
        "hogql-insights", "data-warehouse", "web-analytics", "surveys"};
    static final String[] PLANS = {"free", "startup", "scale", "enterprise"};
    static final String[] TAGS = {"a", "button", "div", "span", "svg", "li", "input"};
    static final String[] CLASSES = {"btn", "btn-primary", "LemonButton", "nav-link", "card", "menu-item"};

    /** Extra property keys (beyond the always-present ones), drawn per event: name and the kind of value. */
    private static final String[] EXTRA_KEYS = {"$viewport_width", "$viewport_height",
        "$lib_version_major", "$prev_pageview_duration", "$prev_pageview_max_scroll", "$prev_pageview_max_scroll_percentage",
        "$prev_pageview_last_content", "$prev_pageview_pathname", "$sent_at", "$is_identified", "$session_entry_url",
        "$session_entry_referrer", "$autocapture_disabled_server_side", "$console_log_recording_enabled_server_side",
        "$device_id", "$groups", "$set_once", "$set", "$active_feature_flags", "$feature/new-onboarding",
        "$feature/beta-dashboard", "token", "utm_source", "utm_medium", "utm_campaign", "gclid", "plan", "cart_value",
        "items", "experiment_variant", "latency_ms", "ratio", "retry", "$exception_type", "$web_vitals_LCP_value",
        "$web_vitals_CLS_value", "$timezone_offset", "$configured_session_timeout_ms", "$lib_custom_api_host"};

    private static final java.time.format.DateTimeFormatter TIMESTAMP =
            java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx").withZone(java.time.ZoneOffset.UTC);

    private PostHogEvents() {
    }

    /** The event with this id. */
    public static byte[] event(long id) {
        Random r = new Random(id * 0x9E3779B97F4A7C15L + 17);
        StringBuilder b = new StringBuilder(1600);
        long micros = 1_764_417_600_000_000L + id * 1_000 + r.nextInt(1_000);
        String event = envelope(b, r, micros);
        b.append(",\"properties\":");
        properties(b, r, event, id);
        b.append(",\"person_properties\":");
        personProperties(b, r);
        b.append(",\"elements_chain\":\"");
        if (event.equals("$autocapture")) {
            elementsChain(b, r);
        }
        b.append("\"}");
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The top-level fields every PostHog-shaped corpus shares, opening the object: uuid, event, team_id,
     * distinct_id, timestamp and created_at; returns the event's name.
     */
    static String envelope(StringBuilder b, Random r, long micros) {
        b.append("{\"uuid\":\"").append(new UUID(r.nextLong(), r.nextLong())).append('"');
        String event = EVENTS[r.nextInt(EVENTS.length)];
        b.append(",\"event\":\"").append(event).append('"');
        b.append(",\"team_id\":").append(1 + r.nextInt(50));
        b.append(",\"distinct_id\":\"").append(new UUID(r.nextInt(20_000), r.nextInt(20_000))).append('"');
        b.append(",\"timestamp\":\"").append(timestamp(micros)).append('"');
        b.append(",\"created_at\":\"").append(timestamp(micros + 150_000 + r.nextInt(2_000_000))).append('"');
        return event;
    }

    /** Events {@code firstId .. firstId + count - 1}. */
    public static List<byte[]> events(long firstId, int count) {
        List<byte[]> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(event(firstId + i));
        }
        return out;
    }

    private static void properties(StringBuilder b, Random r, String event, long id) {
        String host = HOSTS[r.nextInt(HOSTS.length)];
        String path = PATHS[r.nextInt(PATHS.length)];
        int country = r.nextInt(COUNTRIES.length);
        b.append("{\"$os\":\"").append(OSES[r.nextInt(OSES.length)]).append('"');
        b.append(",\"$browser\":\"").append(BROWSERS[r.nextInt(BROWSERS.length)]).append('"');
        b.append(",\"$device_type\":\"").append(DEVICES[r.nextInt(DEVICES.length)]).append('"');
        b.append(",\"$current_url\":\"https://").append(host).append(path).append('"');
        b.append(",\"$host\":\"").append(host).append('"');
        b.append(",\"$pathname\":\"").append(path).append('"');
        b.append(",\"$browser_version\":").append(100 + r.nextInt(30));
        b.append(",\"$screen_height\":").append(700 + r.nextInt(800));
        b.append(",\"$screen_width\":").append(1200 + r.nextInt(1400));
        b.append(",\"$lib\":\"web\",\"$lib_version\":\"1.").append(150 + r.nextInt(50)).append('.').append(r.nextInt(10))
                .append('"');
        b.append(",\"$time\":").append(String.format(Locale.ROOT, "%.3f", 1_764_417_600 + id / 1000.0));
        b.append(",\"$session_id\":\"").append(new UUID(r.nextLong(), r.nextLong())).append('"');
        b.append(",\"$referrer\":\"").append(r.nextBoolean() ? "$direct" : "https://www.google.com/").append('"');
        b.append(",\"$geoip_country_code\":\"").append(COUNTRIES[country]).append('"');
        b.append(",\"$geoip_city_name\":\"").append(CITIES[country]).append('"');
        b.append(",\"$geoip_latitude\":").append(String.format(Locale.ROOT, "%.4f", r.nextDouble() * 180 - 90));
        b.append(",\"$geoip_longitude\":").append(String.format(Locale.ROOT, "%.4f", r.nextDouble() * 360 - 180));
        b.append(",\"$event_type\":\"").append(event.equals("$autocapture") ? "click" : "view").append('"');
        // 2–22 more keys from the pool, each with a value of its kind: 20–40 keys in all, most events near 25.
        double u = r.nextDouble();
        int extra = 2 + (int) (20.999 * u * u * u);
        int start = r.nextInt(EXTRA_KEYS.length);
        for (int i = 0; i < extra; i++) {
            String key = EXTRA_KEYS[(start + i * 7) % EXTRA_KEYS.length];
            b.append(",\"").append(key).append("\":");
            extraValue(b, r, key);
        }
        b.append('}');
    }

    private static void extraValue(StringBuilder b, Random r, String key) {
        switch (key) {
            case "$groups" -> b.append("{\"organization\":\"").append(new UUID(0, r.nextInt(5_000)))
                    .append("\",\"project\":\"").append(r.nextInt(90_000)).append("\"}");
            case "$set", "$set_once" -> b.append("{\"$initial_referrer\":\"$direct\",\"$initial_os\":\"")
                    .append(OSES[r.nextInt(OSES.length)]).append("\",\"email_verified\":").append(r.nextBoolean())
                    .append(",\"signup_step\":").append(r.nextInt(5)).append('}');
            case "$active_feature_flags", "items" -> {
                b.append('[');
                int n = 1 + r.nextInt(4);
                for (int i = 0; i < n; i++) {
                    b.append(i == 0 ? "\"" : ",\"").append(FLAGS[r.nextInt(FLAGS.length)]).append('"');
                }
                b.append(']');
            }
            case "$is_identified", "$autocapture_disabled_server_side", "$console_log_recording_enabled_server_side",
                 "retry", "$feature/new-onboarding" -> b.append(r.nextBoolean());
            case "$prev_pageview_duration", "cart_value", "ratio", "$web_vitals_LCP_value", "$web_vitals_CLS_value" ->
                    b.append(String.format(Locale.ROOT, "%.2f", r.nextDouble() * 1000));
            case "$viewport_width", "$viewport_height", "$prev_pageview_max_scroll", "latency_ms", "$lib_version_major",
                 "$timezone_offset", "$configured_session_timeout_ms", "$prev_pageview_max_scroll_percentage" ->
                    b.append(r.nextInt(4000) - (key.equals("$timezone_offset") ? 720 : 0));
            case "gclid", "$exception_type", "$feature/beta-dashboard" -> {
                if (r.nextInt(3) == 0) {
                    b.append("null");
                } else {
                    b.append('"').append(Long.toString(r.nextLong() & Long.MAX_VALUE, 36)).append('"');
                }
            }
            case "plan" -> b.append('"').append(PLANS[r.nextInt(PLANS.length)]).append('"');
            default -> b.append('"').append(key.startsWith("utm") ? "newsletter-" + r.nextInt(40)
                    : Long.toString(r.nextLong() & 0xFFFFFFFFFFL, 36)).append('"');
        }
    }

    private static void personProperties(StringBuilder b, Random r) {
        int user = r.nextInt(20_000);
        b.append("{\"email\":\"user").append(user).append("@example.com\"");
        b.append(",\"plan\":\"").append(PLANS[r.nextInt(PLANS.length)]).append('"');
        b.append(",\"projects\":").append(r.nextInt(12));
        b.append(",\"company\":{\"name\":\"Company ").append(user % 700).append("\",\"seats\":").append(1 + r.nextInt(500))
                .append(",\"country\":\"").append(COUNTRIES[r.nextInt(COUNTRIES.length)]).append("\"}");
        b.append('}');
    }

    private static void elementsChain(StringBuilder b, Random r) {
        int depth = 2 + r.nextInt(3);
        for (int i = 0; i < depth; i++) {
            if (i > 0) {
                b.append(';');
            }
            b.append(TAGS[r.nextInt(TAGS.length)]).append('.').append(CLASSES[r.nextInt(CLASSES.length)])
                    .append(":nth-child=\\\"").append(1 + r.nextInt(6)).append("\\\"nth-of-type=\\\"")
                    .append(1 + r.nextInt(3)).append("\\\"");
        }
    }

    static String timestamp(long micros) {
        return TIMESTAMP.format(java.time.Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1_000));
    }
}
