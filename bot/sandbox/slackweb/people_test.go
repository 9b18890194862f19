package slackweb_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/bot/sandbox/slackweb"
	"github.com/docsbot/docsbot/bot/slacktest"
)

// The people of the tests of the page's switcher: Alice, a member; Gus, a
// guest; Pat, of another organisation, in the channel shared with it.
const (
	alice       = "U0ALICE"
	gus         = "U0GUS"
	pat         = "U0PAT"
	partnerTeam = "T0PARTNER"
	sharedID    = "C0PARTNER"
	patAbout    = "Partner Co, another organisation"
)

// newPeopleWorld is a world whose page can act as Alice, Gus and Pat; Gus
// is a guest of #general.
func newPeopleWorld(t *testing.T) *world {
	t.Helper()
	w := newWorld(t, slackweb.WithPeople(slackweb.Person{ID: alice}, slackweb.Person{ID: gus}, slackweb.Person{ID: pat, About: patAbout}),
		slackweb.WithCommands(slackweb.Command{Name: "/docs-agent"}))
	w.slack.AddGuest(gus, "gus", false)
	w.slack.AddChannel(slacktest.Channel{ID: "C0GENERAL", Name: "general", BotMember: true, Members: []string{alice, "U0BOB", gus}})
	w.slack.AddExternalUser(pat, "pat", partnerTeam)
	w.slack.AddChannel(slacktest.Channel{ID: sharedID, Name: "partner-shared", BotMember: true, Shared: true, Members: []string{alice, pat}})
	return w
}

func (w *world) clientAs(person string) slackweb.Client {
	return slackweb.Client{URL: w.page.URL, As: person}
}

// stateAs fetches GET /api/state acting as person.
func (w *world) stateAs(t *testing.T, person string) slackweb.State {
	t.Helper()
	st, err := w.clientAs(person).State(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func channelIDs(st slackweb.State) []string {
	var ids []string
	for _, c := range st.Channels {
		ids = append(ids, c.ID)
	}
	return ids
}

// TestPeopleState: the page's state is the acting person's: who they are
// among the people it can act as, the channels they are in (the shared one
// marked), their own ephemeral messages; the people's standing is shown.
func TestPeopleState(t *testing.T) {
	t.Parallel()
	w := newPeopleWorld(t)
	ctx := testContext(t)
	for _, user := range []string{alice, gus} {
		if _, err := w.api.PostEphemeralContext(ctx, "C0GENERAL", user, slack.MsgOptionText("only for "+user, false)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		as, wantMe string
		channels   []string
		ephemeral  string
	}{
		{"", alice, []string{"C0GENERAL", sharedID}, "only for " + alice},
		{alice, alice, []string{"C0GENERAL", sharedID}, "only for " + alice},
		{gus, gus, []string{"C0GENERAL"}, "only for " + gus},
		{pat, pat, []string{sharedID}, ""},
	}
	for _, tt := range tests {
		t.Run("as "+tt.wantMe+" "+tt.as, func(t *testing.T) {
			st := w.stateAs(t, tt.as)
			if st.Me != tt.wantMe {
				t.Errorf("me = %q, want %q", st.Me, tt.wantMe)
			}
			if got := channelIDs(st); !slices.Equal(got, tt.channels) {
				t.Errorf("channels %v, want %v", got, tt.channels)
			}
			for _, c := range st.Channels {
				if c.Shared != (c.ID == sharedID) {
					t.Errorf("channel %s shared = %v", c.ID, c.Shared)
				}
			}
			var eph []string
			for _, m := range st.Ephemerals {
				eph = append(eph, m.Text)
			}
			if want := []string{tt.ephemeral}; (tt.ephemeral == "" && len(eph) != 0) || (tt.ephemeral != "" && !slices.Equal(eph, want)) {
				t.Errorf("ephemerals %q, want %q", eph, tt.ephemeral)
			}
		})
	}

	st := w.state(t)
	want := []slackweb.PersonView{{ID: alice, Name: "alice", About: "member"}, {ID: gus, Name: "gus", About: "guest"}, {ID: pat, Name: "pat", About: patAbout}}
	if !slices.Equal(st.People, want) {
		t.Errorf("people %+v, want %+v", st.People, want)
	}
	standing := map[string][2]string{}
	for _, u := range st.Users {
		standing[u.ID] = [2]string{u.Guest, u.Team}
	}
	if standing[gus] != [2]string{"multi", ""} || standing[pat] != [2]string{"", partnerTeam} || standing[alice] != [2]string{} {
		t.Errorf("users' standing %v", standing)
	}

	// The event stream is the person's its URL names.
	first := firstEvent(t, w.page.URL+"/api/events?"+url.Values{slackweb.ActingParam: {pat}}.Encode())
	if first.Me != pat || !slices.Equal(channelIDs(first), []string{sharedID}) {
		t.Errorf("the stream as pat: me %q, channels %v", first.Me, channelIDs(first))
	}
}

// TestPeopleActing: what the page does, it does as the person chosen: a
// command, a message, the Home tab, the DM, a modal; a person acts only
// where they are.
func TestPeopleActing(t *testing.T) {
	t.Parallel()
	w := newPeopleWorld(t)
	c := w.connect(t)
	ctx := testContext(t)

	out, status, err := w.clientAs(gus).Send(ctx, slackweb.SendRequest{Channel: "C0GENERAL", Text: "/docs-agent add a page"})
	if err != nil || status != http.StatusOK || !out.Command {
		t.Fatalf("the command as gus: %d %+v %v", status, out, err)
	}
	e := c.waitEvent(t, "gus's command", func(e socketmode.Event) bool { return e.Request.EnvelopeID == out.EnvelopeID })
	cmd, _ := e.Data.(slack.SlashCommand)
	if cmd.UserID != gus || cmd.Text != "add a page" {
		t.Errorf("the bot got the command %+v, want gus's", cmd)
	}

	// The command's trigger opens a modal for gus: his, not alice's.
	if _, err := w.api.OpenViewContext(ctx, cmd.TriggerID, slack.ModalViewRequest{Type: slack.VTModal,
		Title: slack.NewTextBlockObject(slack.PlainTextType, "Job", false, false)}); err != nil {
		t.Fatal(err)
	}
	modals := w.stateAs(t, gus).Modals
	if len(modals) != 1 || len(w.state(t).Modals) != 0 {
		t.Fatalf("gus's modals %+v, alice's %+v", modals, w.state(t).Modals)
	}
	if out, status, _ := w.clientAs(alice).CloseView(ctx, modals[0].ID); status != http.StatusNotFound || out.Error != "view_not_found" {
		t.Errorf("alice closing gus's modal: %d %+v, want view_not_found", status, out)
	}
	if out, status, err := w.clientAs(gus).CloseView(ctx, modals[0].ID); err != nil || !out.OK {
		t.Errorf("gus closing his modal: %d %+v %v", status, out, err)
	}

	out, status, err = w.clientAs(pat).Send(ctx, slackweb.SendRequest{Channel: sharedID, Text: "hello from Partner Co"})
	if err != nil || !out.OK {
		t.Fatalf("pat's message: %d %+v %v", status, out, err)
	}
	c.waitEvent(t, "pat's message", func(e socketmode.Event) bool {
		ev, ok := e.Data.(slackevents.EventsAPIEvent)
		m, _ := ev.InnerEvent.Data.(*slackevents.MessageEvent)
		return ok && m != nil && m.TimeStamp == out.TS && m.User == pat
	})
	if out, status, _ := w.clientAs(pat).Send(ctx, slackweb.SendRequest{Channel: "C0GENERAL", Text: "hi"}); status != http.StatusNotFound || out.Error != "channel_not_found" {
		t.Errorf("pat in #general, where he is not: %d %+v, want channel_not_found", status, out)
	}

	if out, status, err := w.clientAs(gus).OpenHome(ctx); err != nil || !out.OK {
		t.Fatalf("gus's Home: %d %+v %v", status, out, err)
	}
	c.waitEvent(t, "gus's app_home_opened", func(e socketmode.Event) bool {
		ev, ok := e.Data.(slackevents.EventsAPIEvent)
		h, _ := ev.InnerEvent.Data.(*slackevents.AppHomeOpenedEvent)
		return ok && h != nil && h.User == gus
	})

	dm, status, err := w.clientAs(gus).OpenDM(ctx)
	if err != nil || !dm.OK || dm.Channel == "" {
		t.Fatalf("gus's DM: %d %+v %v", status, dm, err)
	}
	if st := w.stateAs(t, gus); st.DM != dm.Channel {
		t.Errorf("gus's state shows DM %q, want %q", st.DM, dm.Channel)
	}
	if st := w.state(t); st.DM != "" || slices.Contains(channelIDs(st), dm.Channel) {
		t.Errorf("alice sees gus's DM: %q %v", st.DM, channelIDs(st))
	}
}

// TestPeopleRefusals: a request naming someone the page cannot act as (a
// person of the workspace left out of its people, anyone with one person,
// two different people) is refused and does nothing.
func TestPeopleRefusals(t *testing.T) {
	t.Parallel()
	many := newPeopleWorld(t)
	one := newWorld(t)
	endpoints := []struct{ method, path, body string }{
		{http.MethodGet, "/api/state", ""},
		{http.MethodGet, "/api/events", ""},
		{http.MethodGet, "/api/files/F0NONE", ""},
		{http.MethodPost, "/api/send", `{"channel":"C0GENERAL","text":"hi"}`},
		{http.MethodPost, "/api/send", `{"channel":"C0GENERAL","text":"/docs-agent hi"}`},
		{http.MethodPost, "/api/action", `{"channel":"C0GENERAL","ts":"1.000001","action_id":"a"}`},
		{http.MethodPost, "/api/shortcut", `{"channel":"C0GENERAL","ts":"1.000001","callback_id":"s"}`},
		{http.MethodPost, "/api/view/submit", `{"view_id":"V1"}`},
		{http.MethodPost, "/api/view/close", `{"view_id":"V1"}`},
		{http.MethodPost, "/api/home", `{}`},
		{http.MethodPost, "/api/dm", `{}`},
	}
	namings := []struct {
		name          string
		w             *world
		header, param string
	}{
		{"a person of the workspace not among the page's people", many, "U0BOB", ""},
		{"nobody, by the query", many, "", "U0NOBODY"},
		{"two different people", many, alice, gus},
		{"someone else with one person", one, "U0BOB", ""},
	}
	for _, n := range namings {
		for _, ep := range endpoints {
			t.Run(n.name+" "+ep.path, func(t *testing.T) {
				target := n.w.page.URL + ep.path
				if n.param != "" {
					target += "?" + url.Values{slackweb.ActingParam: {n.param}}.Encode()
				}
				r, _ := http.NewRequestWithContext(testContext(t), ep.method, target, strings.NewReader(ep.body))
				r.Header.Set("Content-Type", "application/json")
				if n.header != "" {
					r.Header.Set(slackweb.ActingHeader, n.header)
				}
				resp, err := http.DefaultClient.Do(r)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				var out slackweb.SendResponse
				_ = json.NewDecoder(resp.Body).Decode(&out)
				if resp.StatusCode != http.StatusBadRequest || out.Error != "unknown_person" || out.Message == "" {
					t.Errorf("%d %+v, want 400 unknown_person with a message", resp.StatusCode, out)
				}
			})
		}
	}
	for _, w := range []*world{many, one} {
		if n := len(w.slack.Messages("C0GENERAL")); n != 0 {
			t.Errorf("refused requests posted %d messages", n)
		}
		for _, c := range w.slack.Channels() {
			if c.IMUser != "" {
				t.Errorf("a refused request opened the DM %s", c.ID)
			}
		}
	}
	// The same person by header and query is one person.
	r, _ := http.NewRequestWithContext(testContext(t), http.MethodGet, many.page.URL+"/api/state?"+url.Values{slackweb.ActingParam: {gus}}.Encode(), nil)
	r.Header.Set(slackweb.ActingHeader, gus)
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st slackweb.State
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil || resp.StatusCode != http.StatusOK || st.Me != gus {
		t.Errorf("gus by header and query: %d me %q %v", resp.StatusCode, st.Me, err)
	}
}

// firstEvent reads the first "state" event of the stream at target.
func firstEvent(t *testing.T, target string) slackweb.State {
	t.Helper()
	req, _ := http.NewRequestWithContext(testContext(t), http.MethodGet, target, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	name := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && name == "state":
			var st slackweb.State
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &st); err != nil {
				t.Fatal(err)
			}
			return st
		}
	}
	t.Fatalf("the stream at %s ended without a state: %v", target, sc.Err())
	return slackweb.State{}
}
