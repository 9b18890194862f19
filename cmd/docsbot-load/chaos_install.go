package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/store"
)

// The chaos run in install mode (--install): the replicas serve Slack over
// HTTP behind a load balancer (slacktest.Balancer), docsbot is added by link
// to two workspaces through the OAuth flow, with tokens that rotate within
// the run, and the commands and follow-ups come from both. The faults and
// the counting are the chaos run's; the fake Slack also tells which calls
// used a token they should not have.

// installRetries are the delays of Slack's retries of an event over HTTP
// in install mode: Slack's (at once, after 1 minute, after 5) at a
// thirtieth, so that a run sees them through.
var installRetries = []time.Duration{0, 2 * time.Second, 10 * time.Second}

// chaosWorkspace is a workspace the commands come from: its person, who
// sends them, and its channels.
type chaosWorkspace struct {
	team, name string
	person     string
	channels   []string
}

// chaosWorkspaces adds the run's workspaces to the fake Slack: the primary
// one with channels channels (Socket Mode), or two others, each with
// channels channels, where docsbot is not installed yet (--install).
func chaosWorkspaces(sl *slacktest.Server, channels int, install bool) []chaosWorkspace {
	if !install {
		ws := chaosWorkspace{team: loadTeam, person: loadUser, channels: []string{loadChannel}}
		for i := 1; i < channels; i++ {
			id := fmt.Sprintf("C0CHAOS%02d", i)
			sl.AddChannel(slacktest.Channel{ID: id, Name: fmt.Sprintf("chaos-%d", i), BotMember: true})
			ws.channels = append(ws.channels, id)
		}
		return []chaosWorkspace{ws}
	}
	var out []chaosWorkspace
	for _, name := range []string{"Acme", "Globex"} {
		up := strings.ToUpper(name)
		ws := chaosWorkspace{team: "T0" + up, name: name, person: "U0" + up + "P"}
		sl.AddWorkspace(slacktest.Workspace{Team: ws.team, Name: name})
		sl.AddMember(ws.team, ws.person, strings.ToLower(name)+"-person")
		for i := range channels {
			id := fmt.Sprintf("C0%s%02d", up, i)
			sl.AddChannel(slacktest.Channel{ID: id, Name: fmt.Sprintf("chaos-%d", i), BotMember: true, Team: ws.team})
			ws.channels = append(ws.channels, id)
		}
		out = append(out, ws)
	}
	return out
}

// commandAt is where command i is sent from: the workspaces take turns,
// and each its channels.
func commandAt(workspaces []chaosWorkspace, i int) (ws chaosWorkspace, channel string) {
	ws = workspaces[i%len(workspaces)]
	return ws, ws.channels[(i/len(workspaces))%len(ws.channels)]
}

// personIn is who writes in channel.
func personIn(workspaces []chaosWorkspace, channel string) string {
	for _, ws := range workspaces {
		for _, ch := range ws.channels {
			if ch == channel {
				return ws.person
			}
		}
	}
	return loadUser
}

// installSlackOptions make the fake Slack deliver over HTTP to front, let
// the app be installed by link and rotate its tokens after lifetime.
func installSlackOptions(front string, lifetime time.Duration) []slacktest.Option {
	return []slacktest.Option{
		slacktest.WithHTTPDelivery(front, loadSigningSecret),
		slacktest.WithHTTPRetries(3*time.Second, installRetries...),
		slacktest.WithOAuth(loadClientID, loadClientSecret),
		slacktest.WithTokenRotation(lifetime),
	}
}

// installSettings are the settings of a replica in install mode, reached
// at public, sealing with key (base64), but its addresses.
func installSettings(public, key string) []string {
	return []string{"SLACK_BOT_TOKEN=", "SLACK_APP_TOKEN=", "DOCSBOT_SLACK_MODE=http", "SLACK_SIGNING_SECRET=" + loadSigningSecret,
		"SLACK_CLIENT_ID=" + loadClientID, "SLACK_CLIENT_SECRET=" + loadClientSecret, "DOCSBOT_PUBLIC_URL=" + public,
		"DOCSBOT_SECRETS_KEY=" + key}
}

// newSecretsKey is a random DOCSBOT_SECRETS_KEY.
func newSecretsKey() string {
	key := make([]byte, store.SealKeySize)
	_, _ = rand.Read(key)
	return base64.StdEncoding.EncodeToString(key)
}

// installFigures are what the chaos run adds in install mode.
type installFigures struct {
	// Workspaces are each workspace's outcomes.
	Workspaces    []workspaceOutcome `json:"workspaces"`
	TokenLifetime time.Duration      `json:"token_lifetime_ns"`
	// Refreshes counts the refresh tokens Slack exchanged; Reused those
	// presented again after their exchange (refused).
	Refreshes int `json:"token_refreshes"`
	Reused    int `json:"refresh_tokens_reused"`
	// Expired counts the calls Slack refused token_expired; Foreign the
	// calls that named a channel or person of another workspace than
	// their token's; Refused the calls refused for their token otherwise
	// (invalid_auth, token_revoked, not_authed).
	Expired int `json:"calls_with_an_expired_token"`
	Foreign int `json:"calls_on_another_workspace"`
	Refused int `json:"calls_refused_for_their_token"`
	// Broken counts the installations Slack's refusal of a refresh token
	// left broken at the end; Missing the workspaces with no installation.
	Broken  int `json:"installations_broken"`
	Missing int `json:"installations_missing"`
	// Balancer is what the load balancer in front of the replicas did.
	Balancer slacktest.BalancerStats `json:"balancer"`
}

// workspaceOutcome is what became of one workspace's requests.
type workspaceOutcome struct {
	Team     string  `json:"team"`
	Commands outcome `json:"commands"`
	Replies  outcome `json:"replies"`
	Results  outcome `json:"results"`
}

// countInstall counts, once the run is counted as a whole, each
// workspace's requests, and what the fake Slack and Redis say of the
// tokens.
func (res *chaosResult) countInstall(ctx context.Context, r *rig, o chaosOptions, key string, front *slacktest.Balancer, sent []chaosCommand, replies []chaosReplyRec, workspaces []chaosWorkspace) {
	reuses := r.slack.RefreshReuses()
	f := &installFigures{TokenLifetime: o.tokenLifetime, Refreshes: r.slack.TokenExchanges(), Reused: len(reuses), Balancer: front.Stats()}
	for _, u := range reuses {
		res.issues = append(res.issues, fmt.Sprintf("the refresh token of %s, exchanged at %s, was presented again at %s: %s",
			u.Installation, u.Exchanged.Format("15:04:05.000"), u.Presented.Format("15:04:05.000"), reuseCause(u.Exchanged, res.killedAt, o.latency)))
	}
	for _, ws := range workspaces {
		part := &chaosResult{drained: res.drained}
		part.count(r, o, sent, replies, ws.channels)
		f.Workspaces = append(f.Workspaces, workspaceOutcome{Team: ws.team, Commands: part.Commands, Replies: part.Replies, Results: part.Results})
	}
	for _, c := range r.slack.Calls("") {
		switch {
		case c.Token != "bot" && c.Token != "invalid":
		case c.Error == "token_expired":
			f.Expired++
		case c.Error == "invalid_auth" || c.Error == "token_revoked" || c.Error == "not_authed":
			f.Refused++
		}
		if c.Team != "" && c.NamedTeam != "" && c.Team != c.NamedTeam {
			f.Foreign++
		}
	}
	f.Broken, f.Missing = installationsLeft(ctx, r, key, workspaces, &res.issues)
	res.Install = f
}

// reuseCause says what may have spent a refresh token that was presented
// again: a replica SIGKILLed while Slack exchanged it (between the request,
// latency before the exchange, and the answer kept) took the new tokens
// with it, and the next refresh had only the spent one; else two replicas
// exchanged it.
func reuseCause(exchanged time.Time, kills []time.Time, latency time.Duration) string {
	const slack = 200 * time.Millisecond // the answer's way back, the save, the kill's own delay
	from, to := exchanged.Add(-latency-slack), exchanged.Add(slack)
	for _, k := range kills {
		if !k.Before(from) && !k.After(to) {
			return fmt.Sprintf("a replica was SIGKILLed %s around the exchange, likely the one refreshing: the new tokens died with it (Slack accepts a refresh token once; the workspace must add docsbot again)", ms(k.Sub(exchanged).Abs()))
		}
	}
	return "no replica was SIGKILLed around the exchange: two replicas exchanged it"
}

// installationsLeft reads the installations at the end: those broken, and
// the workspaces with none.
func installationsLeft(ctx context.Context, r *rig, key string, workspaces []chaosWorkspace, issues *[]string) (broken, missing int) {
	keys, err := store.ParseSealKeys(key)
	if err != nil {
		*issues = append(*issues, "the secrets key: "+err.Error())
		return 0, 0
	}
	seal, err := store.NewSealer(keys...)
	if err != nil {
		*issues = append(*issues, "the secrets key: "+err.Error())
		return 0, 0
	}
	list, bad, err := r.store.Installations(seal).List(ctx)
	if err != nil || len(bad) > 0 {
		*issues = append(*issues, fmt.Sprintf("reading the installations: %v (%d that do not open)", err, len(bad)))
		return 0, 0
	}
	have := map[string]bool{}
	for _, in := range list {
		have[in.Workspace.Team] = true
		if !in.Broken.IsZero() {
			broken++
		}
	}
	for _, ws := range workspaces {
		if !have[ws.team] {
			missing++
		}
	}
	return broken, missing
}

// problems are the install mode's failed checks.
func (f *installFigures) problems() []string {
	var out []string
	for _, w := range f.Workspaces {
		for _, c := range []struct {
			what string
			o    outcome
		}{{"commands", w.Commands}, {"thread replies", w.Replies}, {"results", w.Results}} {
			if c.o.Lost > 0 || c.o.Doubled > 0 {
				out = append(out, fmt.Sprintf("workspace %s: %s: %d lost, %d doubled", w.Team, c.what, c.o.Lost, c.o.Doubled))
			}
		}
	}
	for _, c := range []struct {
		n    int
		what string
	}{
		{f.Foreign, "calls made with another workspace's token"},
		{f.Expired, "calls made with an expired token"},
		{f.Refused, "calls refused for their token"},
		{f.Reused, "refresh tokens presented again after their exchange"},
		{f.Broken, "installations broken (Slack refused their refresh token)"},
		{f.Missing, "workspaces without an installation"},
	} {
		if c.n > 0 {
			out = append(out, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if f.Refreshes < len(f.Workspaces) {
		out = append(out, fmt.Sprintf("only %d token refreshes for %d workspaces: give --token-lifetime less, or the run more --commands", f.Refreshes, len(f.Workspaces)))
	}
	return out
}

// section is the install mode's part of the report.
func (f *installFigures) section() section {
	none := func(o outcome) bool { return o.Lost == 0 && o.Doubled == 0 }
	zero := func(what string, n int) row { return goal(what, fmt.Sprintf("%d", n), "0", n == 0) }
	s := section{heading: fmt.Sprintf("Install mode: %d workspaces added by link, tokens lasting %s", len(f.Workspaces), f.TokenLifetime)}
	for _, w := range f.Workspaces {
		s.rows = append(s.rows,
			goal(w.Team+": slash commands", w.Commands.String(), "0 lost, 0 doubled", none(w.Commands)),
			goal(w.Team+": thread replies", w.Replies.String(), "0 lost, 0 doubled", none(w.Replies)),
			goal(w.Team+": job results", w.Results.String(), "0 lost, 0 doubled", none(w.Results)))
	}
	return section{heading: s.heading, rows: append(s.rows,
		goal("token refreshes (refresh tokens exchanged)", fmt.Sprintf("%d", f.Refreshes), fmt.Sprintf("≥ %d, one a workspace", len(f.Workspaces)), f.Refreshes >= len(f.Workspaces)),
		zero("refresh tokens presented again after their exchange", f.Reused),
		zero("calls with another workspace's token", f.Foreign),
		zero("calls with an expired token", f.Expired),
		zero("calls refused for their token otherwise", f.Refused),
		zero("installations broken or missing at the end", f.Broken+f.Missing),
		fig("load balancer", "%d requests answered by a replica, %d connections refused by a dead one (passed over), %d answered 502 (the replica died with the request)",
			f.Balancer.Forwarded, f.Balancer.PassedOver, f.Balancer.BadGateway),
	)}
}

// plus adds two runs' install figures (the per-workspace outcomes by
// position).
func (f *installFigures) plus(g *installFigures) *installFigures {
	if f == nil {
		f = &installFigures{TokenLifetime: g.TokenLifetime}
	}
	out := *f
	out.Workspaces = append([]workspaceOutcome(nil), f.Workspaces...)
	for i, w := range g.Workspaces {
		if i == len(out.Workspaces) {
			out.Workspaces = append(out.Workspaces, workspaceOutcome{Team: w.Team})
		}
		o := &out.Workspaces[i]
		o.Commands, o.Replies, o.Results = o.Commands.plus(w.Commands), o.Replies.plus(w.Replies), o.Results.plus(w.Results)
	}
	out.Refreshes += g.Refreshes
	out.Reused += g.Reused
	out.Expired += g.Expired
	out.Foreign += g.Foreign
	out.Refused += g.Refused
	out.Broken += g.Broken
	out.Missing += g.Missing
	out.Balancer.Forwarded += g.Balancer.Forwarded
	out.Balancer.PassedOver += g.Balancer.PassedOver
	out.Balancer.BadGateway += g.Balancer.BadGateway
	return &out
}
