package httplab.tomcat;

import httplab.server.Hello;
import httplab.server.QueryCount;
import httplab.server.World;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * GET /db and /queries?n=N: plain handlers that query on the request's own Tomcat thread
 * through Spring's JdbcTemplate, queryForObject with a RowMapper and a bind variable, one
 * statement per row (https://docs.spring.io/spring-framework/reference/data-access/jdbc/core.html);
 * Jackson writes the row or the list. Without a database (no JdbcTemplate bean, see
 * DatabaseProperties) both answer 503.
 */
@RestController
public class DatabaseEndpoints {
    private static final RowMapper<World> WORLD = (row, number) -> new World(row.getInt(1), row.getInt(2));

    private final JdbcTemplate jdbc;

    public DatabaseEndpoints(ObjectProvider<JdbcTemplate> jdbc) {
        this.jdbc = jdbc.getIfAvailable();
    }

    @GetMapping(Hello.DB_PATH)
    public ResponseEntity<?> db() {
        return jdbc == null ? Answers.noDatabase() : Answers.json(randomRow());
    }

    @GetMapping(Hello.QUERIES_PATH)
    public ResponseEntity<?> queries(@RequestParam MultiValueMap<String, String> parameters) {
        if (jdbc == null) {
            return Answers.noDatabase();
        }
        // The first n, as the other servers read it (a String parameter would join them all).
        int count = QueryCount.parse(parameters.getFirst(QueryCount.PARAMETER));
        List<World> rows = Stream.generate(this::randomRow).limit(count).toList();
        return Answers.json(rows);
    }

    private World randomRow() {
        return jdbc.queryForObject(World.SELECT_JDBC, WORLD, World.randomId());
    }
}
