package httplab.helidon;

import httplab.server.DatabaseSettings;
import httplab.server.Hello;
import httplab.server.QueryCount;
import httplab.server.World;
import io.helidon.dbclient.DbClientException;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * GET /db (one row, an object) and /queries?n=N (N rows, an array): the statements run on
 * the request's own virtual thread, and the rows are sent as /json's message is, through
 * Helidon's Jackson media support. worlds is null without a database (503); list:
 * /queries' array rather than /db's object.
 */
record DatabaseHandler(Worlds worlds, boolean list) implements Handler {
    private static final Logger LOG = System.getLogger(DatabaseHandler.class.getName());
    private static final byte[] NOT_CONFIGURED = DatabaseSettings.NOT_CONFIGURED.getBytes(StandardCharsets.UTF_8);

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        if (worlds == null) {
            Routes.sendText(req, res.status(Status.SERVICE_UNAVAILABLE_503), NOT_CONFIGURED);
            return;
        }
        int count = list ? QueryCount.parse(req.query().first(QueryCount.PARAMETER).orElse(null)) : 1;
        List<World> rows;
        try {
            rows = worlds.randomWorlds(count);
        } catch (DbClientException e) {
            // HikariCP logs nothing of a connection that times out: say why the answer is 500.
            LOG.log(Level.WARNING, "{0} failed: {1}", list ? Hello.QUERIES_PATH : Hello.DB_PATH, e.getMessage());
            res.status(Status.INTERNAL_SERVER_ERROR_500).send();
            return;
        }
        JsonHandler.send(req, res, list ? rows : rows.get(0));
    }
}
