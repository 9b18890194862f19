package slacktest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"
)

// Slack's limits on views.
const (
	maxViewBlocks     = 100
	maxViewTitleRunes = 24
	// maxPrivateMetadata is the most characters of a view's private_metadata.
	maxPrivateMetadata = 3000
	// maxViewStack is how many modals a stack holds (views.push: push_limit_reached).
	maxViewStack = 3
)

// View is a modal or Home tab the bot opened, pushed, updated or published.
type View struct {
	ID string
	// Type is "modal" or "home".
	Type string
	// UserID is the person the view is shown to.
	UserID string
	Title  string
	// Submit and Close are the labels of a modal's submit and close
	// buttons, "" when the view sets none.
	Submit          string
	Close           string
	CallbackID      string
	PrivateMetadata string
	ExternalID      string
	Hash            string
	RootViewID      string
	Blocks          json.RawMessage
	// Open is false once a modal was closed or submitted away.
	Open bool
	// Updates counts views.update calls (and, for a Home tab, publishes after the first).
	Updates int
	// Errors are the errors the app answered the last submission with
	// (response_action "errors"), by block_id.
	Errors map[string]string
}

// viewDef is the view argument of views.open/push/update/publish.
type viewDef struct {
	Type            string          `json:"type"`
	Title           *textObject     `json:"title"`
	Close           *textObject     `json:"close"`
	Submit          *textObject     `json:"submit"`
	Blocks          json.RawMessage `json:"blocks"`
	PrivateMetadata string          `json:"private_metadata"`
	CallbackID      string          `json:"callback_id"`
	ExternalID      string          `json:"external_id"`
	ClearOnClose    bool            `json:"clear_on_close"`
	NotifyOnClose   bool            `json:"notify_on_close"`
}

// view is a stored view. Guarded by Server.mu.
type view struct {
	def      viewDef
	id       string
	user     string
	hash     string
	root     string
	previous string
	open     bool
	updates  int
	state    map[string]map[string]any // the values of its input blocks (SubmitView)
	errors   map[string]string         // the errors of the last response_action "errors"
}

// invalidArgs is Slack's invalid_arguments answer with its explanation.
func invalidArgs(msg string) apiResult {
	return apiResult{err: "invalid_arguments", messages: []string{msg}}
}

// parseView reads and checks the view argument as Slack does; wantType is
// "modal" or "home".
func parseView(raw, wantType string) (viewDef, apiResult, bool) {
	var d viewDef
	if strings.TrimSpace(raw) == "" {
		return d, invalidArgs("missing required field: view"), false
	}
	if err := json.Unmarshal([]byte(raw), &d); err != nil {
		return d, invalidArgs("invalid `view`"), false
	}
	if d.Type != wantType {
		return d, invalidArgs(fmt.Sprintf("must be one of [%s] [json-pointer:/view/type]", wantType)), false
	}
	if wantType == "modal" {
		if d.Title == nil || d.Title.Text == "" {
			return d, invalidArgs("missing required field: title"), false
		}
		if utf8.RuneCountInString(d.Title.Text) > maxViewTitleRunes {
			return d, invalidArgs("must be less than 25 characters [json-pointer:/view/title/text]"), false
		}
	}
	if utf8.RuneCountInString(d.PrivateMetadata) > maxPrivateMetadata {
		return d, invalidArgs("must be less than 3001 characters [json-pointer:/view/private_metadata]"), false
	}
	var blocks []map[string]json.RawMessage
	if b := nonNull(d.Blocks); b != nil {
		if err := json.Unmarshal(b, &blocks); err != nil {
			return d, invalidArgs("must be an array [json-pointer:/view/blocks]"), false
		}
	}
	if len(blocks) > maxViewBlocks {
		return d, invalidArgs("no more than 100 items allowed [json-pointer:/view/blocks]"), false
	}
	if i := firstInvalidBlock(blocks); i >= 0 {
		return d, invalidArgs(fmt.Sprintf("invalid block [json-pointer:/view/blocks/%d]", i)), false
	}
	d.Blocks = nonNull(d.Blocks)
	return d, apiResult{}, true
}

// newViewLocked stores a new view of user with d.
func (s *Server) newViewLocked(d viewDef, user string) (*view, string) {
	if d.ExternalID != "" && s.viewByExternalLocked(d.ExternalID) != nil {
		return nil, "duplicate_external_id"
	}
	v := &view{def: d, id: "V" + strings.ToUpper(randomString(10)), user: user, open: true}
	v.root = v.id
	v.hash = s.viewHashLocked()
	s.views[v.id] = v
	return v, ""
}

func (s *Server) viewHashLocked() string {
	return fmt.Sprintf("%d.%s", s.cfg.now().Unix(), randomHex(8))
}

func (s *Server) viewByExternalLocked(ext string) *view {
	for _, v := range s.views {
		if v.def.ExternalID == ext {
			return v
		}
	}
	return nil
}

// stackLocked lists the open modals of root's stack, bottom first.
func (s *Server) stackLocked(root string) []*view {
	var out []*view
	for id := s.topOfLocked(root); id != ""; id = s.views[id].previous {
		out = append(out, s.views[id])
	}
	slices.Reverse(out)
	return out
}

// topOfLocked is the id of the open modal on top of root's stack, or "".
func (s *Server) topOfLocked(root string) string {
	top := ""
	for _, v := range s.views {
		if v.root == root && v.open && v.def.Type == "modal" && (top == "" || s.depthLocked(v) > s.depthLocked(s.views[top])) {
			top = v.id
		}
	}
	return top
}

func (s *Server) depthLocked(v *view) int {
	n := 0
	for ; v.previous != ""; v = s.views[v.previous] {
		n++
	}
	return n
}

// wire renders v as Slack's view object.
func (v *view) wire(s *Server) map[string]any {
	blocks := v.def.Blocks
	if blocks == nil {
		blocks = json.RawMessage("[]")
	}
	state := map[string]any{}
	for k, val := range v.state {
		state[k] = val
	}
	var previous any
	if v.previous != "" {
		previous = v.previous
	}
	w := s.homeWorkspaceLocked(v.user)
	out := map[string]any{
		"id":                    v.id,
		"team_id":               w.Team,
		"type":                  v.def.Type,
		"blocks":                blocks,
		"private_metadata":      v.def.PrivateMetadata,
		"callback_id":           v.def.CallbackID,
		"external_id":           v.def.ExternalID,
		"state":                 map[string]any{"values": state},
		"hash":                  v.hash,
		"clear_on_close":        v.def.ClearOnClose,
		"notify_on_close":       v.def.NotifyOnClose,
		"close":                 v.def.Close,
		"submit":                v.def.Submit,
		"root_view_id":          v.root,
		"previous_view_id":      previous,
		"app_id":                s.cfg.appID,
		"app_installed_team_id": w.Team,
		"bot_id":                w.BotID,
	}
	if v.def.Title != nil {
		out["title"] = map[string]any{"type": "plain_text", "text": v.def.Title.Text, "emoji": true}
	}
	return out
}

func (v *view) public() View {
	out := View{
		ID: v.id, Type: v.def.Type, UserID: v.user, CallbackID: v.def.CallbackID,
		PrivateMetadata: v.def.PrivateMetadata, ExternalID: v.def.ExternalID,
		Hash: v.hash, RootViewID: v.root, Blocks: cloneRaw(v.def.Blocks), Open: v.open, Updates: v.updates, Errors: maps.Clone(v.errors),
	}
	if v.def.Title != nil {
		out.Title = v.def.Title.Text
	}
	if v.def.Submit != nil {
		out.Submit = v.def.Submit.Text
	}
	if v.def.Close != nil {
		out.Close = v.def.Close.Text
	}
	return out
}

func viewAnswer(s *Server, v *view) apiResult {
	return apiResult{fields: map[string]any{"view": v.wire(s)}}
}

// triggeredViewLocked reads views.open's and views.push's view and spends
// their trigger_id, returning the view and the person it is for.
func (s *Server) triggeredViewLocked(r *apiRequest) (viewDef, string, apiResult, bool) {
	d, res, ok := parseView(r.params["view"], "modal")
	if !ok {
		return d, "", res, false
	}
	user, code := s.exchangeTriggerLocked(r.params["trigger_id"])
	if code != "" {
		return d, "", fail(code), false
	}
	if !s.ownUserLocked(r.ws, user) {
		return d, "", fail("user_not_found"), false
	}
	return d, user, apiResult{}, true
}

// viewsOpen opens a modal for the person whose interaction issued trigger_id.
func (s *Server) viewsOpen(r *apiRequest) apiResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, user, res, ok := s.triggeredViewLocked(r)
	if !ok {
		return res
	}
	v, code := s.newViewLocked(d, user)
	if code != "" {
		return fail(code)
	}
	return viewAnswer(s, v)
}

// viewsPush pushes a modal onto the stack of the person's open modal.
func (s *Server) viewsPush(r *apiRequest) apiResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, user, res, ok := s.triggeredViewLocked(r)
	if !ok {
		return res
	}
	var top *view
	for _, v := range s.views {
		if v.user == user && v.open && v.def.Type == "modal" && (top == nil || s.depthLocked(v) > s.depthLocked(top)) {
			top = v
		}
	}
	if top == nil {
		return fail("not_found")
	}
	if s.depthLocked(top)+1 >= maxViewStack {
		return fail("push_limit_reached")
	}
	v, code := s.newViewLocked(d, user)
	if code != "" {
		return fail(code)
	}
	v.root, v.previous = top.root, top.id
	return viewAnswer(s, v)
}

// viewsUpdate replaces a view found by view_id or external_id; a hash that is
// not the view's current one is hash_conflict.
func (s *Server) viewsUpdate(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	var v *view
	switch {
	case p["view_id"] != "":
		v = s.views[p["view_id"]]
	case p["external_id"] != "":
		v = s.viewByExternalLocked(p["external_id"])
	default:
		return invalidArgs("either view_id or external_id is required")
	}
	if v == nil || !v.open {
		return fail("not_found")
	}
	d, res, ok := parseView(p["view"], v.def.Type)
	if !ok {
		return res
	}
	if h := p["hash"]; h != "" && h != v.hash {
		return fail("hash_conflict")
	}
	if d.ExternalID == "" {
		d.ExternalID = v.def.ExternalID // the view keeps its external id
	} else if d.ExternalID != v.def.ExternalID && s.viewByExternalLocked(d.ExternalID) != nil {
		return fail("duplicate_external_id")
	}
	v.def = d
	v.hash = s.viewHashLocked()
	v.updates++
	return viewAnswer(s, v)
}

// viewsPublish publishes the Home tab of user_id, replacing the one before.
func (s *Server) viewsPublish(r *apiRequest) apiResult {
	p := r.params
	d, res, ok := parseView(p["view"], "home")
	if !ok {
		return res
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	user := p["user_id"]
	if _, known := s.users[user]; !known || s.botUserLocked(user) {
		return invalidArgs("invalid `user_id`")
	}
	if !s.ownUserLocked(r.ws, user) {
		return fail("user_not_found")
	}
	if id, had := s.homeViews[user]; had {
		v := s.views[id]
		if h := p["hash"]; h != "" && h != v.hash {
			return fail("hash_conflict")
		}
		v.def = d
		v.hash = s.viewHashLocked()
		v.updates++
		return viewAnswer(s, v)
	}
	v, code := s.newViewLocked(d, user)
	if code != "" {
		return fail(code)
	}
	s.homeViews[user] = v.id
	return viewAnswer(s, v)
}

// HomeView returns the Home tab last published for userID.
func (s *Server) HomeView(userID string) (View, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, ok := s.homeViews[userID]
	if !ok {
		return View{}, false
	}
	return s.views[id].public(), true
}

// OpenModals lists the modals open for userID, bottom of the stack first.
func (s *Server) OpenModals(userID string) []View {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []View
	for _, v := range s.views {
		if v.user == userID && v.open && v.def.Type == "modal" && v.previous == "" {
			for _, x := range s.stackLocked(v.root) {
				out = append(out, x.public())
			}
		}
	}
	return out
}

// ViewByID returns the view id, open or closed.
func (s *Server) ViewByID(id string) (View, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.views[id]
	if !ok {
		return View{}, false
	}
	return v.public(), true
}

// OpenHome delivers app_home_opened for userID opening the app's Home tab
// (with the view last published for them, if any) and waits for the ack or
// ctx. It returns the event id.
func (s *Server) OpenHome(ctx context.Context, userID string) (string, error) {
	s.mu.Lock()
	if _, ok := s.users[userID]; !ok || s.botUserLocked(userID) {
		s.mu.Unlock()
		return "", fmt.Errorf("slacktest: Home tab opened by unknown user %q", userID)
	}
	ev := map[string]any{
		"type":    "app_home_opened",
		"user":    userID,
		"channel": s.dmLocked(userID).ID,
		"tab":     "home",
	}
	if id, ok := s.homeViews[userID]; ok {
		ev["view"] = s.views[id].wire(s)
	}
	e, eventID := s.callbackLocked(ev)
	s.mu.Unlock()
	s.changed()
	s.deliver(e)
	_, err := s.waitAck(ctx, e, 0)
	return eventID, err
}
