// The Spring Boot properties every servlet deployment of the Spring Boot templates shares (this one
// on Spring Boot 4, spring-boot-3 on 3.5, which compiles this folder's sources): the address, a quiet
// log, the contract's keep-alive and timeouts, and the request threads on Tomcat and Jetty. Plain
// property names, nothing version-specific, so both entry points call it.

package benchlab.springboot;

import java.util.Map;

final class ServletProperties {
    /** Jetty's one pool also holds its acceptor and selector: they come on top of the request threads. */
    static final int JETTY_ACCEPTORS = 1, JETTY_SELECTORS = 1;

    private ServletProperties() {}

    static void put(Map<String, Object> properties, int port, int threads) {
        properties.put("server.port", port);
        properties.put("server.address", "0.0.0.0");
        // Quiet: no banner, no start-up report; warnings and errors only.
        properties.put("spring.main.banner-mode", "off");
        properties.put("spring.main.log-startup-info", false);
        properties.put("logging.level.root", "WARN");
        // A 404 or 405 is an answer of the contract, not a warning worth a log line per request.
        properties.put("logging.level.org.springframework.web", "ERROR");
        // Every path the contract does not name answers 404; no static resources are looked up for it.
        properties.put("spring.web.resources.add-mappings", false);
        // Within the template's 10 s stop grace, even with a long /sleep in progress.
        properties.put("spring.lifecycle.timeout-per-shutdown-phase", "5s");
        // Past the longest /sleep (60 s): the container's own async timeout (30 s) would cut it.
        properties.put("spring.mvc.async.request-timeout", "120s");
        // The contract keeps connections alive without a request limit (Tomcat closes after 100 by default).
        properties.put("server.tomcat.max-keep-alive-requests", -1);
        properties.put("server.tomcat.threads.max", threads);
        properties.put("server.tomcat.threads.min-spare", Math.min(10, threads));
        int jettyPool = threads + JETTY_ACCEPTORS + JETTY_SELECTORS;
        properties.put("server.jetty.threads.acceptors", JETTY_ACCEPTORS);
        properties.put("server.jetty.threads.selectors", JETTY_SELECTORS);
        properties.put("server.jetty.threads.max", jettyPool);
        properties.put("server.jetty.threads.min", Math.min(8, jettyPool));
    }
}
