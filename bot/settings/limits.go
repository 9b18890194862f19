package settings

import (
	"context"
	"strconv"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// The Digests and limits modal: the requests channel (a conversations
// select; Clear on the Home brings the environment's back, as a select
// cannot be emptied) and the questions' shares (text inputs of a whole
// number, at most the environment's value, the ceiling whoever runs
// docsbot set; empty: the environment's). Digest times and channels stay
// with `/docs-visitors digest` and `/docs-health digest`.

// onLimits opens the Digests and limits modal for an admin.
func (s *settings) onLimits(ctx context.Context, r *bot.InteractionRequest) {
	s.open(ctx, r, modalLimits, s.limitsModal)
}

// limitsModal is the Digests and limits modal of team, showing what team
// set.
func (s *settings) limitsModal(ctx context.Context, team string) slack.ModalViewRequest {
	set := s.setIn(ctx, team)
	blocks := []slack.Block{slack.NewSectionBlock(text("docsbot's limits in this workspace, each at most what whoever runs docsbot allows. "+
		"Digests are set in their channel: `/docs-visitors digest weekly`, `/docs-health digest weekly`."), nil, nil)}
	for _, st := range rowsOf(modalLimits) {
		switch st.Kind {
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
	return modal(ViewLimits, modalLimits, "Save", team, blocks...)
}

// ceiling is a share's highest value: the environment's.
func (s *settings) ceiling(st Setting) int {
	n, _ := strconv.Atoi(s.cfg.Environment[st.Key])
	return n
}

// onLimitsSubmitted checks a Digests and limits submission and saves what
// it changes, all in the ack; a share above its ceiling is refused on its
// input, naming the ceiling.
func (s *settings) onLimitsSubmitted(ctx context.Context, r *bot.InteractionRequest) {
	rows := rowsOf(modalLimits)
	team, user, ok := s.admitted(ctx, r, rows[0].Key, "set the limits")
	if !ok {
		return
	}
	f := formOf(r.Interaction)
	var sets []store.WorkspaceSetting
	for _, st := range rows {
		switch st.Kind {
		case KindChannel:
			ch := f.conversation(st.Key)
			if ch == "" {
				continue // not chosen: kept (Clear on the Home empties it)
			}
			if !bot.IsSlackID(ch, "CG") {
				fail(r, st.Key, "Choose a channel.")
				return
			}
			sets = append(sets, store.WorkspaceSetting{Key: st.Key, Value: ch})
		case KindShare:
			v := f.text(st.Key)
			if v != "" {
				n, err := strconv.Atoi(v)
				ceiling := s.ceiling(st)
				switch {
				case err != nil || n <= 0:
					fail(r, st.Key, "Give a whole number above 0, or leave it empty for "+strconv.Itoa(ceiling)+".")
					return
				case n > ceiling:
					fail(r, st.Key, "At most "+strconv.Itoa(ceiling)+": the ceiling whoever runs docsbot set ("+st.Env+"="+strconv.Itoa(ceiling)+").")
					return
				}
				v = strconv.Itoa(n)
			}
			sets = append(sets, store.WorkspaceSetting{Key: st.Key, Value: v})
		}
	}
	changes, err := s.apply(ctx, team, user, sets)
	if err != nil {
		fail(r, rows[0].Key, storageTrouble)
		return
	}
	r.Ack(nil)
	s.told(ctx, team, user, changes)
}
