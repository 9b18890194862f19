package settings

import (
	"context"
	"strconv"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// The Digests and limits modal: the digests' time and channels
// (digests.go), the requests channel (a conversations select; Clear on
// the Home brings the environment's back, as a select cannot be emptied)
// and the questions' shares (text inputs of a whole number, at most the
// environment's value, the ceiling whoever runs docsbot set; empty: the
// environment's).

// limitRows are the modal's rows: the table's, less the channels of a
// digest whose feature is off.
func (s *settings) limitRows() []Setting {
	var out []Setting
	for _, st := range rowsOf(modalLimits) {
		if st.Kind != KindDigest || s.digestStore(st) != nil {
			out = append(out, st)
		}
	}
	return out
}

// limitsModal is the Digests and limits modal of team, showing what team
// set and the channels subscribed to its digests.
func (s *settings) limitsModal(ctx context.Context, team string) slack.ModalViewRequest {
	set := s.setIn(ctx, team)
	blocks := []slack.Block{slack.NewSectionBlock(text("When this workspace's digests come and where, and docsbot's limits here, each at most what whoever runs docsbot allows. "+
		"Each change is in force within 5 seconds."), nil, nil)}
	shown := map[string][]string{}
	for _, st := range s.limitRows() {
		switch st.Kind {
		case KindTime:
			blocks = append(blocks, s.timeInputs(st, set)...)
		case KindDigest:
			blocks = append(blocks, s.digestInput(ctx, team, st, shown))
		case KindChannel:
			el := slack.NewOptionsSelectBlockElement(slack.OptTypeConversations, plain("Choose a channel"), actionValue)
			el.Filter = &slack.SelectBlockElementFilter{Include: []string{"public", "private"}, ExcludeBotUsers: true}
			el.InitialConversation = set[st.Key].Value
			blocks = append(blocks, input(st.Key, st.Label, "Where Ask the docs team posts the questions the docs did not answer. Not chosen: the environment's ("+st.Env+").", true, el))
		case KindShare:
			ceiling := s.ceiling(st)
			blocks = append(blocks, textInput(st.Key, st.Label, "At most "+strconv.Itoa(ceiling)+" ("+st.Env+"). Empty: "+strconv.Itoa(ceiling)+".",
				set[st.Key].Value, true))
		}
	}
	m := modal(ViewLimits, modalLimits, "Save", team, blocks...)
	m.PrivateMetadata = metadataShown(team, shown)
	return m
}

// ceiling is a share's highest value: the environment's.
func (s *settings) ceiling(st Setting) int {
	n, _ := strconv.Atoi(s.cfg.Environment[st.Key])
	return n
}

// onLimitsSubmitted checks a Digests and limits submission and saves what
// it changes, all in the ack: every value is checked (a channel to
// subscribe looked up in Slack) before anything is saved; a problem is
// answered on its input. The settings are saved at once, then the
// digests' subscriptions, each audited as it is made.
func (s *settings) onLimitsSubmitted(ctx context.Context, r *bot.InteractionRequest) {
	rows := s.limitRows()
	team, user, ok := s.admitted(ctx, r, rows[0].Key, "set the digests and limits")
	if !ok {
		return
	}
	f, shown := formOf(r.Interaction), shownOf(r.Interaction)
	set := s.setIn(ctx, team)
	var sets []store.WorkspaceSetting
	var plans []digestPlan
	for _, st := range rows {
		if st.Kind == KindDigest {
			channels, showed := shown[st.Key]
			p, keep, problem := s.planDigest(ctx, team, f, st, channels, showed)
			if problem != "" {
				fail(r, st.Key, problem)
				return
			}
			if !keep {
				plans = append(plans, p)
			}
			continue
		}
		v, keep, block, problem := s.limitValue(f, st, set[st.Key].Value)
		switch {
		case problem != "":
			fail(r, block, problem)
			return
		case !keep:
			sets = append(sets, store.WorkspaceSetting{Key: st.Key, Value: v})
		}
	}
	changes, err := s.apply(ctx, team, user, sets)
	if err != nil {
		fail(r, rows[0].Key, storageTrouble)
		return
	}
	for _, p := range plans {
		c, err := s.applyDigest(ctx, team, user, p)
		if c != nil {
			changes = append(changes, *c)
		}
		if err != nil {
			s.told(ctx, team, user, changes, func() { fail(r, p.st.Key, storageTrouble+" What was changed before is in your DM.") })
			return
		}
	}
	sched := s.scheduleOf(s.setIn(ctx, team)[bot.SettingDigestTime].Value)
	var posts []toldPost
	for _, p := range plans {
		posts = append(posts, s.digestAnnouncements(user, p, sched)...)
	}
	s.told(ctx, team, user, changes, func() { r.Ack(nil) }, posts...)
}

// limitValue reads the submitted value of a setting of the modal kept in
// the workspace's settings (was: its value set now): keep when it is left
// as it is, else the value, or the problem and its input. A share above
// its ceiling is refused, naming the ceiling.
func (s *settings) limitValue(f form, st Setting, was string) (v string, keep bool, block, problem string) {
	switch st.Kind {
	case KindTime:
		return s.digestTime(f, st, was)
	case KindChannel:
		ch := f.conversation(st.Key)
		switch {
		case ch == "":
			return "", true, "", "" // not chosen: kept (Clear on the Home empties it)
		case !bot.IsSlackID(ch, "CG"):
			return "", false, st.Key, "Choose a channel."
		}
		return ch, false, "", ""
	}
	v = f.text(st.Key)
	if v == "" {
		return "", false, "", ""
	}
	n, err := strconv.Atoi(v)
	ceiling := strconv.Itoa(s.ceiling(st))
	switch {
	case err != nil || n <= 0:
		return "", false, st.Key, "Give a whole number above 0, or leave it empty for " + ceiling + "."
	case n > s.ceiling(st):
		return "", false, st.Key, "At most " + ceiling + ": the ceiling whoever runs docsbot set (" + st.Env + "=" + ceiling + ")."
	}
	return strconv.Itoa(n), false, "", ""
}
