package http

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"
)

// Config holds the listener settings.
type Config struct {
	Addr string
	// Listener, when set, is served instead of a listener opened on Addr:
	// an embedding program (quarrytest) opens one on a free port first, to
	// know its address before the service starts.
	Listener net.Listener
}

// Module provides the Server; datasets contribute their handlers to the
// "handlers" group.
var Module = fx.Module("http", fx.Provide(NewServer))

// Run serves for the life of the application. It belongs last in the
// application's options: fx runs start hooks in the order they were
// registered, so everything else (sample data included) is ready before the
// listener opens.
var Run = fx.Invoke(run)

// writeTimeout bounds how long the server takes to write a response, from
// the end of its request's head; an MCP request ends before it (mcpDeadline).
const writeTimeout = 60 * time.Second

// shutdownGrace bounds how long in-flight requests may take to finish.
const shutdownGrace = 20 * time.Second

// run listens on start, so a taken port fails start-up, serves in a
// goroutine, and on stop lets in-flight requests finish.
func run(lc fx.Lifecycle, cfg Config, s *Server, log *zap.Logger) {
	srv := &http.Server{
		Addr: cfg.Addr, Handler: s,
		ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: writeTimeout, IdleTimeout: 120 * time.Second,
		MaxHeaderBytes: MaxHeaderBytes, ErrorLog: zap.NewStdLog(log),
		// Every request the server reads reaches the handler, "OPTIONS *"
		// too, so each takes its framing verdict in order.
		ConnContext: ConnContext, DisableGeneralOptionsHandler: true,
	}
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			ln := cfg.Listener
			if ln == nil {
				var err error
				if ln, err = net.Listen("tcp", cfg.Addr); err != nil {
					return err
				}
			}
			log.Info("listening", zap.String("addr", ln.Addr().String()))
			go serve(srv, JSONErrors(ln), log)
			return nil
		},
		OnStop: func(ctx context.Context) error {
			ctx, cancel := context.WithTimeout(ctx, shutdownGrace)
			defer cancel()
			err := srv.Shutdown(ctx)
			s.meter.Drain()
			return err
		},
	})
}

func serve(srv *http.Server, ln net.Listener, log *zap.Logger) {
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("serve", zap.Error(err))
	}
}
