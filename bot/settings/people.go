package settings

import (
	"context"
	"slices"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/roles"
)

// The People modal has, for each of its settings (Editors, Experts,
// Admins), an input of people, block id the setting's key, and one of
// user groups, block id the key and groupsSuffix. Slack has no select of
// user groups: they are typed by their ids (S…, the group's profile has
// *Copy group ID*), separated by spaces or commas; a mention pasted
// (<!subteam^S…|@docs>) is read as its id. Both left empty clear the
// setting: the environment's applies again.
const groupsSuffix = "_groups"

// peopleModal is the People modal of team, showing what team set.
func (s *settings) peopleModal(ctx context.Context, team string) slack.ModalViewRequest {
	set := s.setIn(ctx, team)
	blocks := []slack.Block{slack.NewSectionBlock(text("Who does what with docsbot in this workspace. Each list set here replaces "+
		"the environment's for this workspace; left empty, the environment's applies."), nil, nil)}
	for _, st := range rowsOf(modalPeople) {
		cur, _ := roles.ParseEditors(strings.Fields(set[st.Key].Value))
		users := slack.NewOptionsMultiSelectBlockElement(slack.MultiOptTypeUser, plain("Choose people"), actionValue)
		users.InitialUsers = cur.Users
		blocks = append(blocks,
			input(st.Key, st.Label, "Left empty with its user groups, the environment's applies ("+st.Env+").", true, users),
			textInput(st.Key+groupsSuffix, st.Label+": user groups", "User group ids (S…), separated by spaces.", strings.Join(cur.Groups, " "), true))
	}
	return modal(ViewPeople, modalPeople, "Save", team, blocks...)
}

// onPeopleSubmitted checks a People submission and saves what it changes,
// all in the ack.
func (s *settings) onPeopleSubmitted(ctx context.Context, r *bot.InteractionRequest) {
	s.saveRows(ctx, r, modalPeople, "set who does what", func(f form, st Setting) (string, bool, string, string) {
		groups, bad := groupIDs(f.text(st.Key + groupsSuffix))
		if bad != "" {
			return "", false, st.Key + groupsSuffix, "`" + bad + "` is no user group id: give ids such as S0123ABCD, separated by spaces."
		}
		var ids []string
		for _, u := range f.users(st.Key) {
			if bot.IsSlackID(u, "UW") && !slices.Contains(ids, u) {
				ids = append(ids, u)
			}
		}
		return strings.Join(append(ids, groups...), " "), false, "", ""
	})
}

// groupIDs reads typed user groups: ids or mentions, separated by spaces
// or commas; bad is the first that is none.
func groupIDs(typed string) (ids []string, bad string) {
	for _, w := range strings.FieldsFunc(typed, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' }) {
		id := w
		if rest, ok := strings.CutPrefix(w, "<!subteam^"); ok {
			id, _, _ = strings.Cut(strings.TrimSuffix(rest, ">"), "|")
		}
		if !bot.IsSlackID(id, "S") {
			return nil, w
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, ""
}
