package slacktest

import (
	"regexp"
	"time"
)

// triggerTTL is how long Slack lets a trigger_id open a view.
const triggerTTL = 3 * time.Second

// triggerForm is the shape of a trigger id: "132456.7890123.abcdef".
var triggerForm = regexp.MustCompile(`^\d+\.\d+\.[0-9a-f]+$`)

// trigger is an issued trigger id. Guarded by Server.mu.
type trigger struct {
	issued time.Time
	user   string
	used   bool
}

// WithClock sets the clock the server reads for message timestamps, trigger
// expiry and the rate limits (WithPostLimit per channel, WithMethodLimit per
// method), so tests can move time forward instead of sleeping, or post in a
// thread that looks minutes old. Default time.Now.
func WithClock(now func() time.Time) Option { return func(c *config) { c.now = now } }

// WithTriggerTTL sets how long a trigger id may open a view after it was
// issued: later, views.open and views.push answer expired_trigger_id.
// Default 3s, as on Slack.
func WithTriggerTTL(d time.Duration) Option { return func(c *config) { c.triggerTTL = d } }

// issueTriggerLocked returns a new trigger id for an interaction by user.
func (s *Server) issueTriggerLocked(user string) string {
	id := s.triggerIDLocked()
	s.triggers[id] = &trigger{issued: s.cfg.now(), user: user}
	return id
}

// exchangeTriggerLocked spends trigger id for a view and returns the user it
// belongs to, or Slack's error: invalid_trigger_id for a malformed or unknown
// id, exchanged_trigger_id for one already used, expired_trigger_id after
// the TTL.
func (s *Server) exchangeTriggerLocked(id string) (user, code string) {
	t, ok := s.triggers[id]
	switch {
	case id == "" || !triggerForm.MatchString(id) || !ok:
		return "", "invalid_trigger_id"
	case t.used:
		return "", "exchanged_trigger_id"
	case s.cfg.now().Sub(t.issued) > s.cfg.triggerTTL:
		return "", "expired_trigger_id"
	}
	t.used = true
	return t.user, ""
}
