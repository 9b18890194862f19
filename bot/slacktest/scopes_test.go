package slacktest

import (
	"os"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestAuthTestScopesHeader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts []Option
		want []string
	}{
		{"default", nil, DefaultScopes()},
		{"configured", []Option{WithScopes("chat:write", "commands")}, []string{"chat:write", "commands"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t, tc.opts...)
			res, err := botAPI(s).AuthTestContext(testContext(t))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Split(res.Header.Get("X-OAuth-Scopes"), ",")
			if !slices.Equal(got, tc.want) || res.UserID != s.BotUserID() {
				t.Errorf("X-OAuth-Scopes = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDefaultScopesCoverManifest keeps DefaultScopes a superset of the app
// manifest's bot scopes, so that a bot tested against the fake has every
// scope it will have on Slack.
func TestDefaultScopesCoverManifest(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../deploy/slack-app-manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var manifest struct {
		OAuth struct {
			Scopes struct {
				Bot []string `yaml:"bot"`
			} `yaml:"scopes"`
		} `yaml:"oauth_config"`
	}
	if err := yaml.Unmarshal(raw, &manifest); err != nil {
		t.Fatal(err)
	}
	if len(manifest.OAuth.Scopes.Bot) == 0 {
		t.Fatal("the manifest declares no bot scopes")
	}
	for _, sc := range manifest.OAuth.Scopes.Bot {
		if !slices.Contains(DefaultScopes(), sc) {
			t.Errorf("the manifest's scope %s is not in DefaultScopes", sc)
		}
	}
}

func TestUserGroupMembers(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	s.AddUserGroup("S0DOCS", "U0ALICE", "U0BOB")
	api := botAPI(s)
	got, err := api.GetUserGroupMembersContext(testContext(t), "S0DOCS")
	if err != nil || !slices.Equal(got, []string{"U0ALICE", "U0BOB"}) {
		t.Errorf("members = %v, %v", got, err)
	}
	if _, err := api.GetUserGroupMembersContext(testContext(t), "S0NOPE"); slackErr(err) != "no_such_subteam" {
		t.Errorf("unknown group: %v, want no_such_subteam", err)
	}
	noRead := newTestServer(t, WithScopes("chat:write"))
	noRead.AddUserGroup("S0DOCS", "U0ALICE")
	if _, err := botAPI(noRead).GetUserGroupMembersContext(testContext(t), "S0DOCS"); slackErr(err) != "missing_scope" {
		t.Errorf("without usergroups:read: %v, want missing_scope", err)
	}
}
