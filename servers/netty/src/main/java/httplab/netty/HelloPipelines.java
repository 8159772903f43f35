package httplab.netty;

import httplab.server.ServerConfig;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.ssl.SslContext;

/**
 * Each connection's pipeline for PROTOCOL. h1: HttpServerCodec, HelloHandler and the handlers
 * that block (BlockingExecutor). h1-tls: the same behind the SslHandler. h2c: HTTP/2 with prior
 * knowledge, Http2FrameCodec and Http2MultiplexHandler at the start of the pipeline, so the
 * connection must open with the client preface. h2: the SslHandler, then ALPN's answer picks
 * HTTP/2 or HTTP/1.1 (AlpnPipeline). Under HTTP/2 each stream is a child channel whose
 * Http2StreamFrameToHttpObjectCodec turns its frames into the HTTP/1 objects the same handlers
 * answer, as Netty's HTTP/2 examples and the codec's javadoc show
 * (https://netty.io/4.2/api/io/netty/handler/codec/http2/Http2StreamFrameToHttpObjectCodec.html).
 */
final class HelloPipelines extends ChannelInitializer<SocketChannel> {
    private final String protocol;
    private final SslContext tls;
    private final BlockingExecutor blocking;
    private final DatabaseHandler database;
    private final BlockingHandler sleeper;

    HelloPipelines(String protocol, SslContext tls, BlockingExecutor blocking, DatabaseHandler database,
                   BlockingHandler sleeper) {
        this.protocol = protocol;
        this.tls = tls;
        this.blocking = blocking;
        this.database = database;
        this.sleeper = sleeper;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        ChannelPipeline pipeline = channel.pipeline();
        switch (protocol) {
            case ServerConfig.H1 -> addHttp1(pipeline);
            case ServerConfig.H1_TLS -> {
                pipeline.addLast(tls.newHandler(channel.alloc()));
                addHttp1(pipeline);
            }
            case ServerConfig.H2C -> addHttp2(pipeline);
            case ServerConfig.H2 -> pipeline.addLast(tls.newHandler(channel.alloc()), new AlpnPipeline(this));
            default -> throw new IllegalStateException("no pipeline for PROTOCOL=" + protocol);
        }
    }

    /** HTTP/1.1: the lab's h1 pipeline. */
    void addHttp1(ChannelPipeline pipeline) {
        pipeline.addLast(new HttpServerCodec(), HelloHandler.INSTANCE);
        blocking.addHandlers(pipeline, database, sleeper);
    }

    /** HTTP/2: the connection's frame codec, and a child channel per stream (answerStreams). */
    void addHttp2(ChannelPipeline pipeline) {
        pipeline.addLast(Http2FrameCodecBuilder.forServer().build(), new Http2MultiplexHandler(answerStreams()));
    }

    private ChannelInitializer<Channel> answerStreams() {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel stream) {
                ChannelPipeline pipeline = stream.pipeline();
                pipeline.addLast(new Http2StreamFrameToHttpObjectCodec(true), new HeadResponses(),
                        HelloHandler.INSTANCE);
                blocking.addHandlers(pipeline, database, sleeper);
            }
        };
    }
}
