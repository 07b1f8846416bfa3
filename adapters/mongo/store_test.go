package mongo

import (
	"context"
	"errors"
	"fmt"
	"testing"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/quarrydata/quarry/ports"
)

func TestTranslate(t *testing.T) {
	duplicate := mongodrv.BulkWriteException{WriteErrors: []mongodrv.BulkWriteError{{WriteError: mongodrv.WriteError{Code: 11000}}}}
	cases := []struct {
		name string
		in   error
		want []error
	}{
		{"missing document", mongodrv.ErrNoDocuments, []error{ports.ErrNotFound}},
		{"duplicate key", duplicate, []error{ports.ErrConflict}},
		{"caller gave up", fmt.Errorf("server selection error: %w", context.Canceled), []error{ports.ErrUnavailable, context.Canceled}},
		{"anything else", mongodrv.CommandError{Code: 8000, Message: "boom"}, []error{ports.ErrUnavailable}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := translate("op", c.in)
			for _, want := range c.want {
				if !errors.Is(got, want) {
					t.Fatalf("translate(%v) = %v, want %v", c.in, got, want)
				}
			}
			var driverErr mongodrv.ServerError
			if errors.As(got, &driverErr) {
				t.Fatalf("translate(%v) lets a driver error through: %v", c.in, got)
			}
		})
	}
	if translate("op", nil) != nil {
		t.Fatal("translate(nil) != nil")
	}
}
