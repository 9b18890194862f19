package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/deploy"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// deployedMarker starts the live message of a deployment that succeeded
// (bot/deploy: view.go); keep it in step.
const deployedMarker = ":white_check_mark:"

// deploysOptions are the flags of the deploys scenario.
type deploysOptions struct {
	deploys int
	rate    float64
	cost    costOptions
}

// register adds the scenario's flags to fs.
func (o *deploysOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&o.deploys, "deploys", 50, "deployments started with /docs-deploy and its Deploy button, each followed to its end")
	// The organisation's budget is 10 deployments each 10 s (bot/deploy).
	fs.Float64Var(&o.rate, "rate", 0.8, "deployments started per second (the bot allows 10 each 10 s)")
	o.cost.register(fs)
}

// deploysResult is the report of the deploys scenario.
type deploysResult struct {
	Scenario  string  `json:"scenario"`
	Machine   machine `json:"machine"`
	LoadStart string  `json:"load_average_start"`
	LoadEnd   string  `json:"load_average_end"`
	Deploys   int     `json:"deploys"`
	Rate      float64 `json:"rate_per_s"`

	// Ended counts the live messages that show their deployment done;
	// Started the deployments the docs API received, StatusReads its
	// status reads.
	Ended       int `json:"ended"`
	Started     int `json:"api_deploys"`
	StatusReads int `json:"api_status_reads"`
	// Cost is what a deployment cost the bot, /docs-deploy and its Deploy
	// button to the deployment's end in its live message, and the settle
	// after.
	Cost unitCost `json:"per_deployment"`

	issues []string
}

func (r *deploysResult) title() string {
	return fmt.Sprintf("docsbot-load deploys: %d × /docs-deploy and Deploy at %.1f/s, each followed to its end (queued, in progress, done)", r.Deploys, r.Rate)
}

func (r *deploysResult) problems() []string { return r.issues }

func (r *deploysResult) sections() []section {
	per := func(n int) float64 { return float64(n) / float64(max(r.Deploys, 1)) }
	return []section{
		{heading: "Deployments followed (the question, the press, the start, the live message until the end)", rows: append([]row{
			fig("deployments pressed / started at the API / shown done", "%d / %d / %d", r.Deploys, r.Started, r.Ended),
			fig("status reads per deployment", "%.2f", per(r.StatusReads)),
		}, r.Cost.rows("deployment")...)},
		machineSection(r.Machine, r.LoadStart, r.LoadEnd),
	}
}

// runDeploys types /docs-deploy and presses its Deploy button o.deploys
// times at o.rate, and waits until every live message shows its deployment
// done; the deployments go queued, in progress and done at the docs API
// test server's default pace (one status read each).
func runDeploys(ctx context.Context, e env, o deploysOptions) (*deploysResult, error) {
	if o.deploys <= 0 || o.rate <= 0 {
		return nil, errors.New("deploys: --deploys and --rate must be positive")
	}
	ctx, cancel := context.WithTimeout(ctx, time.Duration(float64(o.deploys+1)/o.rate*float64(time.Second))+o.cost.idle+o.cost.settle+2*time.Minute)
	defer cancel()
	bin, cleanup, err := botBinary(ctx, e)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	r, err := newRig(e.log, rigOptions{bin: bin, botEnv: e.botEnv, api: []docsapitest.Option{docsapitest.WithLimits(docsapitest.Limits{})}})
	if err != nil {
		return nil, err
	}
	defer r.close()
	if err := r.startBot(ctx, fmt.Sprintf("DOCSBOT_DEPLOY_PER_USER=%d", o.deploys+2), "DOCSBOT_POLL_INTERVAL=1h", "DOCSBOT_POLL_MAX_INTERVAL=1h"); err != nil {
		return nil, err
	}
	res := &deploysResult{Scenario: "deploys", Machine: thisMachine(), Deploys: o.deploys, Rate: o.rate, LoadStart: loadAvg()}

	// One deployment first, followed to its end, warms the bot up.
	e.log.Info("warm-up deployment")
	if err := deployAll(ctx, r, 1, o.rate); err != nil {
		return nil, fmt.Errorf("warm-up: %w", err)
	}
	started0, reads0 := r.api.Count(docsapitest.EndpointDeploy), r.api.Count(docsapitest.EndpointDeployStatus)

	e.log.Info("deploying", "deploys", o.deploys, "rate", o.rate)
	res.Cost, err = o.cost.measure(ctx, r, o.deploys, func() error { return deployAll(ctx, r, o.deploys, o.rate) })
	if err != nil {
		return nil, err
	}
	res.LoadEnd = loadAvg()
	res.Ended = endedDeploys(r.slack) - 1
	res.Started = r.api.Count(docsapitest.EndpointDeploy) - started0
	res.StatusReads = r.api.Count(docsapitest.EndpointDeployStatus) - reads0
	if res.Ended != o.deploys || res.Started != o.deploys {
		res.issues = append(res.issues, fmt.Sprintf("%d deployments started at the API and %d shown done, want %d each", res.Started, res.Ended, o.deploys))
	}
	if err := r.stopBot(); err != nil {
		res.issues = append(res.issues, err.Error())
	}
	return res, nil
}

// deployAll starts n deployments at rate, each with /docs-deploy and the
// Deploy button of its question, and waits until n more live messages show
// their deployment done.
func deployAll(ctx context.Context, r *rig, n int, rate float64) error {
	want := endedDeploys(r.slack) + n
	pressed := map[string]bool{}
	for _, q := range r.slack.Ephemerals(loadUser) {
		pressed[q.TS] = true
	}
	tick := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer tick.Stop()
	for i := range n {
		if i > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-tick.C:
			}
		}
		if _, err := r.slack.SlashCommand(ctx, slacktest.SlashCommand{Command: deploy.Command, UserID: loadUser, ChannelID: loadChannel}); err != nil {
			return fmt.Errorf("deployment %d: %w", i, err)
		}
		q, ok := newQuestion(r.slack, pressed)
		if !ok {
			return fmt.Errorf("deployment %d: no question with a Deploy button in the ack", i)
		}
		pressed[q] = true
		if _, err := r.slack.Act(ctx, slacktest.Action{UserID: loadUser, ChannelID: loadChannel, MessageTS: q, ActionID: deploy.ActionConfirm}); err != nil {
			return fmt.Errorf("deployment %d: pressing Deploy: %w", i, err)
		}
	}
	if err := r.waitSlack(ctx, linkTick, func() bool { return endedDeploys(r.slack) >= want }); err != nil {
		return fmt.Errorf("%d of %d deployments shown done: %w", endedDeploys(r.slack)-want+n, n, err)
	}
	return nil
}

// newQuestion is the ts of a question with a Deploy button shown to the
// load user and not pressed yet.
func newQuestion(sl *slacktest.Server, pressed map[string]bool) (string, bool) {
	for _, m := range sl.Ephemerals(loadUser) {
		if !pressed[m.TS] && strings.Contains(string(m.Blocks), deploy.ActionConfirm) {
			return m.TS, true
		}
	}
	return "", false
}

// endedDeploys counts the bot's live messages that show their deployment
// done.
func endedDeploys(sl *slacktest.Server) int {
	n, self := 0, sl.BotUserID()
	for _, m := range sl.Messages(loadChannel) {
		if m.User == self && strings.HasPrefix(m.Text, deployedMarker) {
			n++
		}
	}
	return n
}
