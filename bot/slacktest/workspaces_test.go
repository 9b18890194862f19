package slacktest

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/slack-go/slack"
)

func TestWorkspaceTokensReachTheirWorkspace(t *testing.T) {
	t.Parallel()
	s := acmeServer(t)
	ctx := testContext(t)
	primary := botAPI(s)
	if _, _, err := slack.New("xoxb-not-yet", slack.OptionAPIURL(s.APIURL)).PostMessageContext(ctx, "C0ACME", slack.MsgOptionText("x", false)); slackErr(err) != "invalid_auth" {
		t.Fatalf("before any install: %v, want invalid_auth", err)
	}
	acme := slack.New(installApp(t, s, "T0ACME", "U0ANNA").AccessToken, slack.OptionAPIURL(s.APIURL))
	s.AddChannel(Channel{ID: "C0SHARED", Name: "partners", BotMember: true, Members: []string{"U0ALICE", "U0ANNA"}})
	s.AddChannel(Channel{ID: "C0VENDORS", Name: "vendors", Team: "T0ACME", Members: []string{"U0ANNA", "U0ALICE"}})

	who, err := acme.AuthTestContext(ctx)
	if err != nil || who.TeamID != "T0ACME" || who.Team != "Acme" || who.UserID != "U0BOTACME" || who.BotID != "B0BOTT0ACME" ||
		who.URL != "https://t0acme.slack.com/" || who.EnterpriseID != "" {
		t.Fatalf("auth.test with Acme's token = %+v, %v", who, err)
	}
	posts := []struct {
		name    string
		api     *slack.Client
		channel string
		wantErr string
	}{
		{"Acme's token in Acme", acme, "C0ACME", ""},
		{"Acme's token by name", acme, "#general", ""},
		{"Acme's token in the primary's channel", acme, "C0GENERAL", "channel_not_found"},
		{"primary's token in Acme", primary, "C0ACME", "channel_not_found"},
		{"Acme's token to its person's DM", acme, "U0ANNA", ""},
		{"Acme's token to a person of the primary", acme, "U0BOB", "channel_not_found"},
	}
	for _, tt := range posts {
		_, ts, err := tt.api.PostMessageContext(ctx, tt.channel, slack.MsgOptionText(tt.name, false))
		if got := slackErr(err); got != tt.wantErr {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		var m Message
		for _, ch := range s.Channels() {
			if got, ok := s.Message(ch.ID, ts); ok && got.Text == tt.name {
				m = got
			}
		}
		if m.User != "U0BOTACME" || m.BotID != "B0BOTT0ACME" {
			t.Errorf("%s: posted by %s/%s, want Acme's bot", tt.name, m.User, m.BotID)
		}
	}
	for _, c := range s.Calls("chat.postMessage") {
		want, ok := map[string]string{"x": "", "primary's token in Acme": "T0TEST"}[c.Params["text"]]
		if !ok {
			want = "T0ACME"
		}
		if c.Team != want {
			t.Errorf("call %q: Team %q, want %q", c.Params["text"], c.Team, want)
		}
		// The workspace of the channel named: the primary's, Acme's, or
		// none known (a name, a person's id).
		named := map[string]string{"Acme's token in the primary's channel": "T0TEST", "Acme's token by name": "",
			"Acme's token to its person's DM": "", "Acme's token to a person of the primary": ""}
		wantNamed, ok := named[c.Params["text"]]
		if !ok {
			wantNamed = "T0ACME"
		}
		if c.NamedTeam != wantNamed {
			t.Errorf("call %q: NamedTeam %q, want %q", c.Params["text"], c.NamedTeam, wantNamed)
		}
	}

	people := []struct {
		name, user, wantErr, wantTeam string
		api                           *slack.Client
	}{
		{"Acme's person to Acme", "U0ANNA", "", "T0ACME", acme},
		{"Acme's bot to Acme", "U0BOTACME", "", "T0ACME", acme},
		{"the primary's person to Acme", "U0BOB", "user_not_found", "", acme},
		{"the primary's person in a channel of Acme's", "U0ALICE", "", "T0TEST", acme},
		{"Acme's person sharing a channel with the primary", "U0ANNA", "", "T0ACME", primary},
		{"the primary's person to the primary", "U0BOB", "", "T0TEST", primary},
	}
	for _, tt := range people {
		u, err := tt.api.GetUserInfoContext(ctx, tt.user)
		if got := slackErr(err); got != tt.wantErr || (err == nil && u.TeamID != tt.wantTeam) {
			t.Errorf("users.info: %s: %q %+v, want %q team %s", tt.name, got, u, tt.wantErr, tt.wantTeam)
		}
	}
	s.AddMember("T0ACME", "U0ARNO", "arno")
	if _, err := primary.GetUserInfoContext(ctx, "U0ARNO"); slackErr(err) != "user_not_found" {
		t.Errorf("users.info of Acme's person sharing no channel with the primary: %v", err)
	}

	home := slack.HomeTabViewRequest{Type: slack.VTHomeTab, Blocks: slack.Blocks{BlockSet: []slack.Block{slack.NewDividerBlock()}}}
	views := []struct {
		name, user, wantErr string
		api                 *slack.Client
	}{
		{"Acme's Home for its person", "U0ANNA", "", acme},
		{"Acme's Home for the primary's person", "U0ALICE", "user_not_found", acme},
		{"the primary's Home for Acme's person", "U0ANNA", "user_not_found", primary},
	}
	for _, tt := range views {
		_, err := tt.api.PublishViewContext(ctx, slack.PublishViewContextRequest{UserID: tt.user, View: home})
		if got := slackErr(err); got != tt.wantErr {
			t.Errorf("views.publish: %s: %q, want %q", tt.name, got, tt.wantErr)
		}
	}
	if v, ok := s.HomeView("U0ANNA"); !ok || v.ID == "" {
		t.Error("no Home published for Acme's person")
	}
}

func TestWorkspaceEventsSayTheirWorkspace(t *testing.T) {
	t.Parallel()
	s := acmeServer(t)
	rec := envelopes(t, s)
	ctx := testContext(t)
	acme := slack.New(installApp(t, s, "T0ACME", "U0ANNA").AccessToken, slack.OptionAPIURL(s.APIURL))

	mention, err := s.Mention(ctx, UserMessage{ChannelID: "C0ACME", UserID: "U0ANNA", Text: "where are the docs?"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := acme.PostMessageContext(ctx, "C0ACME", slack.MsgOptionText("here", false), slack.MsgOptionTS(mention.TS)); err != nil {
		t.Fatal(err)
	}
	if err := s.React(ctx, "U0ANNA", "C0ACME", mention.TS, "eyes"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenHome(ctx, "U0ANNA"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SlashCommand(ctx, SlashCommand{Command: "/docs", Text: "help", UserID: "U0ANNA", ChannelID: "C0ACME"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Shortcut(ctx, Shortcut{UserID: "U0ANNA", CallbackID: "ask"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "C0GENERAL", UserID: "U0ALICE", Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	got := waitLen(t, rec, 8)
	type seen struct{ kind, team, authUser string }
	var saw []seen
	for _, p := range got {
		switch {
		case p.Event.Type != "":
			var auth string
			if len(p.Authorizations) > 0 {
				auth = p.Authorizations[0].UserID
			}
			saw = append(saw, seen{p.Event.Type + " " + p.Event.User, p.TeamID, auth})
			if p.Event.Type == "app_mention" && !strings.HasPrefix(p.Event.Text, "<@U0BOTACME> ") {
				t.Errorf("app_mention text %q, want Acme's bot's tag", p.Event.Text)
			}
		case p.Team.ID != "":
			saw = append(saw, seen{"interaction", p.Team.ID + " " + p.Team.Domain, ""})
		default:
			saw = append(saw, seen{"command", p.TeamID, ""})
		}
	}
	want := []seen{
		{"app_mention U0ANNA", "T0ACME", "U0BOTACME"},
		{"message U0ANNA", "T0ACME", "U0BOTACME"},
		{"message U0BOTACME", "T0ACME", "U0BOTACME"},
		{"reaction_added U0ANNA", "T0ACME", "U0BOTACME"},
		{"app_home_opened U0ANNA", "T0ACME", "U0BOTACME"},
		{"command", "T0ACME", ""},
		{"interaction", "T0ACME t0acme", ""},
		{"message U0ALICE", "T0TEST", "U0BOT"},
	}
	if !slices.Equal(saw, want) {
		t.Errorf("envelopes:\n got %v\nwant %v", saw, want)
	}
	for _, m := range s.Thread("C0ACME", mention.TS) {
		if m.User == "U0ANNA" && m.Text != "<@U0BOTACME> where are the docs?" {
			t.Errorf("stored mention %q", m.Text)
		}
	}
}

func TestOrgWideInstall(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, WithOAuth(testClientID, testClientSecret))
	rec := envelopes(t, s)
	ctx := testContext(t)
	for _, team := range []string{"T0EAST", "T0WEST"} {
		s.AddWorkspace(Workspace{Team: team, Enterprise: "E0GLOBEX", EnterpriseName: "Globex"})
		s.AddChannel(Channel{ID: "C" + team, Name: "general", BotMember: true, Team: team})
	}
	s.AddMember("T0EAST", "U0EMMA", "emma")
	s.AddMember("T0WEST", "U0WALT", "walt")
	s.InstallOrgWide(true)
	resp := installApp(t, s, "T0EAST", "U0EMMA")
	if resp.Team.ID != "" || resp.Enterprise.ID != "E0GLOBEX" || resp.Enterprise.Name != "Globex" || !resp.IsEnterpriseInstall {
		t.Fatalf("org-wide install = %+v", resp)
	}
	org := slack.New(resp.AccessToken, slack.OptionAPIURL(s.APIURL))
	tests := []struct {
		name, channel, teamID, wantErr, wantAuthor string
	}{
		{"east", "CT0EAST", "", "", "U0BOTT0EAST"},
		{"west, naming the team", "CT0WEST", "T0WEST", "", "U0BOTT0WEST"},
		{"west by channel only", "CT0WEST", "", "", "U0BOTT0WEST"},
		{"outside the enterprise", "C0GENERAL", "", "channel_not_found", ""},
	}
	for _, tt := range tests {
		out := rawCall(t, s, resp.AccessToken, "chat.postMessage", url.Values{"channel": {tt.channel}, "text": {tt.name}, "team_id": {tt.teamID}})
		if got, _ := out["error"].(string); got != tt.wantErr {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.wantErr)
			continue
		}
		if m, _ := s.Message(tt.channel, fmt.Sprint(out["ts"])); tt.wantErr == "" && m.User != tt.wantAuthor {
			t.Errorf("%s: author %s, want %s", tt.name, m.User, tt.wantAuthor)
		}
	}
	who, err := org.AuthTestContext(ctx)
	if err != nil || who.TeamID != "E0GLOBEX" || who.EnterpriseID != "E0GLOBEX" {
		t.Errorf("auth.test with the org token = %+v, %v", who, err)
	}
	west := rawCall(t, s, resp.AccessToken, "auth.test", url.Values{"team_id": {"T0WEST"}})
	if west["team_id"] != "T0WEST" || west["user_id"] != "U0BOTT0WEST" || west["is_enterprise_install"] != true {
		t.Errorf("auth.test with the org token and team_id = %v", west)
	}
	for _, c := range s.Calls("chat.postMessage") {
		if want := map[bool]string{true: "T0EAST", false: "T0WEST"}[c.Params["channel"] != "CT0WEST"]; c.Team != want {
			t.Errorf("call in %s: Team %q, want %q", c.Params["channel"], c.Team, want)
		}
	}
	installed := []struct {
		team string
		want bool
	}{{"E0GLOBEX", true}, {"T0EAST", true}, {"T0WEST", true}}
	for _, tt := range installed {
		if got := s.Installed(tt.team); got != tt.want {
			t.Errorf("Installed(%s) = %v", tt.team, got)
		}
	}
	if _, _, err := s.PostUserMessage(ctx, UserMessage{ChannelID: "CT0WEST", UserID: "U0WALT", Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	ev := payloadOfEvent(t, rec, "message", "U0WALT")
	if ev.TeamID != "T0WEST" || len(ev.Authorizations) != 1 || !ev.Authorizations[0].IsEnterpriseInstall ||
		ev.Authorizations[0].EnterpriseID != "E0GLOBEX" || ev.Authorizations[0].UserID != "U0BOTT0WEST" {
		t.Errorf("event in the west under the org install = %+v", ev)
	}
	s.Uninstall("E0GLOBEX")
	if s.Installed("T0WEST") || authTestErr(t, s, resp.AccessToken) != "token_revoked" {
		t.Errorf("after the org's uninstall: installed %v, token %q", s.Installed("T0WEST"), authTestErr(t, s, resp.AccessToken))
	}
}

// rawCall calls method with token and form, as a client that sends what
// slack-go does not (team_id): Slack's answer.
func rawCall(t *testing.T, s *Server, token, method string, form url.Values) map[string]any {
	t.Helper()
	return formCall(t, s, method, form, func(req *http.Request) { req.Header.Set("Authorization", "Bearer "+token) })
}
