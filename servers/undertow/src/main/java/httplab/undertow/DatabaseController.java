package httplab.undertow;

import httplab.server.DatabaseSettings;
import httplab.server.Hello;
import httplab.server.QueryCount;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * GET /db and /queries?n=N: plain Spring MVC handlers that query on their own XNIO worker
 * thread (WorldQueries); Jackson writes the row or the list of rows
 * (https://docs.spring.io/spring-framework/reference/web/webmvc/mvc-controller/ann-methods/responsebody.html).
 * Without a database (no JdbcTemplate bean, see DatabaseProperties) both answer 503.
 */
@RestController
public class DatabaseController {
    private final WorldQueries world;

    public DatabaseController(ObjectProvider<JdbcTemplate> jdbc) {
        JdbcTemplate template = jdbc.getIfAvailable();
        this.world = template == null ? null : new WorldQueries(template);
    }

    @GetMapping(Hello.DB_PATH)
    public ResponseEntity<?> db() {
        if (world == null) {
            return notConfigured();
        }
        return json(world.randomRow());
    }

    @GetMapping(Hello.QUERIES_PATH)
    public ResponseEntity<?> queries(@RequestParam MultiValueMap<String, String> parameters) {
        if (world == null) {
            return notConfigured();
        }
        // The first n, as the other servers read it; a String parameter would join all of them.
        return json(world.randomRows(QueryCount.parse(parameters.getFirst(QueryCount.PARAMETER))));
    }

    private static ResponseEntity<?> json(Object body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

    private static ResponseEntity<?> notConfigured() {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .contentType(MediaType.parseMediaType(Hello.CONTENT_TYPE))
                .body(DatabaseSettings.NOT_CONFIGURED);
    }
}
