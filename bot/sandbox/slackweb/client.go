package slackweb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Client calls a page's JSON API, GET /api/state and POST /api/send, as the
// page's script does: for tests and tools that use the page without a browser.
type Client struct {
	// URL is the page's address, such as "http://localhost:3000".
	URL string
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
}

// State fetches the workspace as the page shows it.
func (c Client) State(ctx context.Context) (State, error) {
	var st State
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.endpoint("/api/state"), nil)
	if err != nil {
		return st, fmt.Errorf("slackweb: state request: %w", err)
	}
	resp, err := c.http().Do(req)
	if err != nil {
		return st, fmt.Errorf("slackweb: GET /api/state: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("slackweb: GET /api/state: %s", resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return st, fmt.Errorf("slackweb: GET /api/state: %w", err)
	}
	return st, nil
}

// Send types a line, as the page's message box does, and returns the page's
// answer with its HTTP status. A line the page refuses is not an error: the
// answer says why (OK false, Error and Message); err is for a request that
// got no answer.
func (c Client) Send(ctx context.Context, r SendRequest) (SendResponse, int, error) {
	var out SendResponse
	body, err := json.Marshal(r)
	if err != nil {
		return out, 0, fmt.Errorf("slackweb: send request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint("/api/send"), bytes.NewReader(body))
	if err != nil {
		return out, 0, fmt.Errorf("slackweb: send request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http().Do(req)
	if err != nil {
		return out, 0, fmt.Errorf("slackweb: POST /api/send: %w", err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return out, resp.StatusCode, fmt.Errorf("slackweb: POST /api/send: %s: %w", resp.Status, err)
	}
	return out, resp.StatusCode, nil
}

func (c Client) endpoint(path string) string { return strings.TrimSuffix(c.URL, "/") + path }

func (c Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}
