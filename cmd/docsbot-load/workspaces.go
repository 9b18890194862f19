package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store/redistest"
)

// Goals of the workspaces scenario (issue 43, item 8).
const (
	// targetInstallationBytes bounds a replica's memory growth for each
	// installation it has served.
	targetInstallationBytes = 10 << 10
	// targetEventCommands bounds the Redis commands of finding an event's
	// token once the replica holds it (chatter costs none of its own).
	targetEventCommands = 1.0
)

// The install mode's made-up app.
const (
	loadClientID      = "1111111111.2222222222"
	loadClientSecret  = "load-client-secret"
	loadSigningSecret = "0123456789abcdef0123456789abcdef"
)

// workspacesOptions are the flags of the workspaces scenario.
type workspacesOptions struct {
	installations int
	window        time.Duration
	settle        time.Duration
}

func (o *workspacesOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&o.installations, "installations", 1000, "workspaces that add docsbot by link, each then sending one message")
	fs.DurationVar(&o.window, "window", 10*time.Second, "each measured window at rest")
	fs.DurationVar(&o.settle, "settle", 3*time.Second, "wait before each window")
}

// workspacesResult is the report of the workspaces scenario.
type workspacesResult struct {
	Scenario      string  `json:"scenario"`
	Machine       machine `json:"machine"`
	Installations int     `json:"installations"`
	Window        string  `json:"window"`
	LoadStart     string  `json:"load_average_start"`
	LoadEnd       string  `json:"load_average_end"`

	InstallSeconds      float64 `json:"install_seconds"`
	RestOnePerS         float64 `json:"redis_commands_per_s_at_rest_one_installation"`
	RestAllPerS         float64 `json:"redis_commands_per_s_at_rest_all_installations"`
	RSSOne              int64   `json:"rss_bytes_one_installation"`
	RSSAll              int64   `json:"rss_bytes_all_installations"`
	BytesPerInstall     float64 `json:"rss_bytes_per_installation"`
	EventCommands       float64 `json:"redis_commands_per_event"`
	EventsAnswered      int     `json:"events_acknowledged"`
	CallsOnAnothersTeam int     `json:"calls_on_another_workspace"`

	issues []string
}

func (r *workspacesResult) title() string {
	return fmt.Sprintf("docsbot-load workspaces: %d workspaces add docsbot by link (install mode, HTTP), each then sends a message; one replica", r.Installations)
}

func (r *workspacesResult) problems() []string { return r.issues }

func (r *workspacesResult) sections() []section {
	return []section{
		{heading: "Installations", rows: []row{
			fig("installs through the OAuth flow", "%d in %.1f s", r.Installations, r.InstallSeconds),
			goal("RSS growth per installation served", fmt.Sprintf("%.0f B (%.1f → %.1f MiB)", r.BytesPerInstall, float64(r.RSSOne)/(1<<20), float64(r.RSSAll)/(1<<20)),
				fmt.Sprintf("≤ %d KB", targetInstallationBytes>>10), r.BytesPerInstall <= targetInstallationBytes),
			goal("Redis commands a second at rest, one installation → all", fmt.Sprintf("%.1f → %.1f", r.RestOnePerS, r.RestAllPerS),
				"no more with all", r.RestAllPerS <= r.RestOnePerS+1),
			goal("Redis commands per message once the token is held", fmt.Sprintf("%.2f", r.EventCommands), fmt.Sprintf("≤ %.0f", targetEventCommands), r.EventCommands <= targetEventCommands),
			goal("calls made with another workspace's token", fmt.Sprintf("%d", r.CallsOnAnothersTeam), "0", r.CallsOnAnothersTeam == 0),
		}},
		machineSection(r.Machine, r.LoadStart, r.LoadEnd),
	}
}

// runWorkspaces starts one replica in install mode, measures it at rest
// with one installation, has every other workspace add docsbot by link and
// send a message (each replica lookup of a token is then held), and
// measures it at rest again.
func runWorkspaces(ctx context.Context, e env, o workspacesOptions) (*workspacesResult, error) {
	if o.installations < 2 || o.window <= 0 {
		return nil, errors.New("workspaces: want --installations ≥ 2 and --window > 0")
	}
	w, err := startWorkspacesWorld(ctx, e, o.installations)
	if err != nil {
		return nil, err
	}
	defer w.close()
	r, public, teams, p := w.r, w.public, w.teams, w.bot
	res := &workspacesResult{Scenario: "workspaces", Machine: thisMachine(), Installations: o.installations, Window: o.window.String(), LoadStart: loadAvg()}
	bots := []*botProcess{p}

	// One installation, served once.
	if err := installByLink(ctx, r, public, teams[0], workspacePerson(0)); err != nil {
		return nil, err
	}
	if _, err := sendMessages(ctx, r, 0, 1); err != nil {
		return nil, err
	}
	one, err := restWindow(ctx, r, bots, o)
	if err != nil {
		return nil, err
	}
	res.RestOnePerS, res.RSSOne = one.perS, one.rss

	// Every other workspace adds docsbot and sends a message.
	began := time.Now()
	for i := 1; i < o.installations; i++ {
		if err := installByLink(ctx, r, public, teams[i], workspacePerson(i)); err != nil {
			return nil, fmt.Errorf("install %d: %w", i, err)
		}
	}
	res.InstallSeconds = round3(time.Since(began).Seconds())
	if _, err := sendMessages(ctx, r, 1, o.installations); err != nil {
		return nil, err
	}
	all, err := restWindow(ctx, r, bots, o)
	if err != nil {
		return nil, err
	}
	res.RestAllPerS, res.RSSAll = all.perS, all.rss
	res.BytesPerInstall = round3(float64(res.RSSAll-res.RSSOne) / float64(o.installations-1))

	// Every workspace again: the tokens are held.
	start, err := r.store.Stats().ServerStats(ctx)
	if err != nil {
		return nil, err
	}
	n, err := sendMessages(ctx, r, 0, o.installations)
	if err != nil {
		return nil, err
	}
	end, err := r.store.Stats().ServerStats(ctx)
	if err != nil {
		return nil, err
	}
	total, _ := commandDelta(start, end, 1)
	res.EventsAnswered = n
	res.EventCommands = round3(float64(total) / float64(max(n, 1)))
	for _, c := range r.slack.Calls("") {
		if c.Team != "" && c.NamedTeam != "" && c.Team != c.NamedTeam {
			res.CallsOnAnothersTeam++
		}
	}
	res.LoadEnd = loadAvg()
	return res, nil
}

// workspacesWorld is the scenario's world: the rig, with installations
// workspaces in the fake Slack (each with a person and a channel), and one
// replica in install mode over HTTP at public.
type workspacesWorld struct {
	r       *rig
	public  string
	teams   []string
	bot     *botProcess
	cleanup func()
}

func (w *workspacesWorld) close() {
	if w.r != nil {
		w.r.close()
	}
	w.cleanup()
}

// startWorkspacesWorld starts the world and waits until its replica serves
// Slack's requests.
func startWorkspacesWorld(ctx context.Context, e env, installations int) (_ *workspacesWorld, err error) {
	bin, cleanup, err := botBinary(ctx, e)
	if err != nil {
		return nil, err
	}
	w := &workspacesWorld{cleanup: cleanup}
	defer func() {
		if err != nil {
			w.close()
		}
	}()
	addr := redistest.FreeAddr()
	public := "http://" + addr
	r, err := newRig(e.log, rigOptions{bin: bin, botEnv: e.botEnv,
		api:   []docsapitest.Option{docsapitest.WithLimits(docsapitest.Limits{})},
		slack: []slacktest.Option{slacktest.WithHTTPDelivery(public, loadSigningSecret), slacktest.WithOAuth(loadClientID, loadClientSecret)}})
	if err != nil {
		return nil, err
	}
	w.r = r
	teams := make([]string, installations)
	for i := range teams {
		teams[i] = fmt.Sprintf("T%07d", i)
		r.slack.AddWorkspace(slacktest.Workspace{Team: teams[i], Name: "Workspace " + teams[i]})
		r.slack.AddMember(teams[i], workspacePerson(i), "person")
		r.slack.AddChannel(slacktest.Channel{ID: workspaceChannel(i), Name: "general", BotMember: true, Team: teams[i]})
	}
	settings := append(installSettings(public, newSecretsKey()), "DOCSBOT_HTTP_ADDR="+addr, "DOCSBOT_OPS_ADDR=127.0.0.1:0")
	p, err := startProcess(r.bin, []string{"serve"}, r.dir, r.botEnv(settings), nil)
	if err != nil {
		return nil, err
	}
	r.bot = p
	if err := waitServing(ctx, r); err != nil {
		return nil, err
	}
	w.public, w.teams, w.bot = public, teams, p
	return w, nil
}

func workspacePerson(i int) string  { return fmt.Sprintf("U%07d", i) }
func workspaceChannel(i int) string { return fmt.Sprintf("C%07d", i) }

// waitServing waits until the replica answers Slack's url_verification.
func waitServing(ctx context.Context, r *rig) error {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	for {
		if err := r.slack.VerifyURL(ctx); err == nil {
			return nil
		}
		if err := r.bot.alive(); err != nil {
			return err
		}
		if !sleep(ctx, 50*time.Millisecond) {
			return fmt.Errorf("the bot did not serve Slack's requests in time:\n%s", r.bot.output())
		}
	}
}

// installByLink adds docsbot to team as person would: signed in to the
// fake Slack, Add to Slack, approved.
func installByLink(ctx context.Context, r *rig, public, team, person string) error {
	jar, err := cookiejar.New(nil)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.slack.SignInURL(team, person, public+"/slack/install"), nil)
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Jar: jar, Timeout: 20 * time.Second}).Do(req)
	if err != nil {
		return err
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(page), "docsbot was added") {
		return fmt.Errorf("the install of %s ended on %d", team, resp.StatusCode)
	}
	return nil
}

// sendMessages posts a person's chatter in the channels of workspaces
// [from, to), each delivered and acknowledged, and returns how many were.
func sendMessages(ctx context.Context, r *rig, from, to int) (int, error) {
	answered := func() int {
		n := 0
		for _, d := range r.slack.HTTPDeliveries() {
			if d.Status != 0 {
				n++
			}
		}
		return n
	}
	before := answered()
	for i := from; i < to; i++ {
		if _, _, err := r.slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: workspaceChannel(i), UserID: workspacePerson(i), Text: "good morning"}); err != nil {
			return i - from, fmt.Errorf("message in workspace %d: %w", i, err)
		}
	}
	// Delivered over HTTP in the background: wait for every answer.
	if err := r.waitSlack(ctx, 20*time.Millisecond, func() bool { return answered() >= before+to-from }); err != nil {
		return answered() - before, fmt.Errorf("waiting for the messages' answers: %w", err)
	}
	return to - from, nil
}

// rest is what restWindow read.
type rest struct {
	perS float64
	rss  int64
}

// restWindow measures the replica at rest: Redis commands a second and its
// RSS at the end.
func restWindow(ctx context.Context, r *rig, bots []*botProcess, o workspacesOptions) (rest, error) {
	if !sleep(ctx, o.settle) {
		return rest{}, ctx.Err()
	}
	m, err := measure(ctx, r, bots, o.window)
	if err != nil {
		return rest{}, err
	}
	total, _ := commandDelta(m.start, m.end, 1)
	st, err := bots[0].stats()
	if err != nil {
		return rest{}, err
	}
	return rest{perS: round3(float64(total) / m.took.Seconds()), rss: st.RSS}, nil
}
