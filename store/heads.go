package store

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// lookEvery is the longest a claiming Store goes without reading the head of
// every shard of both schedules (one pipeline): the bound on how late it
// takes an entry it was told nothing about (a wake-up lost with a dropped
// subscription, a writer that died between its write and its wake-up).
const lookEvery = 5 * time.Second

// subscribeWait bounds the wait for the wake-up subscription's confirmation.
const subscribeWait = 2 * time.Second

// wakeHealth is how often an idle wake-up subscription pings Redis.
const wakeHealth = time.Minute

// The two sharded schedules.
const (
	schedJobs = iota // the poll schedule ({sN}:sched)
	schedWork        // the inbox ({sN}:inbox)
	schedCount
)

// wakeTags name the schedules in wake-up messages.
var wakeTags = [schedCount]string{"j", "w"}

// heads is what a Store knows of the heads of both schedules, so that a
// claim loop at rest sleeps until something is due instead of reading every
// shard: per shard, when its head is due on this process's monotonic clock
// (the Redis clock's reading converted when it was read), the zero time for
// "look now", far in the future for an empty shard. It is lowered by this
// Store's own writes and by wake-ups from other Stores, and replaced by
// each claim script's reply and by a read of every shard at least every
// lookEvery (see "Claiming at rest" in doc.go).
type heads struct {
	mu     sync.Mutex
	due    [schedCount][Shards]time.Time
	looked time.Time     // the last read of every shard; zero: never
	lookMu sync.Mutex    // held while reading every shard
	every  time.Duration // lookEvery (tests lengthen it)
	// claiming is set once this Store claimed from a schedule: its own
	// writes there need no wake-up (its claim loop takes them).
	claiming [schedCount]atomic.Bool
	// changed tells each schedule's claim loop that its heads were lowered.
	changed [schedCount]chan struct{}
	// sub is the wake-up subscription, opened by the first Changed.
	subOnce sync.Once
	sub     *redis.PubSub
}

// never is the due time of an empty shard.
var never = time.Unix(1<<40, 0)

func (s *Store) wakeChannel() string { return s.prefix + "wake" }

// lower moves shard i's head of schedule k to at if that is earlier, and
// tells the claim loop.
func (s *Store) lower(k, i int, at time.Time) {
	s.lowerQuiet(k, i, at)
	s.heads.signal(k)
}

// lowerQuiet is lower without telling the claim loop.
func (s *Store) lowerQuiet(k, i int, at time.Time) {
	h := &s.heads
	h.mu.Lock()
	if at.Before(h.due[k][i]) {
		h.due[k][i] = at
	}
	h.mu.Unlock()
}

func (h *heads) signal(k int) {
	select {
	case h.changed[k] <- struct{}{}:
	default:
	}
}

// scheduled records that this Store made an entry of shard i of schedule k
// due in d (Redis clock). Another Store's claim loop is woken when tell is
// set (a hand-back for the others) or when this Store does not claim from k
// (a tool, a test): a claiming Store takes its own entries.
func (s *Store) scheduled(ctx context.Context, k, i int, d time.Duration, tell bool) {
	s.lower(k, i, time.Now().Add(d))
	if tell || !s.heads.claiming[k].Load() {
		if err := s.rdb.Publish(ctx, s.wakeChannel(), wakeTags[k]+strconv.Itoa(i)).Err(); err != nil {
			s.log.Debug("store: wake-up not sent; the others look within "+lookEvery.String(), "err", err)
		}
	}
}

// changed returns the channel that tells schedule k's claim loop that its
// heads were lowered, and opens the wake-up subscription on first use.
func (s *Store) changed(k int) <-chan struct{} {
	h := &s.heads
	h.subOnce.Do(func() {
		h.sub = s.rdb.Subscribe(context.Background(), s.wakeChannel())
		// Wait for Redis to confirm the subscription, so that a wake-up
		// sent after Changed returned is received; a failure is left to
		// the subscription's reconnects (and the looks meanwhile).
		ctx, cancel := context.WithTimeout(context.Background(), subscribeWait)
		_, _ = h.sub.Receive(ctx)
		cancel()
		msgs := h.sub.Channel(redis.WithChannelHealthCheckInterval(wakeHealth))
		go s.wakeUps(msgs)
	})
	return h.changed[k]
}

// wakeUps lowers the heads other Stores name in their wake-ups, until the
// subscription is closed.
func (s *Store) wakeUps(msgs <-chan *redis.Message) {
	for m := range msgs {
		for k, tag := range wakeTags {
			rest, ok := strings.CutPrefix(m.Payload, tag)
			if i, err := strconv.Atoi(rest); ok && err == nil && i >= 0 && i < Shards {
				s.lower(k, i, time.Time{})
			}
		}
	}
}

// lookIfStale reads the heads of every shard of both schedules when the last
// read is lookEvery old (or there was none).
func (s *Store) lookIfStale(ctx context.Context) error {
	h := &s.heads
	// Both claim loops come due for a look at once: one reads, the other
	// waits for it and finds it fresh.
	h.lookMu.Lock()
	defer h.lookMu.Unlock()
	h.mu.Lock()
	stale := time.Since(h.looked) >= h.every
	h.mu.Unlock()
	if !stale {
		return nil
	}
	pipe := s.rdb.Pipeline()
	var cmds [schedCount][Shards]*redis.ZSliceCmd
	for i := range Shards {
		cmds[schedJobs][i] = pipe.ZRangeWithScores(ctx, s.schedKey(i), 0, 0)
		cmds[schedWork][i] = pipe.ZRangeWithScores(ctx, s.inboxKey(i), 0, 0)
	}
	tc := pipe.Time(ctx)
	sent := time.Now()
	if _, err := pipe.Exec(ctx); err != nil {
		return err
	}
	now := tc.Val().UnixMilli()
	h.mu.Lock()
	defer h.mu.Unlock()
	for k := range schedCount {
		for i := range Shards {
			h.due[k][i] = never
			if z := cmds[k][i].Val(); len(z) > 0 {
				h.due[k][i] = sent.Add(time.Duration(int64(z[0].Score)-now) * time.Millisecond)
			}
		}
	}
	h.looked = sent
	return nil
}

// dueShards lists the shards of schedule k whose head is due, starting
// after a rotating cursor so that replicas and calls spread over the shards.
func (s *Store) dueShards(k int) []int {
	start := int(s.cursor.Add(1) % Shards)
	now := time.Now()
	h := &s.heads
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []int
	for j := range Shards {
		i := (start + j) % Shards
		if !h.due[k][i].After(now) {
			out = append(out, i)
		}
	}
	return out
}

// setHead records what a claim script read of shard i of schedule k: its
// head's due time next (-1: empty) at Redis time now, both in ms, as seen
// at local time at.
func (s *Store) setHead(k, i int, next, now int64, at time.Time) {
	d := never
	if next >= 0 {
		d = at.Add(time.Duration(next-now) * time.Millisecond)
	}
	h := &s.heads
	h.mu.Lock()
	h.due[k][i] = d
	h.mu.Unlock()
}

// claimWait is how long schedule k's claim loop may sleep: until the
// earliest head it knows of, or the next read of every shard.
func (s *Store) claimWait(k int) time.Duration {
	h := &s.heads
	h.mu.Lock()
	defer h.mu.Unlock()
	at := h.looked.Add(h.every)
	for _, d := range h.due[k] {
		if d.Before(at) {
			at = d
		}
	}
	return max(time.Until(at), 0)
}

// closeWakeUps ends the wake-up subscription, if one was opened (an error
// closing it changes nothing: the connection goes with the client).
func (h *heads) closeWakeUps() {
	h.subOnce.Do(func() {}) // none is opened after Close
	if h.sub != nil {
		_ = h.sub.Close()
	}
}
