package dev.millpond.vocabulary;

/**
 * The uuid wire form (spec, "The uuid wire form"): exactly these shapes are accepted, hex case-insensitive —
 * <ul>
 *   <li>canonical {@code 8-4-4-4-12} hyphenated,</li>
 *   <li>32 hex digits without hyphens,</li>
 *   <li>either of those wrapped in {@code {…}},</li>
 *   <li>either of those prefixed with the lower-case {@code urn:uuid:}.</li>
 * </ul>
 * Everything else is refused, including shapes {@code java.util.UUID} or Python's {@code uuid.UUID} would remap
 * (hyphens at other offsets, {@code 0x}, underscores, upper-case {@code URN:UUID:}). Version and variant bits are
 * not checked: the destination treats a UUID as an opaque 128-bit value.
 *
 * <p>Hand-written rather than regex-based because it runs once per value on the hot path (target ≤ 1 µs).
 * {@link #REGEX} states the same grammar for code that checks it outside Java (the DuckLake sink, in SQL); one
 * table of cases in the tests holds both to it.
 */
public final class UuidText {
    private static final String HEX_BODY =
            "(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9a-fA-F]{32})";
    /** The accepted shapes as a regular expression (RE2 and java.util.regex syntax), to be matched in full. */
    public static final String REGEX = "(?:urn:uuid:)?" + HEX_BODY + "|\\{" + HEX_BODY + "\\}";

    private static final String URN = "urn:uuid:";
    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] NIBBLE = new byte[128];

    static {
        java.util.Arrays.fill(NIBBLE, (byte) -1);
        for (int i = 0; i < 10; i++) {
            NIBBLE['0' + i] = (byte) i;
        }
        for (int i = 0; i < 6; i++) {
            NIBBLE['a' + i] = (byte) (10 + i);
            NIBBLE['A' + i] = (byte) (10 + i);
        }
    }

    private UuidText() {
    }

    /** The two big-endian halves of a parsed UUID. */
    public record Bits(long high, long low) {
        /** Canonical lower-case hyphenated text, the form metrics and logs use. */
        public String canonical() {
            return UuidText.canonical(high, low);
        }
    }

    /** Parse {@code text}; null when it is not one of the accepted shapes. */
    public static Bits parse(CharSequence text) {
        long[] out = new long[2];
        return parseInto(text, out) ? new Bits(out[0], out[1]) : null;
    }

    /** Parse into {@code out[0]} (high) and {@code out[1]} (low); false when refused. No allocation. */
    public static boolean parseInto(CharSequence s, long[] out) {
        int start = 0;
        int end = s.length();
        if (end > 0 && s.charAt(0) == '{') {
            if (s.charAt(end - 1) != '}') {
                return false;
            }
            start = 1;
            end--;
        } else if (end > URN.length() && s.charAt(0) == 'u' && startsWithUrn(s)) {
            start = URN.length();
        }
        int len = end - start;
        long a;
        long b;
        long c;
        long d;
        long e;
        if (len == 32) {
            a = hex(s, start, 8);
            b = hex(s, start + 8, 8);
            c = hex(s, start + 16, 8);
            d = hex(s, start + 24, 8);
            if ((a | b | c | d) < 0) {
                return false;
            }
            out[0] = a << 32 | b;
            out[1] = c << 32 | d;
            return true;
        }
        if (len == 36) {
            // 8-4-4-4-12: hyphens only at the canonical offsets.
            if (s.charAt(start + 8) != '-' || s.charAt(start + 13) != '-' || s.charAt(start + 18) != '-'
                    || s.charAt(start + 23) != '-') {
                return false;
            }
            a = hex(s, start, 8);
            b = hex(s, start + 9, 4);
            c = hex(s, start + 14, 4);
            d = hex(s, start + 19, 4);
            e = hex(s, start + 24, 12);
            if ((a | b | c | d | e) < 0) {
                return false;
            }
            out[0] = a << 32 | b << 16 | c;
            out[1] = d << 48 | e;
            return true;
        }
        return false;
    }

    private static boolean startsWithUrn(CharSequence s) {
        for (int i = 0; i < URN.length(); i++) {
            if (s.charAt(i) != URN.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The value of {@code digits} (at most 15) hex digits from {@code from}, or -1 if any is not hex. */
    private static long hex(CharSequence s, int from, int digits) {
        long v = 0;
        for (int i = from; i < from + digits; i++) {
            char ch = s.charAt(i);
            int n = ch < 128 ? NIBBLE[ch] : -1;
            if (n < 0) {
                return -1;
            }
            v = (v << 4) | n;
        }
        return v;
    }

    /** Canonical lower-case hyphenated text of the two halves. */
    public static String canonical(long high, long low) {
        byte[] b = new byte[36];
        put(b, 0, high >>> 32, 8);
        b[8] = '-';
        put(b, 9, high >>> 16, 4);
        b[13] = '-';
        put(b, 14, high, 4);
        b[18] = '-';
        put(b, 19, low >>> 48, 4);
        b[23] = '-';
        put(b, 24, low, 12);
        return new String(b, java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static void put(byte[] b, int at, long v, int digits) {
        for (int i = digits - 1; i >= 0; i--) {
            b[at + i] = HEX_DIGITS[(int) (v & 0xF)];
            v >>>= 4;
        }
    }
}
