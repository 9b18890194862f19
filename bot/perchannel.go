package bot

import (
	"sync"
	"time"
)

// perChannel keeps a value per workspace and channel for a while: what
// Slack said of a channel (ChannelsHere), when docsbot last posted in it
// (FreeToPost). A value is read back only while fresh, never when read
// after now (the clock moved back); past max values kept, all are dropped at
// once, so that a replica serving many workspaces stays small.
type perChannel[V any] struct {
	mu   sync.Mutex
	kept map[[2]string]kept[V]
}

type kept[V any] struct {
	v  V
	at time.Time
}

// get is what was kept of channel in team since now-fresh.
func (p *perChannel[V]) get(team, channel string, fresh time.Duration, now time.Time) (V, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	k, ok := p.kept[[2]string{team, channel}]
	if !ok || now.Sub(k.at) >= fresh || now.Before(k.at) {
		var zero V
		return zero, false
	}
	return k.v, true
}

// put keeps v for channel in team at now, within max values kept.
func (p *perChannel[V]) put(team, channel string, v V, max int, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.kept == nil || len(p.kept) >= max {
		p.kept = map[[2]string]kept[V]{}
	}
	p.kept[[2]string{team, channel}] = kept[V]{v: v, at: now}
}

// forget drops what was kept of channel in team.
func (p *perChannel[V]) forget(team, channel string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.kept, [2]string{team, channel})
}
