package http

import (
	"context"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"github.com/quarrydata/quarry/app/platform"
)

// storeTimeout is the bound on a request's wait for a store.
func (s *Server) storeTimeout() time.Duration {
	if s.d.StoreTimeout == 0 {
		return platform.DefaultStoreTimeout
	}
	return time.Duration(s.d.StoreTimeout)
}

// bounded gives h's request a deadline of the store timeout. An account
// route does nothing but read and write the platform store, so a store that
// does not answer is refused with 503 within the bound instead of holding
// the client for as long as it is down.
func (s *Server) bounded(h httprouter.Handle) httprouter.Handle {
	return s.boundedBy(s.storeTimeout(), h)
}

// hashAllowance is what a sign-in's deadline adds to the store timeout:
// the password hash is work of the CPU, not a wait for a store, and on a
// loaded machine it alone can take seconds.
const hashAllowance = 10 * time.Second

// boundedHashing is bounded for a route that hashes a password.
func (s *Server) boundedHashing(h httprouter.Handle) httprouter.Handle {
	return s.boundedBy(s.storeTimeout()+hashAllowance, h)
}

// boundedBy gives h's request a deadline of d.
func (s *Server) boundedBy(d time.Duration, h httprouter.Handle) httprouter.Handle {
	return func(w http.ResponseWriter, r *http.Request, p httprouter.Params) {
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		h(w, r.WithContext(ctx), p)
	}
}
