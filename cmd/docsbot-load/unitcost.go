package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/docsbot/docsbot/store"
)

// unitCost is what one unit of a path (a slash command, an answer, a
// follow-up, a deployment followed) cost the bot over a measured window:
// Redis commands (INFO commandstats, those scripts run included, the tool's
// INFO left out), split by MONITOR into those the bot sent (a script once,
// as its EVALSHA) and those its scripts called inside Redis, and Slack Web
// API calls; each per unit, in all and by name. What the bot's idle loops
// send in the window is in them: IdleRedisPerS says how much that is.
type unitCost struct {
	Units         int     `json:"units"`
	WindowSeconds float64 `json:"window_s"`

	Redis       float64            `json:"redis_commands"`
	RedisByName map[string]float64 `json:"redis_commands_by_name,omitempty"`
	Sent        float64            `json:"redis_commands_sent"`
	SentByName  map[string]float64 `json:"redis_commands_sent_by_name,omitempty"`
	InScripts   float64            `json:"redis_commands_in_scripts"`
	InScriptsBy map[string]float64 `json:"redis_commands_in_scripts_by_name,omitempty"`
	// IdleRedisPerS is the bot's Redis commands a second at rest, measured
	// just before the window (0: not measured).
	IdleRedisPerS float64 `json:"idle_redis_commands_per_s,omitempty"`

	Slack         float64            `json:"slack_calls"`
	SlackByMethod map[string]float64 `json:"slack_calls_by_method,omitempty"`
}

// costMeter counts what the bot of a rig does from start to stop: INFO
// commandstats before and after, MONITOR in between, and the fake Slack's
// calls.
type costMeter struct {
	r      *rig
	mon    *redisMonitor
	redis0 store.ServerStats
	slack0 map[string]int
	at     time.Time
}

// startCost starts counting. close it once done (stop does not).
func startCost(ctx context.Context, r *rig) (*costMeter, error) {
	m := &costMeter{r: r}
	if r.redis != nil {
		mon, err := startMonitor(ctx, r.redis.Socket)
		if err != nil {
			return nil, err
		}
		m.mon = mon
		mon.count(true)
	}
	var err error
	if m.redis0, err = r.store.ServerStats(ctx); err != nil {
		m.close()
		return nil, fmt.Errorf("reading Redis's command counts: %w", err)
	}
	m.slack0 = slackCalls(r)
	m.at = time.Now()
	return m, nil
}

// stop ends the window and divides what it counted by units.
func (m *costMeter) stop(ctx context.Context, units int) (unitCost, error) {
	redis1, err := m.r.store.ServerStats(ctx)
	at := time.Now()
	if m.mon != nil {
		m.mon.count(false)
	}
	if err != nil {
		return unitCost{}, fmt.Errorf("reading Redis's command counts: %w", err)
	}
	c := unitCost{Units: units, WindowSeconds: round3(at.Sub(m.at).Seconds())}
	if units <= 0 {
		return c, nil
	}
	total, byName := commandDelta(m.redis0, redis1, float64(units))
	c.Redis, c.RedisByName = round3(float64(total)/float64(units)), byName
	if m.mon != nil {
		sent, inScript := m.mon.stop()
		m.mon = nil
		c.Sent, c.SentByName = perCommand(sent, units)
		c.InScripts, c.InScriptsBy = perCommand(inScript, units)
	}
	calls := map[string]int64{}
	for k, v := range slackCalls(m.r) {
		if d := v - m.slack0[k]; d > 0 {
			calls[k] = int64(d)
		}
	}
	c.Slack, c.SlackByMethod = perCommand(calls, units)
	return c, nil
}

// close stops the watcher if stop did not.
func (m *costMeter) close() {
	if m.mon != nil {
		m.mon.stop()
		m.mon = nil
	}
}

// slackCalls counts the calls the fake Slack has received, by method.
func slackCalls(r *rig) map[string]int {
	out := map[string]int{}
	for _, c := range r.slack.Calls("") {
		out[c.Method]++
	}
	return out
}

// idleRedisRate is the bot's Redis commands a second over d at rest.
func idleRedisRate(ctx context.Context, r *rig, d time.Duration) (float64, error) {
	a, err := r.store.ServerStats(ctx)
	if err != nil {
		return 0, fmt.Errorf("reading Redis's command counts: %w", err)
	}
	t0 := time.Now()
	sleep(ctx, d)
	b, err := r.store.ServerStats(ctx)
	if err != nil {
		return 0, fmt.Errorf("reading Redis's command counts: %w", err)
	}
	total, _ := commandDelta(a, b, 1)
	return round3(float64(total) / time.Since(t0).Seconds()), nil
}

// rows describes c per unit ("answer", "follow-up") in a report.
func (c unitCost) rows(unit string) []row {
	rows := []row{
		fig("Redis commands per "+unit+" (INFO commandstats)", "%.1f (%s)", c.Redis, topCommands(c.RedisByName)),
		fig("  of which sent by the bot (a script once)", "%.1f (%s)", c.Sent, topCommands(c.SentByName)),
		fig("  of which called inside scripts", "%.1f (%s)", c.InScripts, topCommands(c.InScriptsBy)),
	}
	if c.IdleRedisPerS > 0 && c.Units > 0 {
		rows = append(rows, fig("  of which the idle loops, about", "%.2f (%.2f a second at rest over the %.1f s window)",
			c.IdleRedisPerS*c.WindowSeconds/float64(c.Units), c.IdleRedisPerS, c.WindowSeconds))
	}
	return append(rows, fig("Slack Web API calls per "+unit, "%.2f (%s)", c.Slack, topCommands(c.SlackByMethod)))
}

// costOptions are the flags of a scenario's cost window.
type costOptions struct {
	// idle is how long the bot's Redis commands are counted at rest before
	// the window, settle how long the window goes on after the last unit
	// showed its end in Slack, for the writes that follow (its work done).
	idle, settle time.Duration
}

// register adds the flags to fs.
func (o *costOptions) register(fs *flag.FlagSet) {
	fs.DurationVar(&o.idle, "idle", 2*time.Second, "how long to count the bot's Redis commands at rest before the measured window")
	fs.DurationVar(&o.settle, "settle", time.Second, "how long the measured window goes on after the last unit showed its end")
}

// measure counts the Redis commands at rest for o.idle, then what the bot
// does while run runs and for o.settle after, per unit of units.
func (o costOptions) measure(ctx context.Context, r *rig, units int, run func() error) (unitCost, error) {
	idle := 0.0
	if o.idle > 0 {
		var err error
		if idle, err = idleRedisRate(ctx, r, o.idle); err != nil {
			return unitCost{}, err
		}
	}
	m, err := startCost(ctx, r)
	if err != nil {
		return unitCost{}, err
	}
	defer m.close()
	if err := run(); err != nil {
		return unitCost{}, err
	}
	sleep(ctx, o.settle)
	c, err := m.stop(ctx, units)
	c.IdleRedisPerS = idle
	return c, err
}
