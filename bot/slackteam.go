package bot

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
)

// orgTeam is a transport of the bot's Slack client (SlackOptions): a call
// made for a workspace of an Enterprise Grid organisation (the work's
// workspace names an enterprise: WorkspaceOf the request's context) names
// that workspace in team_id, which Slack needs from an org-wide install's
// token on some methods (the lists of a workspace's conversations, people
// and user groups) and ignores from a workspace's own token. Only form
// posts without a team_id are changed; every other request passes as it
// is.
type orgTeam struct{ next http.RoundTripper }

// maxTeamForm bounds the form orgTeam reads to add team_id: Slack's forms
// of those methods are a few hundred bytes.
const maxTeamForm = 1 << 20

func (t orgTeam) RoundTrip(req *http.Request) (*http.Response, error) {
	ws := WorkspaceOf(req.Context())
	if ws.Enterprise == "" || ws.Team == "" || req.Method != http.MethodPost || req.Body == nil || req.ContentLength > maxTeamForm {
		return t.next.RoundTrip(req)
	}
	if ctype, _, _ := mime.ParseMediaType(req.Header.Get("Content-Type")); ctype != "application/x-www-form-urlencoded" {
		return t.next.RoundTrip(req)
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, maxTeamForm))
	_ = req.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("reading a Slack request's form: %w", err)
	}
	form, err := url.ParseQuery(string(body))
	if err == nil && form.Get("team_id") == "" {
		form.Set("team_id", ws.Team)
		body = []byte(form.Encode())
	}
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return t.next.RoundTrip(out)
}
