package quarrycontainer_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"os/exec"
	"testing"

	"github.com/testcontainers/testcontainers-go"

	"github.com/quarrydata/quarry/quarrytest/quarrycontainer"
)

// image is the Quarry image the example runs: $QUARRY_IMAGE, else the
// quarry:dev that `go tool task image` builds.
var image = "quarry:dev"

// TestMain makes sure the image exists before the example runs, building
// it as `go tool task image` does when it is missing (the test task has
// built it already): an example cannot skip, so without Docker at all the
// package's example is not run, and says so.
func TestMain(m *testing.M) {
	if v := os.Getenv("QUARRY_IMAGE"); v != "" {
		image = v
	}
	if exec.Command("docker", "info").Run() != nil {
		fmt.Println("quarrycontainer: no Docker engine; ExampleRun not run")
		os.Exit(0)
	}
	if exec.Command("docker", "image", "inspect", image).Run() != nil {
		build := exec.Command("bash", "../../scripts/images/quarry.sh")
		build.Env = append(os.Environ(), "QUARRY_IMAGE="+image)
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "build %s: %v\n%s", image, err, out)
			os.Exit(1)
		}
	}
	// The example terminates its container itself, so testcontainers'
	// reaper (an image of its own, which may not be at hand) is not needed.
	if os.Getenv("TESTCONTAINERS_RYUK_DISABLED") == "" {
		_ = os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	}
	// Inside a container testcontainers guesses the engine's host is the
	// default gateway; where the engine is local its ports are on loopback.
	if os.Getenv("TESTCONTAINERS_HOST_OVERRIDE") == "" && os.Getenv("DOCKER_HOST") == "" {
		_ = os.Setenv("TESTCONTAINERS_HOST_OVERRIDE", "localhost")
	}
	os.Exit(m.Run())
}

// Start the Quarry image, sign in and make a first request. From another
// module: go get github.com/quarrydata/quarry/quarrytest/quarrycontainer.
// In a test, testcontainers.CleanupContainer(t, c) right after Run
// terminates the container at cleanup; here it is terminated by hand.
func ExampleRun() {
	ctx := context.Background()
	c, err := quarrycontainer.Run(ctx, image, quarrycontainer.WithCredits(10))
	defer func() { _ = testcontainers.TerminateContainer(c) }()
	if err != nil {
		log.Fatal(err)
	}
	acct, err := c.SignIn(ctx, "you@example.com", "a long passphrase")
	if err != nil {
		log.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, "GET", c.URL+"/china/securities/SSE.600519", nil)
	if err != nil {
		log.Fatal(err)
	}
	req.Header.Set("X-API-KEY", acct.APIKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	fmt.Println(res.Status, "credits left:", res.Header.Get("X-Credits-Remaining"))
	fmt.Println(string(body))
	// Output:
	// 200 OK credits left: 9
	// {"security":{"code":"SSE.600519","exchange":"SSE","board":"main","company_name":"贵州茅台","listing_date":"2001-08-27","delisting_date":null,"listed":true}}
}
