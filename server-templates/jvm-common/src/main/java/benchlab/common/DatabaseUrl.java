// Where a JVM template's database is: Benchlab's environment variable BENCHLAB_DB_URL, a
// postgresql://USER:PASS@HOST:PORT/NAME URL of the private PostgreSQL it started for this deployment,
// or "none" when the template was deployed with the knob database off. A malformed value fails the
// start with a message naming it (without the password), so a bad deploy is plain in the log.

package benchlab.common;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

public record DatabaseUrl(String host, int port, String name, String user, String password) {
    public static final String ENVIRONMENT_VARIABLE = "BENCHLAB_DB_URL";
    private static final int DEFAULT_PORT = 5432;

    /** The database of this deployment; null when there is none (unset, or "none"). */
    public static DatabaseUrl fromEnvironment(Options options) {
        String text = System.getenv(ENVIRONMENT_VARIABLE);
        if (text == null || text.isBlank() || text.equals("none")) return null;
        try {
            return parse(text);
        } catch (IllegalArgumentException error) {
            options.fail(ENVIRONMENT_VARIABLE + " " + error.getMessage());
            throw new IllegalStateException("unreachable: fail() exits", error);
        }
    }

    /** postgresql://USER:PASS@HOST:PORT/NAME (postgres:// too); user and password percent-decoded. */
    static DatabaseUrl parse(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException error) {
            throw new IllegalArgumentException("is not a URL: " + error.getReason());
        }
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equals("postgresql") || scheme.equals("postgres"))) {
            throw new IllegalArgumentException("must start with postgresql:// or be none");
        }
        String userInfo = uri.getRawUserInfo();
        String name = uri.getRawPath() == null ? "" : uri.getRawPath().replaceFirst("^/", "");
        if (uri.getHost() == null || userInfo == null || name.isEmpty()) {
            throw new IllegalArgumentException("must be postgresql://USER:PASS@HOST:PORT/NAME");
        }
        int colon = userInfo.indexOf(':');
        String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
        String password = colon < 0 ? "" : decode(userInfo.substring(colon + 1));
        return new DatabaseUrl(uri.getHost(), uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(), decode(name), user, password);
    }

    /** Percent-decoding only: in a URL's user info a "+" is a plus, not a space. */
    private static String decode(String raw) {
        return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The same database for a JDBC driver; user and password go beside it. */
    public String jdbcUrl() {
        return "jdbc:postgresql://" + host + ":" + port + "/" + name;
    }

    /** For the start line and errors: everything but the password (toString too, so no log shows it). */
    public String describe() {
        return "postgresql://" + user + "@" + host + ":" + port + "/" + name;
    }

    @Override
    public String toString() {
        return describe();
    }

    /** The connection pool's size, one per server process: twice the cores, at most 32. */
    public static int poolSize() {
        return Math.min(2 * Runtime.getRuntime().availableProcessors(), 32);
    }
}
