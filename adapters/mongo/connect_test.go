package mongo_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	mongodrv "go.mongodb.org/mongo-driver/v2/mongo"
	"go.uber.org/fx"

	"github.com/quarrydata/quarry/adapters/mongo"
	"github.com/quarrydata/quarry/ports"
)

func TestConnectNeverEchoesCredentials(t *testing.T) {
	cases := []struct {
		name, uri, says string
	}{
		{"unreachable host", "mongodb://quarry:s3cret@127.0.0.1:1/?serverSelectionTimeoutMS=200", "127.0.0.1:1"},
		{"bad escape in password", "mongodb://quarry:s3%zzcret@127.0.0.1:1/", "withheld"},
		{"bad option with password", "mongodb://127.0.0.1:1/?tlsCertificateKeyFilePassword=s3cret&tlsInsecure=maybe", "withheld"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_, err := mongo.Connect(ctx, c.uri)
			if !errors.Is(err, ports.ErrUnavailable) {
				t.Fatalf("Connect = %v, want ErrUnavailable", err)
			}
			if strings.Contains(err.Error(), "s3") || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("Connect error %q: must not quote the password, must say %q", err, c.says)
			}
		})
	}
}

func TestConnectExplainsURIWithoutCredentials(t *testing.T) {
	_, err := mongo.Connect(context.Background(), "mongodb://127.0.0.1:1/?maxPoolSize=many")
	if !errors.Is(err, ports.ErrUnavailable) || !strings.Contains(err.Error(), "maxPoolSize") {
		t.Fatalf("Connect = %v, want ErrUnavailable naming the bad option", err)
	}
}

func TestModuleProvidesTheDatabase(t *testing.T) {
	err := fx.ValidateApp(
		fx.NopLogger,
		fx.Supply(mongo.Config{URI: "mongodb://127.0.0.1:1", Database: "quarry"}),
		mongo.Module,
		fx.Invoke(func(*mongodrv.Client, *mongodrv.Database) {}),
	)
	if err != nil {
		t.Fatal(err)
	}
}
