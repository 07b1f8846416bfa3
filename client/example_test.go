package client_test

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/quarrydata/quarry/client"
)

// A client for a server started by `go tool task run`, with the API key in
// $KEY going in the X-API-KEY header of every data request.
func ExampleNewClientWithResponses() {
	c, err := client.NewClientWithResponses("http://127.0.0.1:8080",
		client.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			req.Header.Set("X-API-KEY", os.Getenv("KEY"))
			return nil
		}))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := c.GetChinaSecurityWithResponse(context.Background(), "SSE.600519")
	if err != nil {
		fmt.Println(err)
		return
	}
	if res.JSON200 != nil {
		fmt.Println(res.JSON200.Security.CompanyName)
	}
}
