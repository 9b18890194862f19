package roles_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/roles"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// slackChecker is a Checker reading user groups with the real slack-go
// client from the fake Slack s.
func slackChecker(s *slacktest.Server) *roles.Checker {
	client := slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL))
	return roles.NewChecker(roles.MembersFunc(func(ctx context.Context, group string) ([]string, error) {
		return client.GetUserGroupMembersContext(ctx, group)
	}))
}

func TestCheckWithSlack(t *testing.T) {
	t.Parallel()
	s := slacktest.NewServer()
	t.Cleanup(s.Close)
	s.AddUserGroup("S0DOCS", "U0ALICE", "U0BOB")
	c := slackChecker(s)
	docs := editors(t, "S0DOCS")
	if v := c.Check(t.Context(), "U0BOB", docs); !v.Editor {
		t.Fatalf("U0BOB of S0DOCS refused: %q (%v)", v.Refusal, v.Err)
	}
	if v := c.Check(t.Context(), "U0MALLORY", docs); v.Editor || v.Err != nil || !strings.Contains(v.Refusal, "<!subteam^S0DOCS>") {
		t.Fatalf("U0MALLORY: editor %t, err %v, refusal %q", v.Editor, v.Err, v.Refusal)
	}
	// A group Slack does not know: the person hears that docsbot could not check.
	v := c.Check(t.Context(), "U0ALICE", editors(t, "S0GONE"))
	var se slack.SlackErrorResponse
	if v.Editor || !errors.As(v.Err, &se) || se.Err != "no_such_subteam" || !strings.Contains(v.Refusal, "could not check") {
		t.Fatalf("unknown group: editor %t, err %v, refusal %q", v.Editor, v.Err, v.Refusal)
	}
}

func TestCheckWithoutTheScope(t *testing.T) {
	t.Parallel()
	s := slacktest.NewServer(slacktest.WithScopes("chat:write", "commands"))
	t.Cleanup(s.Close)
	s.AddUserGroup("S0DOCS", "U0ALICE")
	v := slackChecker(s).Check(t.Context(), "U0ALICE", editors(t, "S0DOCS"))
	var se slack.SlackErrorResponse
	if v.Editor || !errors.As(v.Err, &se) || se.Err != "missing_scope" || !strings.Contains(v.Refusal, "could not check") {
		t.Fatalf("without usergroups:read: editor %t, err %v, refusal %q", v.Editor, v.Err, v.Refusal)
	}
}
