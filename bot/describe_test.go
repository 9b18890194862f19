package bot

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/docsbot/docsbot/docsapi"
)

func TestDescribeSaysWhatToDo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want []string
	}{
		{"rate limited", &docsapi.APIError{StatusCode: 429, RetryAfter: 3 * time.Minute}, []string{"rate limit", "in about 3 minutes", "UTC"}},
		{"unauthorized", &docsapi.APIError{StatusCode: 401, Message: "bad key"}, []string{"DOCS_API_KEY"}},
		{"server", &docsapi.APIError{StatusCode: 502}, []string{"answered 502 Bad Gateway", "Try again"}},
		{"invalid, escaped", &docsapi.APIError{StatusCode: 400, Message: "<!channel> is not allowed"}, []string{"&lt;!channel&gt; is not allowed"}},
		{"validation", &docsapi.ValidationError{Field: "prompt", Problem: "must not be empty"}, []string{"prompt", "must not be empty"}},
		{"unknown outcome", docsapi.ErrOutcomeUnknown, []string{"cannot tell whether", "dashboard"}},
		{"unknown outcome of a 500", fmt.Errorf("create: %w", errors.Join(docsapi.ErrOutcomeUnknown, &docsapi.APIError{StatusCode: 500})), []string{"cannot tell whether", "the docs API answered 500 Internal Server Error"}},
		{"unknown outcome of a timeout", errors.Join(docsapi.ErrOutcomeUnknown, context.DeadlineExceeded), []string{"cannot tell whether", "did not answer in time"}},
		{"own error", &Error{Message: "plain words"}, []string{"plain words"}},
		{"docs API unreachable", &docsapi.TransportError{Method: "GET", Path: "/x", Err: &net.OpError{Op: "dial", Err: errors.New("refused")}}, []string{"could not reach the docs API"}},
		{"other network failure", &url.Error{Op: "Post", URL: "https://slack.example", Err: &net.OpError{Op: "dial", Err: errors.New("refused")}}, []string{"could not reach Slack or the docs API"}},
	}
	for _, tt := range tests {
		got := Describe(tt.err)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tt.name, got, w)
			}
		}
		if strings.Contains(got, "<!channel>") {
			t.Errorf("%s: unescaped markup in %q", tt.name, got)
		}
	}
}
