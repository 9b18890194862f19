package settings

import (
	"context"
	"strconv"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
)

// The Digests and limits modal: the requests channel (a conversations
// select; Clear on the Home brings the environment's back, as a select
// cannot be emptied) and the questions' shares (text inputs of a whole
// number, at most the environment's value, the ceiling whoever runs
// docsbot set; empty: the environment's). Digest times and channels stay
// with `/docs-visitors digest` and `/docs-health digest`.

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
	s.saveRows(ctx, r, modalLimits, "set the limits", func(f form, st Setting) (string, bool, string, string) {
		if st.Kind == KindChannel {
			ch := f.conversation(st.Key)
			switch {
			case ch == "":
				return "", true, "", "" // not chosen: kept (Clear on the Home empties it)
			case !bot.IsSlackID(ch, "CG"):
				return "", false, st.Key, "Choose a channel."
			}
			return ch, false, "", ""
		}
		v := f.text(st.Key)
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
	})
}
