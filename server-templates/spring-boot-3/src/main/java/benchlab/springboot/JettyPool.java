// Jetty's thread pool for the knob threads, on Spring Boot 3.5's Jetty factory: as in the Spring Boot
// template, the pool is threads + 1 acceptor + 1 selector, and Jetty's reserved threads (which run
// requests too) stay below `threads`, so that threads = 1 starts and serves one request at a time.

package benchlab.springboot;

import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.springframework.boot.web.embedded.jetty.JettyServletWebServerFactory;

final class JettyPool {
    private JettyPool() {}

    static JettyServletWebServerFactory factory() {
        JettyServletWebServerFactory factory = new JettyServletWebServerFactory();
        factory.addServerCustomizers(server -> {
            if (!(server.getThreadPool() instanceof QueuedThreadPool pool)) return;
            int requestThreads = pool.getMaxThreads() - ServletProperties.JETTY_ACCEPTORS - ServletProperties.JETTY_SELECTORS;
            int jettyDefault = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), pool.getMaxThreads() / 8));
            pool.setReservedThreads(Math.min(jettyDefault, requestThreads - 1));
        });
        return factory;
    }
}
