// Jetty's thread pool for the knob threads. Tomcat's maxThreads counts request threads only; Jetty's
// one pool also holds its acceptor and selector and keeps some threads reserved, and refuses to start
// unless one thread is left beyond the acceptor, the selector and the reserved ones. So the pool is
// threads + 1 acceptor + 1 selector (ServletProperties sets them), and the reserved threads — which
// run requests too — are Jetty's own number but fewer than `threads`, so that threads = 1 starts and
// serves one request at a time, as on Tomcat.

package benchlab.springboot;

import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

@Component
@Profile("!webflux")
class JettyThreads implements WebServerFactoryCustomizer<JettyServletWebServerFactory> {
    @Override
    public void customize(JettyServletWebServerFactory factory) {
        factory.addServerCustomizers((JettyServerCustomizer) server -> {
            if (!(server.getThreadPool() instanceof QueuedThreadPool pool)) return;
            int requestThreads = pool.getMaxThreads() - ServletProperties.JETTY_ACCEPTORS - ServletProperties.JETTY_SELECTORS;
            // Jetty's own choice when left unset: one per core, at most an eighth of the pool, at least one.
            int jettyDefault = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), pool.getMaxThreads() / 8));
            pool.setReservedThreads(Math.min(jettyDefault, requestThreads - 1));
        });
    }
}
