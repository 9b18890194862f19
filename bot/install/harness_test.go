package install_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/app"
	"github.com/docsbot/docsbot/bot/bottest"
	"github.com/docsbot/docsbot/bot/install"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

var redisURL string

func TestMain(m *testing.M) { bottest.Main(m, &redisURL) }

const (
	signingSecret = "install-signing-secret"
	clientID      = "1111.2222"
	clientSecret  = "install-client-secret"
	// other is a second workspace, another company's, with its channel and
	// person.
	other       = "T0OTHER"
	otherChan   = "C0OTHER"
	olive       = "U0OLIVE"
	alice       = "U0ALICE"
	primary     = "T0TEST"
	general     = bottest.General
	otherBotUID = "U0BOTOTHER"
)

// secretsKey is the world's DOCSBOT_SECRETS_KEY.
var secretsKey = bytes.Repeat([]byte{9}, store.SealKeySize)

// front is the public address of the world's replicas: a balancer that
// sends each request to one of them in turn, as a load balancer does.
type front struct {
	srv  *httptest.Server
	mu   sync.Mutex
	next int
	urls []*url.URL
}

func (f *front) add(t *testing.T, raw string) {
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.urls = append(f.urls, u)
	f.mu.Unlock()
}

// only has the front forward to raw alone, as after the replicas before it
// stopped.
func (f *front) only(t *testing.T, raw string) {
	f.mu.Lock()
	f.urls = nil
	f.mu.Unlock()
	f.add(t, raw)
}

func (f *front) pick() *url.URL {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	return f.urls[f.next%len(f.urls)]
}

// installWorld is a world whose fake Slack delivers over signed HTTP to
// the front, knows the app's client id and secret, and has a second
// workspace where docsbot is not installed yet.
func installWorld(t *testing.T, opts ...slacktest.Option) (*bottest.Harness, *front) {
	t.Helper()
	return installWorldAPI(t, opts)
}

// installWorldAPI is installWorld with options of the docs API's server.
func installWorldAPI(t *testing.T, opts []slacktest.Option, apiOpts ...docsapitest.Option) (*bottest.Harness, *front) {
	t.Helper()
	f := &front{}
	f.srv = httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:      func(r *httputil.ProxyRequest) { r.SetURL(f.pick()); r.Out.Host = r.In.Host },
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, _ error) { w.WriteHeader(http.StatusBadGateway) },
	})
	t.Cleanup(f.srv.Close)
	h := bottest.NewWith(t, redisURL, append([]slacktest.Option{
		slacktest.WithHTTPDelivery(f.srv.URL, signingSecret),
		slacktest.WithHTTPRetries(10*time.Second, 0, 200*time.Millisecond, 500*time.Millisecond, time.Second),
		slacktest.WithOAuth(clientID, clientSecret),
	}, opts...), apiOpts...)
	h.Slack.AddWorkspace(slacktest.Workspace{Team: other, Name: "Other & Co", BotUserID: otherBotUID, BotID: "B0BOTOTHER"})
	h.Slack.AddMember(other, olive, "olive")
	h.Slack.AddChannel(slacktest.Channel{ID: otherChan, Name: "other-general", BotMember: true, Team: other})
	return h, f
}

// installBot starts a replica in install mode behind the front.
func installBot(h *bottest.Harness, f *front, mod ...func(*app.Config)) *bottest.Running {
	h.T.Helper()
	c := app.Config{
		Bot:     bot.Config{Mode: bot.ModeHTTP, SigningSecret: signingSecret, InstallMode: true},
		Install: install.Config{ClientID: clientID, ClientSecret: clientSecret, PublicURL: f.srv.URL, SecretsKeys: [][]byte{secretsKey}},
	}
	for _, m := range mod {
		m(&c)
	}
	r := h.StartBot(bottest.Config{Config: c})
	f.add(h.T, r.URL)
	return r
}

// browser is a person's web browser: it keeps cookies and follows
// redirects, and remembers the pages it was sent through.
type browser struct {
	t       *testing.T
	client  *http.Client
	visited []string
}

func newBrowser(t *testing.T) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	b := &browser{t: t}
	b.client = &http.Client{Jar: jar, Timeout: 20 * time.Second, CheckRedirect: func(r *http.Request, _ []*http.Request) error {
		b.visited = append(b.visited, r.URL.String())
		return nil
	}}
	return b
}

// get opens u and returns the status and the page of where it ended.
func (b *browser) get(u string) (int, string) {
	b.t.Helper()
	resp, err := b.client.Get(u)
	if err != nil {
		b.t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// installAs installs docsbot as user of team: signed in to Slack, Add to
// Slack, approved.
func installAs(h *bottest.Harness, f *front, team, user string) (int, string, *browser) {
	b := newBrowser(h.T)
	status, page := b.get(h.Slack.SignInURL(team, user, f.srv.URL+install.PathInstall))
	return status, page, b
}

// stopAtRedirect is a browser that stops before docsbot's redirect page,
// returning its address, so that a test can open it as it likes.
func stopAtRedirect(h *bottest.Harness, f *front, team, user string) (*browser, string) {
	b := newBrowser(h.T)
	var at string
	b.client.CheckRedirect = func(r *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(r.URL.Path, install.PathRedirect) {
			at = r.URL.String()
			return http.ErrUseLastResponse
		}
		return nil
	}
	b.get(h.Slack.SignInURL(team, user, f.srv.URL+install.PathInstall))
	if at == "" {
		h.T.Fatal("Slack did not send the browser back to docsbot")
	}
	return b, at
}
