package settings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// Telling a change. A change of settings is saved by its handler (a
// modal's submission before its ack; Disconnect and Clear from the inbox,
// queued before their ack: presses.go); what follows the save, its audit
// records, the admin's confirmation in their DM and their Home published
// again, is inbox work of kind workTold when the save was in an ack, queued
// before that ack, so that a replica stopped or killed after it leaves the
// telling to another. The steps of a telling (tell), by mark:
//
//	step                mark       after a crash
//	each audit record   audit:N    not again once marked; appended twice
//	                               at worst, with the same Work key
//	the confirmation    confirmed  not again once marked; posted twice at
//	                               worst; a post failing for a passing
//	                               reason is tried again (Later)
//	each channel's post post:N     the same (a digest's channel told it is
//	                               subscribed)
//	the Home hooks      -          again: the publish is keyed by the change
//
// When Redis cannot take the work, the handler tells at once after its ack
// (tellNow), as before there was an inbox.

// workTold is the kind of the inbox work that tells a change saved in an
// ack (toldRequest); markConfirmed marks its confirmation sent.
const (
	workTold      = "settings.told"
	markConfirmed = "confirmed"
)

// toldRequest is what a change of settings tells: the admin who made it,
// the change's key (its audit records' Work is "settings:" + Key + ":N"
// when Numbered, as a form's or Clear's changes are; "settings:" + Key
// otherwise, as Connect's and Disconnect's), the audit records' details,
// and the confirmation.
type toldRequest struct {
	Team    string   `json:"team"`
	User    string   `json:"user"`
	Key     string   `json:"key"`
	Audits  []string `json:"audits,omitempty"`
	Confirm string   `json:"confirm"`
	// Numbered says each audit record's key ends in its number, as a
	// change of several settings has them.
	Numbered bool `json:"numbered,omitempty"`
	// Posts are told in channels the change concerns.
	Posts []toldPost `json:"posts,omitempty"`
}

// toldPost is a message a change tells in a channel.
type toldPost struct {
	Channel string `json:"channel"`
	Text    string `json:"text"`
}

// toldOf is what changes, made by user of team, tell; false when nothing
// changed: nothing to tell.
func (s *settings) toldOf(team, user string, changes []change) (toldRequest, bool) {
	if len(changes) == 0 {
		return toldRequest{}, false
	}
	req := toldRequest{Team: team, User: user, Key: "set:" + s.cfg.Now().Format("20060102T150405.000"), Numbered: true}
	lines := []string{"✅ docsbot's settings changed in this workspace, in force within 5 seconds:"}
	for _, c := range changes {
		req.Audits = append(req.Audits, c.audit())
		lines = append(lines, c.line())
	}
	req.Confirm = strings.Join(lines, "\n")
	return req, true
}

// told tells changes, made by user of team, and posts, around ack, the
// answer that ends their handler: queued before it, told at once after it
// when Redis cannot take the telling. Nothing changed: ack alone.
func (s *settings) told(ctx context.Context, team, user string, changes []change, ack func(), posts ...toldPost) {
	req, ok := s.toldOf(team, user, changes)
	if !ok {
		ack()
		return
	}
	req.Posts = posts
	s.tellAround(ctx, req, ack)
}

// tellAround tells req around ack, the answer that ends its handler:
// queued before it, told at once after it when Redis cannot take it.
func (s *settings) tellAround(ctx context.Context, req toldRequest, ack func()) {
	queued := s.queueTold(ctx, req)
	ack()
	if !queued {
		s.tellNow(ctx, req)
	}
}

// auditKey is the key of req's audit record i (toldRequest).
func (req toldRequest) auditKey(i int) string {
	if !req.Numbered {
		return req.Key
	}
	return fmt.Sprintf("%s:%d", req.Key, i)
}

// queueToldBudget bounds the queueing of a telling, inside the 3 seconds
// Slack gives the ack that follows it.
const queueToldBudget = time.Second

// queueTold queues the telling of req as inbox work, before the ack of the
// change it tells; false when Redis could not take it (the caller then
// tells at once after its ack: tellNow).
func (s *settings) queueTold(ctx context.Context, req toldRequest) bool {
	ctx, cancel := context.WithTimeout(ctx, queueToldBudget)
	defer cancel()
	payload, err := json.Marshal(req)
	if err == nil {
		// Keyed by the admin too: two changes saved in the same
		// millisecond are two tellings.
		_, err = s.core.QueueFromWork(ctx, store.Work{Key: "settings.told:" + req.Team + ":" + req.User + ":" + req.Key, Kind: workTold, Payload: payload})
	}
	if err != nil {
		s.log.Warn("the telling of a change of settings could not be queued; telling it now", "user", req.User, "err", err)
		return false
	}
	return true
}

// doTold tells a change saved in an ack, from the inbox.
func (s *settings) doTold(ctx context.Context, w *bot.Work) error {
	var req toldRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding a change of settings to tell: %w", err)
	}
	return s.tell(ctx, w, req)
}

// tell tells req as the table above says, each step once across the
// attempts at w.
func (s *settings) tell(ctx context.Context, w *bot.Work, req toldRequest) error {
	log := s.log.With("user", req.User, "work", w.Key)
	for i, detail := range req.Audits {
		if _, err := w.Step(ctx, "audit:"+strconv.Itoa(i), func(ctx context.Context) (string, error) {
			s.audit(ctx, req.Team, req.User, req.auditKey(i), detail)
			return "1", nil
		}); err != nil {
			log.Warn("recording an audit record's mark failed", "err", err)
		}
	}
	_, err := w.Step(ctx, markConfirmed, func(ctx context.Context) (string, error) {
		return "1", s.post(ctx, req.User, req.Confirm)
	})
	if err := s.stepEnd(err, log, "a change of settings could not be confirmed to its admin; their Home shows it"); err != nil {
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	}
	for i, p := range req.Posts {
		_, err := w.Step(ctx, "post:"+strconv.Itoa(i), func(ctx context.Context) (string, error) {
			return "1", s.postIn(ctx, p)
		})
		if err := s.stepEnd(err, log.With("channel", p.Channel), "a change of settings could not be told in its channel"); err != nil {
			return bot.Later(bot.RetryDelay(w.Attempt), err)
		}
	}
	s.tellChanged(ctx, req.Team, req.User, req.Key)
	return nil
}

// stepEnd is what a post's step of a telling ends with: its error when the
// post failed for a passing reason (tried again later), else nil, a
// final refusal logged with msg, a lost mark logged too.
func (s *settings) stepEnd(err error, log *slog.Logger, msg string) error {
	switch {
	case errors.Is(err, bot.ErrUnmarked):
		log.Warn("a telling's post was sent but its mark was not recorded; a later attempt may send it again", "err", err)
	case err != nil && bot.TransientSlack(err):
		return err
	case err != nil:
		log.Warn(msg, "err", err)
	}
	return nil
}

// tellNow tells req at once, without the inbox (queueTold failed): each
// audit record, the confirmation, the Home hooks.
func (s *settings) tellNow(ctx context.Context, req toldRequest) {
	for i, detail := range req.Audits {
		s.audit(ctx, req.Team, req.User, req.auditKey(i), detail)
	}
	if err := s.post(ctx, req.User, req.Confirm); err != nil {
		s.log.Warn("a change of settings could not be confirmed to its admin; their Home shows it", "user", req.User, "err", err)
	}
	for _, p := range req.Posts {
		if err := s.postIn(ctx, p); err != nil {
			s.log.Warn("a change of settings could not be told in its channel", "channel", p.Channel, "err", err)
		}
	}
	s.tellChanged(ctx, req.Team, req.User, req.Key)
}

// post sends text to user in their DM with docsbot.
func (s *settings) post(ctx context.Context, user, text string) error {
	_, _, err := s.core.SlackIn(ctx).PostMessageContext(ctx, user, slack.MsgOptionText(text, false))
	return err
}

// postIn sends p in its channel, in the channel's turn (bot.Post).
func (s *settings) postIn(ctx context.Context, p toldPost) error {
	_, err := s.core.Post(ctx, p.Channel, bot.Plain{slack.MsgOptionText(p.Text, false)})
	return err
}
