package http

import (
	"context"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"
)

// ProfileConfig says where the profiler listens; an empty Addr turns it off.
type ProfileConfig struct {
	Addr string
}

// RunProfiler serves net/http/pprof on its own listener, apart from the API,
// so that no route of the API can reach it. It is opt-in, and the bootstrap
// package allows it on a loopback address only: a profile shows the
// program's internals and costs CPU while it runs.
var RunProfiler = fx.Invoke(runProfiler)

func runProfiler(lc fx.Lifecycle, cfg ProfileConfig, log *zap.Logger) {
	if cfg.Addr == "" {
		return
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	// A CPU profile or trace runs for as long as it was asked to, so the
	// write timeout leaves room for the longest one anyone would take.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: 10 * time.Minute}
	listenApart(lc, "profiler", cfg.Addr, srv, log)
}

// listenApart serves srv on a listener of its own at addr, opened when the
// application starts (a port in use stops the start) and shut down with it.
func listenApart(lc fx.Lifecycle, name, addr string, srv *http.Server, log *zap.Logger) {
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			log.Info(name+" listening", zap.String("addr", ln.Addr().String()))
			go serve(srv, ln, log)
			return nil
		},
		OnStop: func(ctx context.Context) error { return srv.Shutdown(ctx) },
	})
}
