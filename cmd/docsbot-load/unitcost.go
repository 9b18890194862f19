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
// send in the window is in them; Idle and Net, when measured, tell it apart.
type unitCost struct {
	Units         int     `json:"units"`
	WindowSeconds float64 `json:"window_s"`

	Redis         float64            `json:"redis_commands"`
	RedisByName   map[string]float64 `json:"redis_commands_by_name,omitempty"`
	Sent          float64            `json:"redis_commands_sent"`
	SentByName    map[string]float64 `json:"redis_commands_sent_by_name,omitempty"`
	InScripts     float64            `json:"redis_commands_in_scripts"`
	InScriptsBy   map[string]float64 `json:"redis_commands_in_scripts_by_name,omitempty"`
	Slack         float64            `json:"slack_calls"`
	SlackByMethod map[string]float64 `json:"slack_calls_by_method,omitempty"`

	// Idle is the same count a second of the bot at rest, measured just
	// before the window (its Units the seconds), and Net the figures above
	// less Idle over the window: what the units cost beyond the idle loops.
	Idle *unitCost `json:"idle_per_s,omitempty"`
	Net  *unitCost `json:"net_of_idle,omitempty"`
}

// scaled is c with every figure times f.
func (c unitCost) scaled(f float64) unitCost {
	c.Redis, c.Sent, c.InScripts, c.Slack = round3(c.Redis*f), round3(c.Sent*f), round3(c.InScripts*f), round3(c.Slack*f)
	c.RedisByName, c.SentByName, c.InScriptsBy, c.SlackByMethod = scaleMap(c.RedisByName, f), scaleMap(c.SentByName, f), scaleMap(c.InScriptsBy, f), scaleMap(c.SlackByMethod, f)
	c.Idle, c.Net = nil, nil
	return c
}

// less is c less d, figure by figure, none below 0.
func (c unitCost) less(d unitCost) unitCost {
	sub := func(a, b float64) float64 { return round3(max(0, a-b)) }
	c.Redis, c.Sent, c.InScripts, c.Slack = sub(c.Redis, d.Redis), sub(c.Sent, d.Sent), sub(c.InScripts, d.InScripts), sub(c.Slack, d.Slack)
	c.RedisByName, c.SentByName, c.InScriptsBy, c.SlackByMethod = lessMap(c.RedisByName, d.RedisByName), lessMap(c.SentByName, d.SentByName),
		lessMap(c.InScriptsBy, d.InScriptsBy), lessMap(c.SlackByMethod, d.SlackByMethod)
	c.Idle, c.Net = nil, nil
	return c
}

// scaleMap is m with every value times f.
func scaleMap(m map[string]float64, f float64) map[string]float64 {
	out := make(map[string]float64, len(m))
	for k, v := range m {
		out[k] = round3(v * f)
	}
	return out
}

// lessMap is a less b by name, the names left at 0 or below dropped.
func lessMap(a, b map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(a))
	for k, v := range a {
		if d := round3(v - b[k]); d > 0 {
			out[k] = d
		}
	}
	return out
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
	if m.redis0, err = r.store.Stats().ServerStats(ctx); err != nil {
		m.close()
		return nil, fmt.Errorf("reading Redis's command counts: %w", err)
	}
	m.slack0 = slackCalls(r)
	m.at = time.Now()
	return m, nil
}

// stop ends the window and divides what it counted by units.
func (m *costMeter) stop(ctx context.Context, units int) (unitCost, error) {
	redis1, err := m.r.store.Stats().ServerStats(ctx)
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

// rows describes c per unit ("answer", "follow-up") in a report.
func (c unitCost) rows(unit string) []row {
	rows := []row{
		fig("Redis commands per "+unit+" (INFO commandstats)", "%.1f (%s)", c.Redis, topCommands(c.RedisByName)),
		fig("  of which sent by the bot (a script once)", "%.1f (%s)", c.Sent, topCommands(c.SentByName)),
		fig("  of which called inside scripts", "%.1f (%s)", c.InScripts, topCommands(c.InScriptsBy)),
	}
	if n := c.Net; n != nil && c.Idle != nil {
		rows = append(rows,
			fig("  net of the idle loops", "%.1f (%s): %.1f a second at rest%s over the %.1f s window", n.Redis, topCommands(n.RedisByName),
				c.Idle.Redis, inBrackets(topCommands(c.Idle.RedisByName)), c.WindowSeconds),
			fig("    of which sent by the bot", "%.1f (%s)", n.Sent, topCommands(n.SentByName)),
			fig("    of which called inside scripts", "%.1f (%s)", n.InScripts, topCommands(n.InScriptsBy)))
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

// measure counts what the bot does at rest for o.idle, then while run runs
// and for o.settle after, per unit of units, and that less the idle rate.
func (o costOptions) measure(ctx context.Context, r *rig, units int, run func() error) (unitCost, error) {
	var idle *unitCost
	if o.idle > 0 {
		m, err := startCost(ctx, r)
		if err != nil {
			return unitCost{}, err
		}
		sleep(ctx, o.idle)
		c, err := m.stop(ctx, 1)
		m.close()
		if err != nil {
			return unitCost{}, err
		}
		perS := c.scaled(1 / c.WindowSeconds)
		perS.Units = 0
		idle = &perS
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
	if err != nil || idle == nil || units <= 0 {
		return c, err
	}
	net := c.less(idle.scaled(c.WindowSeconds / float64(units)))
	c.Idle, c.Net = idle, &net
	return c, nil
}

// inBrackets is " (s)", or "" for no s.
func inBrackets(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}
