// Package signin signs an account in to a Quarry server over HTTP and mints
// it an API key, for quarrytest and quarrycontainer alike.
package signin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Account is what a sign-in and a mint return.
type Account struct {
	SessionToken     string
	SessionExpiresAt time.Time
	APIKey           string
	KeyID            string
}

// Do signs email in with password on the server at base (which creates the
// account the first time) and mints a key named keyName.
func Do(ctx context.Context, client *http.Client, base, email, password, keyName string) (Account, error) {
	var a Account
	var login struct {
		SessionToken string    `json:"session_token"`
		ExpiresAt    time.Time `json:"expires_at"`
	}
	body, err := json.Marshal(map[string]string{"email": email, "password": password})
	if err != nil {
		return a, err
	}
	if err := call(ctx, client, "POST", base+"/account/login", "", body, http.StatusOK, &login); err != nil {
		return a, err
	}
	a.SessionToken, a.SessionExpiresAt = login.SessionToken, login.ExpiresAt
	var key struct {
		KeyID  string `json:"key_id"`
		APIKey string `json:"api_key"`
	}
	q := "?name=" + keyName
	if err := call(ctx, client, "POST", base+"/account/keys"+q, a.SessionToken, nil, http.StatusCreated, &key); err != nil {
		return a, err
	}
	a.APIKey, a.KeyID = key.APIKey, key.KeyID
	return a, nil
}

// call makes one request and decodes its JSON answer into out, or says
// what came back instead.
func call(ctx context.Context, client *http.Client, method, url, bearer string, body []byte, want int, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer res.Body.Close()
	var raw json.RawMessage
	if err := json.NewDecoder(res.Body).Decode(&raw); err != nil {
		return fmt.Errorf("%s %s: %s, body not JSON: %w", method, url, res.Status, err)
	}
	if res.StatusCode != want {
		return fmt.Errorf("%s %s: %s: %s", method, url, res.Status, raw)
	}
	return json.Unmarshal(raw, out)
}
