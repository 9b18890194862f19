package slackweb

import (
	"context"
	"net/http"
	"slices"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// Every request to /api/ acts for one of the page's people ([WithPeople]):
// the one its ActingHeader names (the page's fetch calls), or its
// ActingParam (the event stream and file links, which cannot set headers),
// else the first. A request naming anyone else, or two different people,
// is refused (400 unknown_person), so that nothing is ever done as someone
// the page was not set up to be.
const (
	// ActingHeader names the person a request acts for.
	ActingHeader = "X-Slackweb-As"
	// ActingParam is the query parameter naming the person.
	ActingParam = "as"
)

// PersonView is one of the people the page can act as, for its switcher.
type PersonView struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// About says who they are: the configured words, else "member",
	// "guest", "single-channel guest" or "another organisation".
	About string `json:"about"`
}

// actingKey is the request context's key of the person acting.
type actingKey struct{}

// withActing runs next for the person the request names, refusing a
// request that names someone the page cannot act as.
func (h *Handler) withActing(w http.ResponseWriter, r *http.Request, next http.Handler) {
	id, ok := h.acting(r)
	if !ok {
		h.cfg.logger.Info("slackweb: request refused", "path", r.URL.Path, "error", "unknown_person")
		writeJSON(w, http.StatusBadRequest, SendResponse{Error: "unknown_person",
			Message: "This page cannot act as that person: choose someone under \"You are\"."})
		return
	}
	next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), actingKey{}, id)))
}

// acting is the person r acts for and whether the page may act as them.
func (h *Handler) acting(r *http.Request) (string, bool) {
	header, param := r.Header.Get(ActingHeader), r.URL.Query().Get(ActingParam)
	id := header
	switch {
	case header != "" && param != "" && header != param:
		return "", false
	case id == "":
		id = param
	}
	if id == "" {
		return h.cfg.people[0].ID, true
	}
	return id, slices.ContainsFunc(h.cfg.people, func(p Person) bool { return p.ID == id })
}

// me is the person the request acts for (set by withActing).
func me(r *http.Request) string {
	id, _ := r.Context().Value(actingKey{}).(string)
	return id
}

// defaultPerson is the person a request naming nobody acts for.
func (h *Handler) defaultPerson() string { return h.cfg.people[0].ID }

// people are the page's people as its switcher shows them.
func (h *Handler) people(names map[string]string) []PersonView {
	out := make([]PersonView, 0, len(h.cfg.people))
	for _, p := range h.cfg.people {
		about := p.About
		if about == "" {
			about = aboutStanding(h.srv.StandingOf(p.ID))
		}
		name := names[p.ID]
		if name == "" {
			name = p.ID
		}
		out = append(out, PersonView{ID: p.ID, Name: name, About: about})
	}
	return out
}

// aboutStanding says who a person is from what the workspace knows of them.
func aboutStanding(st slacktest.Standing) string {
	switch {
	case st.Team != "":
		return "another organisation"
	case st.Guest == "single":
		return "single-channel guest"
	case st.Guest != "":
		return "guest"
	}
	return "member"
}

// visible reports whether person sees channel c: a channel they are in
// (slacktest.Server.Member: by default every member of the workspace, but
// not its guests, who are in the channels that name them, nor people of
// another organisation), or their own direct message with the bot.
func (h *Handler) visible(c slacktest.Channel, person string) bool {
	if c.IMUser != "" {
		return c.IMUser == person
	}
	return h.srv.Member(c.ID, person)
}
