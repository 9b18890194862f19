package slackweb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Client calls a page's JSON API, GET /api/state and the POST endpoints, as
// the page's script does: for tests and tools that use the page without a browser.
type Client struct {
	// URL is the page's address, such as "http://localhost:3000".
	URL string
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
	// As is the person the calls act for, as the page's switcher chooses
	// them (sent in ActingHeader); "" is the page's default person.
	As string
}

// State fetches the workspace as the page shows it.
func (c Client) State(ctx context.Context) (State, error) {
	var st State
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.endpoint("/api/state"), nil)
	if err != nil {
		return st, fmt.Errorf("slackweb: state request: %w", err)
	}
	c.acting(req)
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
	return c.post(ctx, "/api/send", r)
}

// Act uses an element of a message or view (POST /api/action), as a click
// on the page does.
func (c Client) Act(ctx context.Context, r ActionRequest) (SendResponse, int, error) {
	return c.post(ctx, "/api/action", r)
}

// Shortcut runs a message shortcut from a message's menu (POST /api/shortcut).
func (c Client) Shortcut(ctx context.Context, r ShortcutRequest) (SendResponse, int, error) {
	return c.post(ctx, "/api/shortcut", r)
}

// SubmitView submits an open modal (POST /api/view/submit).
func (c Client) SubmitView(ctx context.Context, r ViewRequest) (SendResponse, int, error) {
	return c.post(ctx, "/api/view/submit", r)
}

// CloseView closes an open modal with its close button (POST /api/view/close).
func (c Client) CloseView(ctx context.Context, viewID string) (SendResponse, int, error) {
	return c.post(ctx, "/api/view/close", ViewRequest{ViewID: viewID})
}

// OpenHome opens the app's Home tab (POST /api/home).
func (c Client) OpenHome(ctx context.Context) (SendResponse, int, error) {
	return c.post(ctx, "/api/home", struct{}{})
}

// OpenDM opens the app's Messages tab (POST /api/dm); the answer's Channel
// is the direct message.
func (c Client) OpenDM(ctx context.Context) (SendResponse, int, error) {
	return c.post(ctx, "/api/dm", struct{}{})
}

// OpenAssistant opens the assistant pane looking at channel (POST
// /api/assistant); the answer's Channel and TS are its thread.
func (c Client) OpenAssistant(ctx context.Context, channel string) (SendResponse, int, error) {
	return c.post(ctx, "/api/assistant", AssistantRequest{Context: channel})
}

// post sends v as JSON to path and decodes the page's answer.
func (c Client) post(ctx context.Context, path string, v any) (SendResponse, int, error) {
	var out SendResponse
	body, err := json.Marshal(v)
	if err != nil {
		return out, 0, fmt.Errorf("slackweb: %s request: %w", path, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint(path), bytes.NewReader(body))
	if err != nil {
		return out, 0, fmt.Errorf("slackweb: %s request: %w", path, err)
	}
	req.Header.Set("Content-Type", "application/json")
	c.acting(req)
	resp, err := c.http().Do(req)
	if err != nil {
		return out, 0, fmt.Errorf("slackweb: POST %s: %w", path, err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return out, resp.StatusCode, fmt.Errorf("slackweb: POST %s: %s: %w", path, resp.Status, err)
	}
	return out, resp.StatusCode, nil
}

// acting names the person req acts for, if not the default.
func (c Client) acting(req *http.Request) {
	if c.As != "" {
		req.Header.Set(ActingHeader, c.As)
	}
}

func (c Client) endpoint(path string) string { return strings.TrimSuffix(c.URL, "/") + path }

func (c Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}
