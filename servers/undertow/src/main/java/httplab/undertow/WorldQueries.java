package httplab.undertow;

import httplab.server.World;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * Random rows of the world table through Spring's JdbcTemplate, queryForObject with a
 * RowMapper and a bind variable
 * (https://docs.spring.io/spring-framework/reference/data-access/jdbc/core.html). It blocks
 * the calling thread, the handler's XNIO worker, until the row is back.
 */
final class WorldQueries {
    private static final RowMapper<World> WORLD = (row, rowNumber) -> new World(row.getInt(1), row.getInt(2));

    private final JdbcTemplate jdbc;

    WorldQueries(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    World randomRow() {
        return jdbc.queryForObject(World.SELECT_JDBC, WORLD, World.randomId());
    }

    /** count statements, one after another, each for its own random id. */
    List<World> randomRows(int count) {
        List<World> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            rows.add(randomRow());
        }
        return rows;
    }
}
