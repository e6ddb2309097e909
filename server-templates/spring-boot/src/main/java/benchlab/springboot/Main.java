// Benchlab's Spring Boot template: reads the command line Benchlab renders from template.json and the
// database URL from BENCHLAB_DB_URL, turns them into Spring Boot properties (no application.properties:
// the whole configuration is here, in one place), and starts one application whose profiles pick the
// controllers — the variant ("sync", "async", "webflux") and "database" when a database is given.
// The embedded server is picked by leaving out the other servers' auto-configuration: all three are
// in the one jar.

package benchlab.springboot;

import benchlab.common.DatabaseUrl;
import benchlab.common.Options;
import benchlab.common.Payload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

@SpringBootApplication
public class Main {
    private static final String TOMCAT_SERVLET = "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration";
    private static final String JETTY_SERVLET = "org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration";
    private static final String TOMCAT_REACTIVE = "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration";
    private static final String JETTY_REACTIVE = "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration";
    private static final String JDBC = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration";
    private static final String R2DBC = "org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration";

    public static void main(String[] args) {
        Options options = Options.parse("benchlab-spring-boot", args, "--port", "--variant", "--container", "--threads",
                "--event-loops", "--cache-file", "--payload");
        int port = options.number("--port", 1, 65535);
        String variant = options.choice("--variant", "sync", "async", "webflux");
        String container = options.choice("--container", "tomcat", "jetty");
        int threads = options.number("--threads", 1, 10_000);
        int eventLoops = options.number("--event-loops", 0, 64);
        Payload payload = options.payload();
        DatabaseUrl database = DatabaseUrl.fromEnvironment(options);
        if (database != null) DatabaseProperties.checkReachable(database, options);
        boolean reactive = variant.equals("webflux");

        Map<String, Object> properties = new HashMap<>();
        ServletProperties.put(properties, port, threads);
        // Reactor Netty's event loops (its default: one per core, at least 4).
        if (reactive && eventLoops > 0) System.setProperty("reactor.netty.ioWorkerCount", String.valueOf(eventLoops));

        List<String> excluded = new ArrayList<>();
        // WebFlux runs on Reactor Netty; the servlet variants on the container the knob names.
        if (reactive) excluded.addAll(List.of(TOMCAT_REACTIVE, JETTY_REACTIVE));
        else excluded.add(container.equals("tomcat") ? JETTY_SERVLET : TOMCAT_SERVLET);
        if (database != null && reactive) DatabaseProperties.putR2dbc(database, properties);
        else excluded.add(R2DBC);
        if (database != null && !reactive) DatabaseProperties.putJdbc(database, properties);
        else excluded.add(JDBC);
        properties.put("spring.autoconfigure.exclude", String.join(",", excluded));

        SpringApplication application = new SpringApplication(Main.class);
        application.setWebApplicationType(reactive ? WebApplicationType.REACTIVE : WebApplicationType.SERVLET);
        application.setDefaultProperties(properties);
        application.setAdditionalProfiles(database != null ? new String[] {variant, "database"} : new String[] {variant});
        application.addInitializers(context -> context.getBeanFactory().registerSingleton("payload", payload));
        ConfigurableApplicationContext context = application.run();

        int listening = ((WebServerApplicationContext) context).getWebServer().getPort();
        System.out.printf("spring-boot %s on Java %s: listening on port %d (variant %s, %s, %s, %s)%n",
                SpringBootVersion.getVersion(), Runtime.version(), listening, variant,
                reactive ? Servers.netty(eventLoops) : Servers.servlet(container, threads), payload.describe(),
                database == null ? "no database" : DatabaseProperties.describe(database));
    }
}
