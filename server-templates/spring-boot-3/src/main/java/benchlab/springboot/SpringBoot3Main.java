// Benchlab's Spring Boot 3.5 template: reads the command line Benchlab renders from template.json, turns
// it into Spring Boot properties (no application.properties: the whole configuration is here), and starts
// the Spring Boot template's servlet controllers (profile "sync" or "async") on the container the knob
// names. All three containers are in the jar and Spring Boot would pick Tomcat first, so the chosen
// container's factory is registered as the application's one ServletWebServerFactory; Spring Boot's own
// customizers still apply the server.* properties to it.

package benchlab.springboot;

import benchlab.common.Options;
import benchlab.common.Payload;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.boot.web.embedded.jetty.JettyServletWebServerFactory;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.embedded.undertow.UndertowServletWebServerFactory;
import org.springframework.boot.web.servlet.server.ServletWebServerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

@SpringBootApplication
public class SpringBoot3Main {
    public static void main(String[] args) {
        Options options = Options.parse("benchlab-spring-boot-3", args, "--port", "--variant", "--container", "--threads",
                "--cache-file", "--payload");
        int port = options.number("--port", 1, 65535);
        String variant = options.choice("--variant", "sync", "async");
        String container = options.choice("--container", "tomcat", "jetty", "undertow");
        int threads = options.number("--threads", 1, 10_000);
        Payload payload = options.payload();

        Map<String, Object> properties = new HashMap<>();
        ServletProperties.put(properties, port, threads);
        // Undertow: its worker threads run the requests; its I/O threads stay Undertow's own (one per core).
        properties.put("server.undertow.threads.worker", threads);

        SpringApplication application = new SpringApplication(SpringBoot3Main.class);
        application.setWebApplicationType(WebApplicationType.SERVLET);
        application.setDefaultProperties(properties);
        application.setAdditionalProfiles(variant);
        application.addInitializers(context -> {
            context.getBeanFactory().registerSingleton("payload", payload);
            // A bean definition, not a ready singleton: Spring Boot's customizers (port, threads) are bean
            // post-processors, and they see only beans the context creates itself.
            ((GenericApplicationContext) context).registerBean("servletWebServerFactory", ServletWebServerFactory.class, () -> factoryFor(container));
        });
        ConfigurableApplicationContext context = application.run();

        int listening = ((WebServerApplicationContext) context).getWebServer().getPort();
        System.out.printf("spring-boot %s on Java %s: listening on port %d (variant %s, %s %s, threads %d, %s, no database)%n",
                SpringBootVersion.getVersion(), Runtime.version(), listening, variant, container, versionOf(container),
                threads, payload.describe());
    }

    private static ServletWebServerFactory factoryFor(String container) {
        return switch (container) {
            case "jetty" -> JettyPool.factory();
            case "undertow" -> new UndertowServletWebServerFactory();
            default -> new TomcatServletWebServerFactory();
        };
    }

    /** The container's own version, so the log says what actually served. */
    private static String versionOf(String container) {
        return switch (container) {
            case "jetty" -> org.eclipse.jetty.util.Jetty.VERSION;
            case "undertow" -> String.valueOf(io.undertow.Version.getVersionString());
            default -> org.apache.catalina.util.ServerInfo.getServerNumber();
        };
    }
}
