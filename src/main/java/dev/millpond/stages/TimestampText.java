package dev.millpond.stages;

/**
 * The original's timestamptz wire form: a naive date-time, taken as UTC —
 * {@code YYYY-MM-DD}, optionally followed by a space or {@code T} and {@code HH:MM}, {@code HH:MM:SS}, or
 * {@code HH:MM:SS.f…} with 1 to 6 fractional digits. Refused (nulled by the coercer): any zone suffix ({@code Z},
 * {@code +02:00}), 7 or more fractional digits (would lose precision), epoch strings, out-of-range fields.
 * The spec names 0, 3 and 6 digits; 1–6 are all accepted because the original's Arrow parser accepts them and
 * only refuses past microsecond precision.
 */
final class TimestampText {
    /** Returned for text that is not an accepted timestamp; no accepted value (years 0000–9999) reaches it. */
    static final long INVALID = Long.MIN_VALUE;
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private TimestampText() {
    }

    /** Microseconds since the epoch, or {@link #INVALID}. */
    static long parseMicros(CharSequence s) {
        int n = s.length();
        if (n != 10 && n != 16 && (n < 19 || n == 20 || n > 26)) {
            return INVALID;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)
                || s.charAt(4) != '-' || s.charAt(7) != '-') {
            return INVALID;
        }
        long micros = daysFromCivil(year, month, day) * MICROS_PER_DAY;
        if (n == 10) {
            return micros;
        }
        char sep = s.charAt(10);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        if ((sep != ' ' && sep != 'T') || s.charAt(13) != ':' || hour < 0 || hour > 23 || minute < 0 || minute > 59) {
            return INVALID;
        }
        micros += (hour * 3600L + minute * 60L) * 1_000_000L;
        if (n == 16) {
            return micros;
        }
        int second = digits(s, 17, 2);
        if (s.charAt(16) != ':' || second < 0 || second > 59) {
            return INVALID;
        }
        micros += second * 1_000_000L;
        if (n == 19) {
            return micros;
        }
        if (s.charAt(19) != '.') {
            return INVALID;
        }
        int fractionDigits = n - 20;
        int fraction = digits(s, 20, fractionDigits);
        if (fraction < 0) {
            return INVALID;
        }
        for (int i = fractionDigits; i < 6; i++) {
            fraction *= 10;
        }
        return micros + fraction;
    }

    /** The value of {@code count} ASCII digits at {@code from}, or -1. */
    private static int digits(CharSequence s, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static int daysInMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
    static long daysFromCivil(int y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }
}
