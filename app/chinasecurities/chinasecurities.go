package chinasecurities

import (
	"context"
	"errors"
	"fmt"

	"github.com/quarrydata/quarry/app/usecase"

	"github.com/quarrydata/quarry/domain/ashare"
	"github.com/quarrydata/quarry/domain/dataset"
	"github.com/quarrydata/quarry/ports"
)

// China serves the China A-share datasets.
type Service struct {
	securities ports.SecurityStore
}

// NewChina wires the China use cases.
func New(s ports.SecurityStore) *Service { return &Service{securities: s} }

// ParseCode validates a requested code, wrapping a bad one as
// ErrValidation; a vendor form (600519.SH) or digits that name one
// listing's code is refused naming that code (usecase.RefuseCode).
func ParseCode(raw string) (ashare.Code, error) {
	c, err := ashare.ParseCode(raw)
	if err != nil {
		return ashare.Code{}, usecase.RefuseCode(raw, err)
	}
	return c, nil
}

// Security returns the listing with that code, or ports.ErrNotFound.
func (c *Service) Security(ctx context.Context, code ashare.Code) (ashare.Security, error) {
	sec, err := c.securities.Security(ctx, code.String())
	if errors.Is(err, ports.ErrNotFound) {
		return ashare.Security{}, fmt.Errorf("%w: no A-share listing has code %s", ports.ErrNotFound, code)
	}
	return sec, err
}

// Probe reports whether any listing is held.
func (c *Service) Probe() usecase.DatasetProbe {
	return usecase.DatasetProbe{Dataset: dataset.ChinaSecurities, Probe: func(ctx context.Context) (bool, error) {
		n, err := c.securities.CountSecurities(ctx)
		return n > 0, err
	}}
}

// SecuritiesByName returns the listed securities whose name matches name.
func (c *Service) SecuritiesByName(ctx context.Context, name string) ([]ashare.Security, error) {
	return c.securities.SecuritiesByName(ctx, name)
}
