package dev.millpond.testsupport.events;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

import static dev.millpond.testsupport.events.PostHogEvents.BROWSERS;
import static dev.millpond.testsupport.events.PostHogEvents.CITIES;
import static dev.millpond.testsupport.events.PostHogEvents.CLASSES;
import static dev.millpond.testsupport.events.PostHogEvents.COUNTRIES;
import static dev.millpond.testsupport.events.PostHogEvents.DEVICES;
import static dev.millpond.testsupport.events.PostHogEvents.HOSTS;
import static dev.millpond.testsupport.events.PostHogEvents.OSES;
import static dev.millpond.testsupport.events.PostHogEvents.PATHS;
import static dev.millpond.testsupport.events.PostHogEvents.PLANS;
import static dev.millpond.testsupport.events.PostHogEvents.TAGS;

/**
 * PostHog-shaped events of ~8 KB: the same nine top-level keys as {@link PostHogEvents} (so the table is as wide and
 * only the bytes per record grow), with what makes real events that large inside {@code properties}: the raw user
 * agent and full URLs with query strings, the {@code $set}/{@code $set_once} person updates with their
 * {@code $initial_*} keys, a long list of active feature flags each with its {@code $feature/…} key, the autocapture
 * {@code $elements} array, an exception's stack frames, web vitals, and 45–95 more keys of mixed types; a larger
 * {@code person_properties} and, for autocapture, a longer {@code elements_chain}. Seeded by the event's id: the same
 * id always gives the same bytes.
 */
public final class LargePostHogEvents {

    private static final String[] UA_TEMPLATES = {
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.%d.%d Safari/537.36",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.%d Safari/605.1.%d%d",
        "Mozilla/5.0 (X11; Linux x86_64; rv:%d.0) Gecko/20100101 Firefox/%d.%d",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_%d like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E%d%d",
        "Mozilla/5.0 (Linux; Android 14; SM-S9%d8B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.%d Mobile Safari/537.36"};
    private static final String[] WORDS = {"account", "billing", "dashboard", "insight", "funnel", "retention",
        "cohort", "export", "invite", "project", "settings", "replay", "survey", "experiment", "pipeline", "warehouse",
        "query", "alert", "notebook", "toolbar", "session", "person", "group", "annotation", "action", "plugin"};
    private static final String[] FRAMES = {"handleClick", "dispatchEvent", "invokeGuardedCallback", "renderWithHooks",
        "commitRoot", "flushSyncCallbacks", "processChild", "loadInsight", "fetchJson", "parseResponse", "useEffect",
        "runMicrotasks", "onSubmit", "validateForm", "reduceState", "selectorFamily"};
    private static final String[] ERRORS = {"TypeError", "ReferenceError", "RangeError", "SyntaxError", "Error",
        "ChunkLoadError", "AbortError", "NetworkError"};
    private static final String[] SOURCES = {"google", "newsletter", "twitter", "linkedin", "hackernews", "bing",
        "github", "reddit"};
    private static final String[] MEDIUMS = {"cpc", "email", "social", "organic", "referral", "display"};

    private LargePostHogEvents() {
    }

    /** The event with this id. */
    public static byte[] event(long id) {
        Random r = new Random(id * 0x2545F4914F6CDD1DL + 8191);
        StringBuilder b = new StringBuilder(10_000);
        long micros = 1_764_417_600_000_000L + id * 1_000 + r.nextInt(1_000);
        String event = PostHogEvents.envelope(b, r, micros);
        b.append(",\"properties\":");
        properties(b, r, event, id, micros);
        b.append(",\"person_properties\":");
        personProperties(b, r);
        b.append(",\"elements_chain\":\"");
        if (event.equals("$autocapture")) {
            elementsChain(b, r, 6 + r.nextInt(8));
        }
        b.append("\"}");
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void properties(StringBuilder b, Random r, String event, long id, long micros) {
        String host = HOSTS[r.nextInt(HOSTS.length)];
        String path = PATHS[r.nextInt(PATHS.length)];
        int country = r.nextInt(COUNTRIES.length);
        String os = OSES[r.nextInt(OSES.length)];
        b.append("{\"$os\":\"").append(os).append('"');
        b.append(",\"$os_version\":\"").append(10 + r.nextInt(8)).append('.').append(r.nextInt(10)).append('"');
        b.append(",\"$browser\":\"").append(BROWSERS[r.nextInt(BROWSERS.length)]).append('"');
        b.append(",\"$browser_version\":").append(100 + r.nextInt(30));
        b.append(",\"$device_type\":\"").append(DEVICES[r.nextInt(DEVICES.length)]).append('"');
        b.append(",\"$raw_user_agent\":\"").append(userAgent(r)).append('"');
        String url = url(r, host, path);
        b.append(",\"$current_url\":\"").append(url).append('"');
        b.append(",\"$host\":\"").append(host).append('"');
        b.append(",\"$pathname\":\"").append(path).append('"');
        b.append(",\"$referrer\":\"").append(r.nextBoolean() ? "$direct" : url(r, "www.google.com", "/search"))
                .append('"');
        b.append(",\"$referring_domain\":\"").append(r.nextBoolean() ? "$direct" : "www.google.com").append('"');
        b.append(",\"$screen_height\":").append(700 + r.nextInt(800));
        b.append(",\"$screen_width\":").append(1200 + r.nextInt(1400));
        b.append(",\"$viewport_height\":").append(600 + r.nextInt(700));
        b.append(",\"$viewport_width\":").append(1100 + r.nextInt(1300));
        b.append(",\"$lib\":\"web\",\"$lib_version\":\"1.").append(150 + r.nextInt(50)).append('.')
                .append(r.nextInt(10)).append('"');
        b.append(",\"$time\":").append(String.format(Locale.ROOT, "%.3f", micros / 1e6));
        b.append(",\"$sent_at\":\"").append(PostHogEvents.timestamp(micros + r.nextInt(500_000))).append('"');
        for (String key : new String[] {"$session_id", "$window_id", "$pageview_id", "$device_id"}) {
            b.append(",\"").append(key).append("\":\"").append(new UUID(r.nextLong(), r.nextLong())).append('"');
        }
        b.append(",\"$insert_id\":\"").append(Long.toString(r.nextLong() & Long.MAX_VALUE, 36)).append('"');
        b.append(",\"$geoip_country_code\":\"").append(COUNTRIES[country]).append('"');
        b.append(",\"$geoip_city_name\":\"").append(CITIES[country]).append('"');
        b.append(",\"$geoip_subdivision_1_name\":\"").append(CITIES[(country + 3) % CITIES.length]).append(" Region\"");
        b.append(",\"$geoip_postal_code\":\"").append(10_000 + r.nextInt(89_999)).append('"');
        b.append(",\"$geoip_time_zone\":\"Etc/GMT").append(r.nextInt(25) - 12).append('"');
        b.append(",\"$geoip_latitude\":").append(String.format(Locale.ROOT, "%.4f", r.nextDouble() * 180 - 90));
        b.append(",\"$geoip_longitude\":").append(String.format(Locale.ROOT, "%.4f", r.nextDouble() * 360 - 180));
        b.append(",\"$is_identified\":").append(r.nextBoolean());
        b.append(",\"$groups\":{\"organization\":\"").append(new UUID(0, r.nextInt(5_000)))
                .append("\",\"project\":\"").append(new UUID(1, r.nextInt(90_000))).append("\",\"instance\":\"https://")
                .append(host).append("\"}");
        b.append(",\"$set\":");
        personUpdate(b, r, os, false);
        b.append(",\"$set_once\":");
        personUpdate(b, r, os, true);
        featureFlags(b, r);
        switch (event) {
            case "$autocapture" -> {
                b.append(",\"$event_type\":\"click\",\"$ce_version\":1,\"$elements\":");
                elements(b, r, host);
            }
            case "$exception" -> exception(b, r, url);
            case "$web_vitals" -> {
                for (String v : new String[] {"LCP", "CLS", "FCP", "INP"}) {
                    b.append(",\"$web_vitals_").append(v).append("_value\":")
                            .append(String.format(Locale.ROOT, "%.3f", r.nextDouble() * (v.equals("CLS") ? 1 : 4000)));
                    b.append(",\"$web_vitals_").append(v).append("_event\":{\"name\":\"").append(v)
                            .append("\",\"value\":").append(String.format(Locale.ROOT, "%.3f", r.nextDouble() * 4000))
                            .append(",\"rating\":\"").append(r.nextBoolean() ? "good" : "needs-improvement")
                            .append("\",\"navigationType\":\"navigate\",\"id\":\"v3-").append(micros / 1000).append('-')
                            .append(r.nextLong() & 0xFFFFFFFFFFFFL).append("\",\"$current_url\":\"").append(url)
                            .append("\"}");
                }
            }
            default -> b.append(",\"$event_type\":\"view\"");
        }
        // 45–95 more keys an app sends of its own: flat values of every JSON kind.
        int extra = 45 + r.nextInt(51);
        for (int i = 0; i < extra; i++) {
            String word = WORDS[r.nextInt(WORDS.length)];
            b.append(",\"").append(word).append('_').append(WORDS[(i * 7) % WORDS.length]).append('_').append(i)
                    .append("\":");
            switch (r.nextInt(6)) {
                case 0 -> b.append(r.nextInt(100_000));
                case 1 -> b.append(String.format(Locale.ROOT, "%.4f", r.nextDouble() * 1000));
                case 2 -> b.append(r.nextBoolean());
                case 3 -> b.append(r.nextInt(4) == 0 ? "null" : "\"" + WORDS[r.nextInt(WORDS.length)] + "\"");
                default -> b.append('"').append(sentence(r, 3 + r.nextInt(8))).append('"');
            }
        }
        b.append('}');
    }

    private static void personUpdate(StringBuilder b, Random r, String os, boolean initial) {
        String prefix = initial ? "$initial_" : "$";
        String source = SOURCES[r.nextInt(SOURCES.length)];
        b.append("{\"").append(prefix).append("os\":\"").append(os).append('"');
        b.append(",\"").append(prefix).append("browser\":\"").append(BROWSERS[r.nextInt(BROWSERS.length)]).append('"');
        b.append(",\"").append(prefix).append("browser_version\":").append(100 + r.nextInt(30));
        b.append(",\"").append(prefix).append("device_type\":\"").append(DEVICES[r.nextInt(DEVICES.length)]).append('"');
        b.append(",\"").append(prefix).append("current_url\":\"")
                .append(url(r, HOSTS[r.nextInt(HOSTS.length)], PATHS[r.nextInt(PATHS.length)])).append('"');
        b.append(",\"").append(prefix).append("pathname\":\"").append(PATHS[r.nextInt(PATHS.length)]).append('"');
        b.append(",\"").append(prefix).append("referrer\":\"$direct\"");
        b.append(",\"").append(prefix).append("referring_domain\":\"$direct\"");
        b.append(",\"").append(prefix).append("utm_source\":\"").append(source).append('"');
        b.append(",\"").append(prefix).append("utm_medium\":\"").append(MEDIUMS[r.nextInt(MEDIUMS.length)]).append('"');
        b.append(",\"").append(prefix).append("utm_campaign\":\"").append(WORDS[r.nextInt(WORDS.length)]).append("-q")
                .append(1 + r.nextInt(4)).append('"');
        b.append(",\"").append(prefix).append("geoip_country_code\":\"").append(COUNTRIES[r.nextInt(COUNTRIES.length)])
                .append('"');
        b.append(",\"").append(prefix).append("geoip_city_name\":\"").append(CITIES[r.nextInt(CITIES.length)])
                .append('"');
        if (!initial) {
            b.append(",\"email\":\"user").append(r.nextInt(20_000)).append("@example.com\"");
            b.append(",\"name\":\"").append(sentence(r, 2)).append('"');
            b.append(",\"plan\":\"").append(PLANS[r.nextInt(PLANS.length)]).append('"');
        }
        b.append('}');
    }

    private static void featureFlags(StringBuilder b, Random r) {
        int n = 8 + r.nextInt(23);
        int start = r.nextInt(WORDS.length);
        b.append(",\"$active_feature_flags\":[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "\"" : ",\"").append(flag(start, i)).append('"');
        }
        b.append(']');
        for (int i = 0; i < n; i++) {
            b.append(",\"$feature/").append(flag(start, i)).append("\":");
            int kind = r.nextInt(4);
            b.append(kind == 0 ? "\"control\"" : kind == 1 ? "\"test\"" : Boolean.toString(kind == 2));
        }
    }

    private static String flag(int start, int i) {
        return WORDS[(start + i) % WORDS.length] + "-" + WORDS[(start + 3 * i + 1) % WORDS.length] + "-v" + (1 + i % 3);
    }

    private static void elements(StringBuilder b, Random r, String host) {
        int n = 5 + r.nextInt(8);
        b.append('[');
        for (int i = 0; i < n; i++) {
            String tag = TAGS[r.nextInt(TAGS.length)];
            b.append(i == 0 ? "{" : ",{").append("\"tag_name\":\"").append(tag).append('"');
            b.append(",\"classes\":[\"").append(CLASSES[r.nextInt(CLASSES.length)]).append("\",\"")
                    .append(CLASSES[r.nextInt(CLASSES.length)]).append("\"]");
            b.append(",\"attr__class\":\"").append(CLASSES[r.nextInt(CLASSES.length)]).append(' ')
                    .append(CLASSES[r.nextInt(CLASSES.length)]).append('"');
            if (tag.equals("a")) {
                b.append(",\"attr__href\":\"https://").append(host).append(PATHS[r.nextInt(PATHS.length)]).append('"');
            }
            b.append(",\"attr__data-attr\":\"").append(WORDS[r.nextInt(WORDS.length)]).append("-button\"");
            if (r.nextBoolean()) {
                b.append(",\"$el_text\":\"").append(sentence(r, 1 + r.nextInt(5))).append('"');
            }
            b.append(",\"nth_child\":").append(1 + r.nextInt(6)).append(",\"nth_of_type\":").append(1 + r.nextInt(3))
                    .append(",\"order\":").append(i).append('}');
        }
        b.append(']');
    }

    private static void exception(StringBuilder b, Random r, String url) {
        String type = ERRORS[r.nextInt(ERRORS.length)];
        String message = "Cannot read properties of undefined (reading \\\"" + WORDS[r.nextInt(WORDS.length)] + "\\\")";
        b.append(",\"$exception_type\":\"").append(type).append("\",\"$exception_message\":\"").append(message)
                .append("\",\"$exception_level\":\"error\",\"$exception_source\":\"").append(url)
                .append("\",\"$exception_list\":[{\"type\":\"").append(type).append("\",\"value\":\"").append(message)
                .append("\",\"mechanism\":{\"handled\":").append(r.nextBoolean())
                .append(",\"type\":\"onerror\"},\"stacktrace\":{\"type\":\"raw\",\"frames\":[");
        int frames = 8 + r.nextInt(20);
        for (int i = 0; i < frames; i++) {
            b.append(i == 0 ? "{" : ",{").append("\"function\":\"").append(FRAMES[r.nextInt(FRAMES.length)])
                    .append("\",\"filename\":\"https://").append(HOSTS[r.nextInt(HOSTS.length)])
                    .append("/static/chunk-").append(Long.toString(r.nextLong() & 0xFFFFFFFFFFL, 36))
                    .append(".js\",\"lineno\":").append(1 + r.nextInt(9000)).append(",\"colno\":")
                    .append(1 + r.nextInt(200)).append(",\"in_app\":").append(r.nextInt(3) > 0).append('}');
        }
        b.append("]}}]");
    }

    private static void personProperties(StringBuilder b, Random r) {
        int user = r.nextInt(20_000);
        b.append("{\"email\":\"user").append(user).append("@example.com\"");
        b.append(",\"name\":\"").append(sentence(r, 2)).append('"');
        b.append(",\"plan\":\"").append(PLANS[r.nextInt(PLANS.length)]).append('"');
        b.append(",\"projects\":").append(r.nextInt(12));
        b.append(",\"is_staff\":").append(r.nextInt(20) == 0);
        b.append(",\"joined_at\":\"").append(PostHogEvents.timestamp(1_700_000_000_000_000L
                + (long) (r.nextDouble() * 6e13))).append('"');
        b.append(",\"$initial_utm_source\":\"").append(SOURCES[r.nextInt(SOURCES.length)]).append('"');
        b.append(",\"$initial_os\":\"").append(OSES[r.nextInt(OSES.length)]).append('"');
        b.append(",\"company\":{\"name\":\"Company ").append(user % 700).append("\",\"seats\":")
                .append(1 + r.nextInt(500)).append(",\"country\":\"").append(COUNTRIES[r.nextInt(COUNTRIES.length)])
                .append("\",\"industry\":\"").append(WORDS[r.nextInt(WORDS.length)]).append("\"}");
        int n = 5 + r.nextInt(16);
        for (int i = 0; i < n; i++) {
            b.append(",\"").append(WORDS[(user + i) % WORDS.length]).append("_count\":").append(r.nextInt(1000));
        }
        b.append('}');
    }

    private static void elementsChain(StringBuilder b, Random r, int depth) {
        for (int i = 0; i < depth; i++) {
            if (i > 0) {
                b.append(';');
            }
            b.append(TAGS[r.nextInt(TAGS.length)]).append('.').append(CLASSES[r.nextInt(CLASSES.length)]).append('.')
                    .append(CLASSES[r.nextInt(CLASSES.length)])
                    .append(":attr__data-attr=\\\"").append(WORDS[r.nextInt(WORDS.length)])
                    .append("\\\"nth-child=\\\"").append(1 + r.nextInt(6)).append("\\\"nth-of-type=\\\"")
                    .append(1 + r.nextInt(3)).append("\\\"");
        }
    }

    private static String url(Random r, String host, String path) {
        return "https://" + host + path + "?utm_source=" + SOURCES[r.nextInt(SOURCES.length)] + "&utm_medium="
                + MEDIUMS[r.nextInt(MEDIUMS.length)] + "&utm_campaign=" + WORDS[r.nextInt(WORDS.length)] + "-q"
                + (1 + r.nextInt(4)) + "&ref=" + Long.toString(r.nextLong() & 0xFFFFFFFFFFL, 36);
    }

    private static String userAgent(Random r) {
        return String.format(Locale.ROOT, UA_TEMPLATES[r.nextInt(UA_TEMPLATES.length)], 100 + r.nextInt(30),
                r.nextInt(7000), r.nextInt(200));
    }

    private static String sentence(Random r, int words) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < words; i++) {
            s.append(i == 0 ? "" : " ").append(WORDS[r.nextInt(WORDS.length)]);
        }
        return s.toString();
    }
}
