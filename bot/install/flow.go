package install

import (
	"cmp"
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/store"
)

// serveInstall sends the browser to Slack's consent screen with a new
// state, bound to the browser by a cookie.
func (f *Feature) serveInstall(w http.ResponseWriter, r *http.Request) {
	state, _ := f.state.make(f.cfg.Now())
	http.SetCookie(w, &http.Cookie{
		Name: stateCookie, Value: state, Path: "/slack/", MaxAge: int(stateLife / time.Second),
		HttpOnly: true, Secure: strings.HasPrefix(f.cfg.PublicURL, "https://"), SameSite: http.SameSiteLaxMode,
	})
	q := url.Values{
		"client_id":    {f.cfg.ClientID},
		"scope":        {strings.Join(f.cfg.Scopes, ",")},
		"redirect_uri": {f.redirectURL()},
		"state":        {state},
	}
	http.Redirect(w, r, f.slackBase()+"/oauth/v2/authorize?"+q.Encode(), http.StatusFound)
}

// redirectURL is where Slack sends the browser back: it must be the one
// the app's manifest lists.
func (f *Feature) redirectURL() string { return f.cfg.PublicURL + PathRedirect }

// slackBase is Slack's web address, the API URL without its /api/ path:
// https://slack.com, or a test's fake Slack.
func (f *Feature) slackBase() string {
	base := strings.TrimSuffix(f.cfg.APIURL, "/")
	return strings.TrimSuffix(base, "/api")
}

// serveRedirect ends an install: the state checked, the code exchanged
// once, the installation saved, the installer welcomed. A state that is
// not valid is refused before Slack is asked anything; a cancelled install
// saves nothing.
func (f *Feature) serveRedirect(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("error") != "" {
		page(w, http.StatusOK, pageCancelled, pageData{})
		return
	}
	if err := f.checkState(r.Context(), r, q.Get("state")); err != nil {
		code := http.StatusBadRequest
		if !errors.Is(err, errState) {
			code = http.StatusServiceUnavailable
		}
		page(w, code, pageBadState, pageData{})
		return
	}
	http.SetCookie(w, &http.Cookie{Name: stateCookie, Value: "", Path: "/slack/", MaxAge: -1})
	if q.Get("code") == "" {
		page(w, http.StatusBadRequest, pageBadState, pageData{})
		return
	}
	ctx := r.Context()
	resp, err := slack.GetOAuthV2ResponseContext(ctx, f.cfg.HTTP, f.cfg.ClientID, f.cfg.ClientSecret, q.Get("code"), f.redirectURL(), slack.OAuthOptionAPIURL(f.cfg.APIURL))
	if err != nil {
		f.core.Logger().Warn("Slack did not complete an install", "code", bot.SlackCode(err), "err", err)
		page(w, http.StatusBadGateway, pageFailed, pageData{Code: bot.SlackCode(err)})
		return
	}
	if !Allowed(f.cfg.Teams, store.Workspace{Team: resp.Team.ID, Enterprise: resp.Enterprise.ID}) {
		// Slack issued a token for a workspace this docsbot does not
		// serve: it is given back at once, and nothing is saved.
		api := slack.New(resp.AccessToken, slack.OptionAPIURL(f.cfg.APIURL), slack.OptionHTTPClient(f.cfg.HTTP))
		if _, err := api.SendAuthRevokeContext(ctx, resp.AccessToken); err != nil {
			f.core.Logger().Warn("the token of a workspace refused could not be revoked", "team", resp.Team.ID, "err", err)
		}
		f.core.Logger().Info("an install from a workspace not in DOCSBOT_TEAMS refused", "team", resp.Team.ID, "enterprise", resp.Enterprise.ID)
		page(w, http.StatusForbidden, pageNotAllowed, pageData{Workspace: cmp.Or(resp.Team.Name, resp.Enterprise.Name)})
		return
	}
	in, ws, err := f.save(ctx, resp)
	if err != nil {
		f.core.Logger().Error("an install Slack completed could not be saved", "team", resp.Team.ID, "enterprise", resp.Enterprise.ID, "err", err)
		page(w, http.StatusServiceUnavailable, pageFailed, pageData{})
		return
	}
	if err := f.queueWelcome(ctx, in, ws); err != nil {
		f.core.Logger().Warn("the installer's welcome could not be queued", "installation", in.ID(), "err", err)
	}
	f.core.Logger().Info("docsbot installed", "installation", in.ID(), "by", in.InstalledBy, "expires", in.Expires)
	f.core.Audit().Record(ctx, store.AuditRecord{Team: cmp.Or(ws.Team, ws.Enterprise), User: in.InstalledBy, Action: store.AuditInstall,
		Outcome: "installed", Detail: strings.Join(in.Scopes, " "), Work: "install:" + in.ID() + ":" + in.Version})
	page(w, http.StatusOK, pageInstalled, pageData{
		Workspace: cmp.Or(in.TeamName, in.EnterpriseName),
		Open:      f.slackBase() + "/app_redirect?" + url.Values{"app": {in.AppID}, "team": {cmp.Or(ws.Team, ws.Enterprise)}}.Encode(),
	})
}

// checkState accepts state when it is signed, not expired, the browser's
// and used for the first time: errState otherwise, another error when
// Redis cannot say whether it was used.
func (f *Feature) checkState(ctx context.Context, r *http.Request, state string) error {
	nonce, err := f.state.check(state, f.cfg.Now())
	if err != nil {
		return err
	}
	c, err := r.Cookie(stateCookie)
	if err != nil || subtle.ConstantTimeCompare([]byte(c.Value), []byte(state)) != 1 {
		return errState
	}
	first, err := f.deps.Marks.Once(ctx, "install-state:"+nonce, stateLife)
	switch {
	case err != nil:
		return err
	case !first:
		return errState
	}
	return nil
}

// save keeps what oauth.v2.access answered as the installation, and
// returns it with the workspace it was made in.
func (f *Feature) save(ctx context.Context, resp *slack.OAuthV2Response) (store.Installation, store.Workspace, error) {
	now := f.cfg.Now()
	in := store.Installation{
		Workspace:      store.Workspace{Team: resp.Team.ID, Enterprise: resp.Enterprise.ID},
		OrgWide:        resp.IsEnterpriseInstall,
		TeamName:       resp.Team.Name,
		EnterpriseName: resp.Enterprise.Name,
		BotToken:       resp.AccessToken,
		RefreshToken:   resp.RefreshToken,
		BotUserID:      resp.BotUserID,
		AppID:          resp.AppID,
		Scopes:         splitScopes(resp.Scope),
		InstalledBy:    resp.AuthedUser.ID,
		InstalledAt:    now,
		Issued:         now,
	}
	if resp.ExpiresIn > 0 {
		in.Expires = now.Add(time.Duration(resp.ExpiresIn) * time.Second)
	}
	if in.OrgWide {
		in.Workspace.Team = ""
	}
	ws := in.Workspace
	// The bot's own id (its messages' bot_id) comes from auth.test only.
	opts := []slack.Option{slack.OptionAPIURL(f.cfg.APIURL), slack.OptionHTTPClient(f.cfg.HTTP)}
	if auth, err := slack.New(in.BotToken, opts...).AuthTestContext(ctx); err == nil {
		in.BotID = auth.BotID
		if ws.Team == "" {
			ws.Team = auth.TeamID
		}
	} else {
		f.core.Logger().Warn("auth.test failed after an install; the bot's messages are told apart by its user only", "err", err)
	}
	saved, err := f.deps.Installations.Save(ctx, in)
	if err != nil {
		return store.Installation{}, store.Workspace{}, err
	}
	f.deps.Directory.Forget(saved.ID())
	return saved, ws, nil
}

// splitScopes reads oauth.v2.access's comma-separated scopes.
func splitScopes(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
