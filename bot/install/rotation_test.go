package install_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// lifetime is how long the world's tokens last, as Slack's rotating ones.
const lifetime = 12 * time.Hour

// rotationWorld is an install world whose tokens rotate, on a clock the
// test moves, with replicas replicas and docsbot installed in the other
// workspace.
func rotationWorld(t *testing.T, replicas int) (*bottest.Harness, *front, *slacktest.ManualClock) {
	t.Helper()
	clock := slacktest.NewManualClock(time.Now())
	h, f := installWorld(t, slacktest.WithTokenRotation(lifetime), slacktest.WithClock(clock.Now))
	for range replicas {
		installBot(h, f, func(c *app.Config) { c.Now = clock.Now })
	}
	if status, page, _ := installAs(h, f, other, olive); status != 200 {
		t.Fatalf("install: %d %s", status, page)
	}
	h.Idle() // the welcome posted
	return h, f, clock
}

// jobsAtOnce starts n docs jobs in the other workspace at once (the front
// hands them to the replicas in turn), each posted with the workspace's
// token, and waits until each is posted.
func jobsAtOnce(h *bottest.Harness, n int) {
	h.T.Helper()
	before := len(h.Roots(otherChan))
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { h.Command(olive, otherChan, agent.Command, fmt.Sprintf("Rewrite page %d", i)) })
	}
	wg.Wait()
	// Each root names its job once the job is created and linked: the
	// last Slack call of a start asked by slash command (its thread shows
	// no status; bot/agent threadStatusShown). The tests move the clock
	// only after it, so that no call of a start is under way when a token
	// runs out (a call Slack receives after the clock moved would be
	// refused for a token that was good when it was sent).
	h.WaitFor("every job posted and linked", func() bool {
		roots := h.Roots(otherChan)
		if len(roots) != before+n {
			return false
		}
		for _, r := range roots[before:] {
			if !strings.Contains(bottest.Rendered(r), "job `") {
				return false
			}
		}
		return true
	})
	h.Idle()
}

// refused are the calls Slack refused for their token.
func refused(h *bottest.Harness) []slacktest.Call {
	var out []slacktest.Call
	for _, c := range h.Slack.Calls("") {
		if c.Error == "token_expired" || c.Error == "invalid_auth" || c.Error == "not_authed" || c.Error == "token_revoked" {
			out = append(out, c)
		}
	}
	return out
}

// TestTokenRotationAcrossReplicas: three replicas serving 20 commands at
// once refresh a token that is due exactly once (a refresh token works
// once), never call with an expired token, and take the new token once
// the old one has run out.
func TestTokenRotationAcrossReplicas(t *testing.T) {
	t.Parallel()
	h, _, clock := rotationWorld(t, 3)
	jobsAtOnce(h, 20)
	if n := h.Slack.TokenExchanges(); n != 0 {
		t.Fatalf("%d refreshes of a fresh token", n)
	}
	steps := []struct {
		name      string
		advance   time.Duration
		exchanges int
	}{
		{"within the last two hours of the token", lifetime - 90*time.Minute, 1},
		{"after the old token expired", 2 * time.Hour, 1},
		{"the new token due in turn", 9 * time.Hour, 2},
	}
	for _, s := range steps {
		clock.Advance(s.advance)
		jobsAtOnce(h, 20)
		if n := h.Slack.TokenExchanges(); n != s.exchanges {
			t.Errorf("%s: %d refreshes in all, want %d", s.name, n, s.exchanges)
		}
	}
	if bad := refused(h); len(bad) > 0 {
		t.Errorf("calls refused for their token: %+v", bad)
	}
	if got := installations(t, h); len(got) != 1 || !got[0].Expires.After(clock.Now()) || !got[0].Broken.IsZero() {
		t.Errorf("installation after the refreshes: %+v", got)
	}
}

// TestRefusedRefreshTokenBreaksTheInstallation: when Slack refuses the
// refresh token (spent elsewhere), the workspace's commands are answered,
// without a token, that it must add docsbot again; no call goes out with
// the expired token, and a new install mends it.
func TestRefusedRefreshTokenBreaksTheInstallation(t *testing.T) {
	t.Parallel()
	h, f, clock := rotationWorld(t, 1)
	// Someone else spends the refresh token.
	in := installations(t, h)[0]
	if _, err := slack.RefreshOAuthV2TokenContext(context.Background(), http.DefaultClient, clientID, clientSecret, in.RefreshToken, slack.OAuthOptionAPIURL(h.Slack.APIURL)); err != nil {
		t.Fatal(err)
	}
	clock.Advance(lifetime + time.Minute)
	ack := h.Command(olive, otherChan, agent.Command, "list")
	h.Idle()
	ack = h.Command(olive, otherChan, agent.Command, "list")
	if !strings.Contains(string(ack.Payload), "add it again") {
		t.Errorf("a command of a broken workspace was answered %s", ack.Payload)
	}
	if got := installations(t, h); len(got) != 1 || got[0].Broken.IsZero() {
		t.Errorf("installation not marked broken: %+v", got)
	}
	if bad := refused(h); len(bad) > 0 {
		t.Errorf("calls went out with a token that could not work: %+v", bad)
	}
	if status, page, _ := installAs(h, f, other, olive); status != 200 {
		t.Fatalf("install again: %d %s", status, page)
	}
	if ack := h.Command(olive, otherChan, agent.Command, "list"); strings.Contains(string(ack.Payload), "add it again") {
		t.Errorf("after a new install the workspace is still refused: %s", ack.Payload)
	}
}

// TestExpiredTokenKeepsTheWorkspacesEvents: a token that ran out while
// the replica refreshing it was gone (the turn to refresh still held)
// leaves the workspace's events recorded, not acknowledged and dropped: a
// reply in a job's thread reaches the agent once the token is renewed,
// and no call goes out with the expired one.
func TestExpiredTokenKeepsTheWorkspacesEvents(t *testing.T) {
	t.Parallel()
	h, f, clock := rotationWorld(t, 1)
	jobsAtOnce(h, 1)
	root := h.Roots(otherChan)[0]
	// The replica stops (its calls done, the job handed back) before the
	// clock moves, and another serves from then on: a call under way when
	// the clock moved would be refused for a token that was good when it
	// was sent, which is not what this test is about.
	h.StopAll()
	sealer, err := store.NewSealer(secretsKey)
	if err != nil {
		t.Fatal(err)
	}
	ctx, turns, id := context.Background(), h.OpenStore().Installations(sealer), "T"+other
	// A replica took the turn to refresh and died: the turn stays held
	// until its hold runs out.
	if _, mine, err := turns.TakeTurn(ctx, id, 2*time.Second); err != nil || !mine {
		t.Fatalf("taking the turn as a replica that died: %t %v", mine, err)
	}
	clock.Advance(lifetime + time.Minute)
	r := installBot(h, f, func(c *app.Config) { c.Now = clock.Now })
	f.only(t, r.URL)
	h.Reply(olive, otherChan, root.TS, "Also mention the rate limits")
	// Once the hold has run out, the workspace's next command renews the
	// token.
	h.WaitFor("the dead replica's turn run out", func() bool {
		done, mine, err := turns.TakeTurn(ctx, id, time.Second)
		if mine {
			done(ctx)
		}
		return err == nil && mine
	})
	jobsAtOnce(h, 1)
	h.WaitFor("the reply passed on to the agent", func() bool { return h.API.Count(docsapitest.EndpointMessage) == 1 })
	if n := h.Slack.TokenExchanges(); n != 1 {
		t.Errorf("%d refreshes, want 1", n)
	}
	if bad := refused(h); len(bad) > 0 {
		t.Errorf("calls refused for their token: %+v", bad)
	}
}
