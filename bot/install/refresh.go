package install

import (
	"context"
	"errors"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// Token rotation. When Slack rotates tokens (token_rotation_enabled), a bot
// token lasts 12 hours and comes with a refresh token that works once. A
// replica about to call Slack for a workspace refreshes its token when less
// than refreshMargin is left:
//
//	state of the token      turn to refresh   action
//	not due                 -                 use it
//	due, not expired        taken             read the record again; refresh
//	                                          unless another replica just did
//	due, not expired        another's         use it (it still works)
//	expired                 another's         wait for the new one (awaitTurn)
//	refresh refused         -                 mark the installation broken
//	  (invalid_refresh_token)                 (the workspace installs again)
//	refresh failed          -                 keep the token while it lasts;
//	                                          no try again within retryEvery
//
// The turn is one key in Redis across replicas (store.Installations.
// TakeTurn), and the record is read again after taking it, because two
// callers exchanging one refresh token leave one of them with a dead one.

// ErrBroken marks a workspace whose refresh token Slack refused: it must
// install docsbot again. ErrExpired marks a token that ran out and could
// not be refreshed.
var (
	ErrBroken  = errors.New("install: the workspace must install docsbot again")
	ErrExpired = errors.New("install: the workspace's Slack token expired")
)

const (
	// maxMargin bounds how early a token is refreshed (Bolt's two hours).
	maxMargin = 2 * time.Hour
	// turnHold is how long a replica may hold the turn to refresh.
	turnHold = 30 * time.Second
	// retryEvery spaces the refreshes of one installation that failed.
	retryEvery = time.Minute
	// awaitFor bounds the wait for another replica's refresh of a token
	// that has expired; awaitStep is how often the record is read meanwhile.
	awaitFor  = 10 * time.Second
	awaitStep = 200 * time.Millisecond
)

// refreshMargin is how long before it expires in's token is refreshed: a
// quarter of its lifetime or maxMargin, whichever is less.
func refreshMargin(in store.Installation) time.Duration {
	life := in.Expires.Sub(in.Issued)
	if in.Issued.IsZero() || life <= 0 {
		return maxMargin
	}
	return min(life/4, maxMargin)
}

// refreshDue reports whether in's token should be refreshed at now.
func refreshDue(in store.Installation, now time.Time) bool {
	return !in.Expires.IsZero() && in.RefreshToken != "" && !now.Before(in.Expires.Add(-refreshMargin(in)))
}

// expired reports whether in's token may no longer be used at now.
func expired(in store.Installation, now time.Time) bool {
	return !in.Expires.IsZero() && !now.Before(in.Expires)
}

// refresh refreshes e's token as the table above says, and returns the
// entry to use (the same one when nothing changed); an expired token
// another replica is refreshing is waited for only with wait.
func (d *Directory) refresh(ctx context.Context, e *entry, wait bool) *entry {
	id, now := e.in.ID(), d.cfg.Now()
	if !e.in.RefreshTried.IsZero() && now.Sub(e.in.RefreshTried) < retryEvery {
		return e
	}
	done, mine, err := d.store.TakeTurn(ctx, id, turnHold)
	switch {
	case err != nil:
		d.cfg.Logger.Warn("cannot take the turn to refresh a workspace's Slack token; using the one held", "installation", id, "err", err)
		return e
	case !mine && !expired(e.in, now):
		return e
	case !mine && wait:
		return d.awaitTurn(ctx, e)
	case !mine:
		return e
	}
	defer done(context.WithoutCancel(ctx))
	in, err := d.store.Get(ctx, id)
	if err != nil {
		d.cfg.Logger.Warn("cannot read a workspace's installation again before refreshing its token", "installation", id, "err", err)
		return e
	}
	if in.Version != e.in.Version && (!refreshDue(in, now) || !in.Broken.IsZero()) {
		return d.keep(in)
	}
	resp, err := slack.RefreshOAuthV2TokenContext(ctx, d.cfg.HTTP, d.cfg.ClientID, d.cfg.ClientSecret, in.RefreshToken, slack.OAuthOptionAPIURL(d.cfg.APIURL))
	switch {
	case err == nil:
		in.BotToken, in.RefreshToken = resp.AccessToken, resp.RefreshToken
		in.Issued, in.Expires = now, now.Add(time.Duration(resp.ExpiresIn)*time.Second)
		in.RefreshTried = time.Time{}
		if resp.ExpiresIn <= 0 {
			in.Expires = time.Time{}
		}
	case bot.SlackCode(err) == "invalid_refresh_token":
		d.cfg.Logger.Error("Slack refused a workspace's refresh token; it must install docsbot again", "installation", id)
		in.Broken, in.RefreshTried = now, now
	default:
		d.cfg.Logger.Warn("could not refresh a workspace's Slack token; trying again in a minute", "installation", id, "err", err)
		in.RefreshTried = now
	}
	return d.keep(d.saveRefreshed(ctx, in))
}

// saveRefreshed saves in after a refresh, trying a few times: Slack has
// spent the old refresh token, so new tokens lost here would leave the
// workspace to install again. The replica keeps what it got either way.
func (d *Directory) saveRefreshed(ctx context.Context, in store.Installation) store.Installation {
	wait := 100 * time.Millisecond
	for try := 1; ; try++ {
		saved, err := d.store.Save(ctx, in)
		if err == nil {
			return saved
		}
		if try == 5 || ctx.Err() != nil {
			d.cfg.Logger.Error("could not save a workspace's refreshed Slack token; this replica keeps it, others will have to install again once it expires", "installation", in.ID(), "err", err)
			return in
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
		wait *= 2
	}
}

// awaitTurn waits for another replica's refresh of e's expired token: the
// record read again until its version changes, for at most awaitFor.
func (d *Directory) awaitTurn(ctx context.Context, e *entry) *entry {
	ctx, cancel := context.WithTimeout(ctx, awaitFor)
	defer cancel()
	t := time.NewTicker(awaitStep)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return e
		case <-t.C:
		}
		in, err := d.store.Get(ctx, e.in.ID())
		if err == nil && in.Version != e.in.Version {
			return d.keep(in)
		}
	}
}
