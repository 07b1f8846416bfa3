package quarrycontainer_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"

	"github.com/testcontainers/testcontainers-go"

	"github.com/quarrydata/quarry/quarrytest/quarrycontainer"
)

// Start the image `go tool task image` built, sign in and make a first
// request. In a test, testcontainers.CleanupContainer(t, c) right after Run
// terminates the container at cleanup. Where Ryuk's image cannot be pulled,
// set TESTCONTAINERS_RYUK_DISABLED=true and terminate containers yourself,
// as here.
func ExampleRun() {
	ctx := context.Background()
	c, err := quarrycontainer.Run(ctx, "quarry:dev", quarrycontainer.WithCredits(10))
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
	fmt.Println(res.Status, string(body))
}
