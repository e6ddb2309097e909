// The embedded server's name and version for the start line in the server's log, so a session's log
// says what actually served (the knob says what was asked for).

package benchlab.springboot;

final class Servers {
    private Servers() {}

    static String servlet(String container, int threads) {
        String version = container.equals("tomcat")
                ? org.apache.catalina.util.ServerInfo.getServerNumber()
                : org.eclipse.jetty.util.Jetty.VERSION;
        return container + " " + version + ", threads " + threads;
    }

    static String netty(int eventLoops) {
        String version = reactor.netty.http.server.HttpServer.class.getPackage().getImplementationVersion();
        return "reactor-netty " + (version == null ? "(version unknown)" : version) + ", "
                + (eventLoops > 0 ? eventLoops + " event loops" : "default event loops");
    }
}
