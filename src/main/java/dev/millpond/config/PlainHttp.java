package dev.millpond.config;

import java.net.URI;
import java.util.Locale;

/**
 * The one rule for plain {@code http://}: to this host (127.0.0.0/8, {@code localhost}, {@code [::1]}) it never
 * crosses a network; to any other host whatever it carries — a token, a catalog's answers — can be read and changed
 * on the way, so it is refused at startup unless the deployment says the network is trusted with the endpoint's own
 * {@code *_ALLOW_INSECURE_HTTP=true}.
 */
public final class PlainHttp {

    private PlainHttp() {
    }

    /** Whether {@code uri} is plain http to a host other than this one. */
    public static boolean leavesThisHostInClear(URI uri) {
        if (uri.getScheme() == null || !uri.getScheme().equalsIgnoreCase("http") || uri.getHost() == null) {
            return false;
        }
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        return !(host.equals("localhost") || host.equals("[::1]") || host.matches("127(\\.[0-9]{1,3}){3}"));
    }

    /**
     * @param subject       what the message starts with, naming the variable (e.g. {@code HOGLAKE_URL 'http://…'})
     * @param allowed       the value of {@code allowVariable}
     * @param allowVariable the variable that says the network is trusted
     * @throws ConfigException when {@code uri} is plain http to another host and that is not allowed
     */
    public static void requireTlsUnlessLoopback(URI uri, String subject, boolean allowed, String allowVariable) {
        if (!allowed && leavesThisHostInClear(uri)) {
            throw new ConfigException(subject + " is plain http to another host: use https://, or set "
                    + allowVariable + "=true if the network to it is trusted");
        }
    }

    /** {@code uri} as text with its user info (which may hold a password or token) masked. */
    public static String withoutUserInfo(URI uri) {
        String text = uri.toString();
        return uri.getRawUserInfo() == null ? text : text.replace(uri.getRawUserInfo() + "@", "***@");
    }
}
