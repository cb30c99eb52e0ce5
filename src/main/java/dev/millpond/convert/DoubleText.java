package dev.millpond.convert;

/** The text millpond writes for a double wherever a number becomes a string: the same shortest form as conversion. */
public final class DoubleText {
    private DoubleText() {
    }

    /** {@code 1.0}, {@code 1e+20}, {@code 1.5e-7}: the orjson/ryu shortest text of a finite double. */
    public static String of(double v) {
        return JsonText.formatDouble(v);
    }
}
