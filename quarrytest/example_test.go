package quarrytest_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/quarrydata/quarry/client"
	"github.com/quarrydata/quarry/quarrytest"
)

// A client test against an in-process server, through the client generated
// from the OpenAPI document: a breaking change in the document breaks this
// example. In a test function, quarrytest.Start(t) does what New and Close
// do here and fails the test if the server cannot start.
func Example() {
	srv, err := quarrytest.New(quarrytest.WithCredits(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()

	c, err := client.NewClientWithResponses(srv.URL, client.WithRequestEditorFn(
		func(_ context.Context, req *http.Request) error {
			req.Header.Set("X-API-KEY", srv.APIKey)
			return nil
		}))
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	for range 3 {
		res, err := c.GetChinaSecurityWithResponse(ctx, "SSE.600519")
		switch {
		case err != nil:
			fmt.Println(err)
		case res.JSON200 != nil:
			fmt.Println(res.StatusCode(), res.JSON200.Security.CompanyName,
				"credits left:", res.HTTPResponse.Header.Get("X-Credits-Remaining"))
		case res.JSON402 != nil:
			fmt.Println(res.StatusCode(), res.JSON402.Error)
		}
	}
	// Output:
	// 200 贵州茅台 credits left: 1
	// 200 贵州茅台 credits left: 0
	// 402 insufficient_credits
}
