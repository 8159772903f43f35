package httplab.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;

/**
 * h2: once the TLS handshake is done, ALPN's answer sets up the pipeline, as Netty's HTTP/2
 * server examples do: HTTP/2 for "h2", HTTP/1.1 for "http/1.1" or a client that offered
 * neither (https://netty.io/4.2/api/io/netty/handler/ssl/ApplicationProtocolNegotiationHandler.html).
 */
final class AlpnPipeline extends ApplicationProtocolNegotiationHandler {
    private final HelloPipelines pipelines;

    AlpnPipeline(HelloPipelines pipelines) {
        super(ApplicationProtocolNames.HTTP_1_1);
        this.pipelines = pipelines;
    }

    @Override
    protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
        if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
            pipelines.addHttp2(ctx.pipeline());
        } else if (ApplicationProtocolNames.HTTP_1_1.equals(protocol)) {
            pipelines.addHttp1(ctx.pipeline());
        } else {
            throw new IllegalStateException("ALPN chose a protocol this server does not offer: " + protocol);
        }
    }
}
