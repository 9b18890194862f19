package claim_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsbot/docsbot/bot/claim"
	"github.com/docsbot/docsbot/store"
	"github.com/docsbot/docsbot/store/redistest"
)

// openStore opens a store of the test's own keys in the package's Redis.
func openStore(t *testing.T) *store.Store {
	t.Helper()
	return openStoreAt(t, redistest.Prefix(t))
}

// openStoreAt opens a store of the keys under prefix, as another replica.
func openStoreAt(t *testing.T, prefix string) *store.Store {
	t.Helper()
	st, err := store.Open(t.Context(), redisServer.URL, store.WithPrefix(prefix))
	if err != nil {
		t.Fatalf("store.Open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// enqueue queues n pieces of work keyed claim:0, claim:1, ...
func enqueue(t *testing.T, st *store.Store, n int) {
	t.Helper()
	for i := range n {
		w := store.Work{Key: fmt.Sprintf("claim:%d", i), Kind: "test", Payload: []byte("{}")}
		if queued, err := st.Inbox().Enqueue(t.Context(), w, time.Hour); err != nil || !queued {
			t.Fatalf("Enqueue(%s) = %v, %v", w.Key, queued, err)
		}
	}
}

// workRunner is a Runner over st's inbox, as the bot's, handling each
// piece with handle and logging into log.
func workRunner(st *store.Store, log *bytes.Buffer, handle func(ctx context.Context, t store.Taken) bool) *claim.Runner[store.Taken] {
	return &claim.Runner[store.Taken]{
		Claim:   st.Inbox().ClaimWork,
		Lease:   30 * time.Second,
		Handle:  handle,
		Release: st.Inbox().ReleaseWork,
		Workers: 3,
		Idle:    50 * time.Millisecond,
		Wake:    make(chan struct{}, 1),
		Backoff: 10 * time.Millisecond,
		Log:     slog.New(slog.NewTextHandler(log, nil)),
		Lines: claim.Lines{
			ClaimFailed: "claim failed", Overran: "overran", Released: "handed back",
			ReleaseFailed: "hand back failed", Count: "pieces",
		},
	}
}

// start starts r; cancel ends its ctx, and done is closed when Run returned.
func start(r *claim.Runner[store.Taken]) (cancel context.CancelFunc, done <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { defer close(ran); r.Run(ctx, context.Background()) }()
	return cancel, ran
}

// run starts r and returns the function that stops it and waits for Run
// to return.
func run(r *claim.Runner[store.Taken]) (stop func()) {
	cancel, done := start(r)
	return func() { cancel(); <-done }
}

// TestRunnerHandsBackOnStop stops a runner while its workers hold
// claims. Handlers cut short by the stop are handed back: another replica
// can claim them at once, not after their lease. A handler that ends within
// the grace settles its claim, and its context was not cancelled.
func TestRunnerHandsBackOnStop(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		grace time.Duration
		// finish: the handlers end on their own once the stop began,
		// within the grace; otherwise they wait for their context.
		finish bool
		// landing is the runner's Landing: how long the claims of cut
		// handlers wait before they are due again.
		landing  time.Duration
		wantBack int
	}{
		{name: "cut short", grace: 0, wantBack: 3},
		{name: "cut short, due after the landing window", grace: 0, landing: time.Hour, wantBack: 3},
		{name: "within the grace", grace: time.Minute, finish: true, wantBack: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			st := openStore(t)
			enqueue(t, st, 5)
			var (
				log        bytes.Buffer
				started    atomic.Int32
				cancelled  atomic.Int32
				stopping   = make(chan struct{})
				settledErr = make(chan error, 5)
			)
			r := workRunner(st, &log, func(ctx context.Context, w store.Taken) bool {
				started.Add(1)
				if !tt.finish {
					<-ctx.Done()
					cancelled.Add(1)
					return false
				}
				<-stopping
				if ctx.Err() != nil {
					cancelled.Add(1)
				}
				settledErr <- st.Inbox().Done(ctx, w)
				return true
			})
			r.Grace, r.Landing = tt.grace, tt.landing
			// Only the stop (or a worker's end, after it) wakes the loop:
			// nothing is claimed after the first 3.
			r.Idle = time.Hour
			cancel, done := start(r)
			redistest.Until(t, "every worker holding a claim", func() bool { return started.Load() == 3 })
			cancel()
			if tt.finish {
				close(stopping)
			}
			<-done

			if got := started.Load(); got != 3 {
				t.Errorf("%d pieces handled, want 3 (one per worker; none claimed after the stop)", got)
			}
			if got, want := cancelled.Load(), int32(tt.wantBack); got != want {
				t.Errorf("%d handlers saw their context cancelled, want %d", got, want)
			}
			close(settledErr)
			for err := range settledErr {
				if err != nil {
					t.Errorf("Done = %v", err)
				}
			}
			// What was handed back is due now (after the landing window
			// when there is one), with the 2 never claimed.
			taken, err := st.Inbox().ClaimWork(t.Context(), 10, 30*time.Second)
			if err != nil {
				t.Fatalf("ClaimWork = %v", err)
			}
			dueNow := 2 + tt.wantBack
			if tt.landing > 0 {
				dueNow = 2
			}
			if got := len(taken); got != dueNow {
				t.Errorf("%d pieces due after the stop, want %d", got, dueNow)
			}
			handedBack := strings.Contains(log.String(), fmt.Sprintf("msg=\"handed back\" pieces=3 due_in=%v", tt.landing))
			if handedBack != (tt.wantBack > 0) {
				t.Errorf("logged a hand-back: %v, want %v; log:\n%s", handedBack, tt.wantBack > 0, log.String())
			}
		})
	}
}

// TestRunnersHandleEachOnce runs two runners, as two replicas, on one
// inbox: every piece is handled exactly once, with claims gathered or not.
func TestRunnersHandleEachOnce(t *testing.T) {
	t.Parallel()
	for _, gather := range []time.Duration{0, 5 * time.Millisecond} {
		t.Run(fmt.Sprintf("gather %v", gather), func(t *testing.T) {
			t.Parallel()
			handleEachOnce(t, gather)
		})
	}
}

// handleEachOnce is TestRunnersHandleEachOnce with runners that gather
// claims for gather.
func handleEachOnce(t *testing.T, gather time.Duration) {
	const pieces = 40
	st := openStore(t)
	enqueue(t, st, pieces)
	var (
		mu      sync.Mutex
		handled = map[string]int{}
		total   atomic.Int32
		log     bytes.Buffer
	)
	handle := func(ctx context.Context, w store.Taken) bool {
		mu.Lock()
		handled[w.Key]++
		mu.Unlock()
		if err := st.Inbox().Done(ctx, w); err != nil {
			t.Errorf("Done(%s) = %v", w.Key, err)
		}
		total.Add(1)
		return true
	}
	a, b := workRunner(st, &log, handle), workRunner(st, &bytes.Buffer{}, handle)
	a.Gather, b.Gather = gather, gather
	stopA := run(a)
	stopB := run(b)
	redistest.Until(t, "every piece handled", func() bool { return total.Load() >= pieces })
	stopA()
	stopB()

	mu.Lock()
	defer mu.Unlock()
	for i := range pieces {
		if key := fmt.Sprintf("claim:%d", i); handled[key] != 1 {
			t.Errorf("%s handled %d times, want once", key, handled[key])
		}
	}
	if n, err := st.Inbox().Queued(t.Context()); err != nil || n != 0 {
		t.Errorf("Queued = %d, %v; want the inbox empty", n, err)
	}
}

// TestRunnerWakes queues work while the runner sleeps for a long Idle:
// a nudge on Wake has it claimed at once.
func TestRunnerWakes(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	var handled atomic.Int32
	r := workRunner(st, &bytes.Buffer{}, func(ctx context.Context, w store.Taken) bool {
		handled.Add(1)
		return st.Inbox().Done(ctx, w) == nil
	})
	r.Idle = time.Hour
	stop := run(r)
	defer stop()
	nudge := func() {
		select {
		case r.Wake <- struct{}{}:
		default: // a nudge is pending already
		}
	}
	for i := range 2 {
		w := store.Work{Key: fmt.Sprintf("claim:%d", i), Kind: "test", Payload: []byte("{}")}
		if _, err := st.Inbox().Enqueue(t.Context(), w, time.Hour); err != nil {
			t.Fatalf("Enqueue = %v", err)
		}
		nudge()
		redistest.Until(t, w.Key+" handled", func() bool { return handled.Load() == int32(i+1) })
	}
}

// TestRunnerStopsClaimingAtOnce stops a runner while a handler still runs
// in its grace: Stop is called at once, not after the grace, so that work
// its store queues meanwhile (the Slack socket of a replica shutting down
// stays open until its acks are out) is another replica's at once.
func TestRunnerStopsClaimingAtOnce(t *testing.T) {
	t.Parallel()
	prefix := redistest.Prefix(t)
	st, other := openStoreAt(t, prefix), openStoreAt(t, prefix)
	enqueue(t, st, 1)
	var log bytes.Buffer
	busy, letGo, stopped := make(chan struct{}), make(chan struct{}), make(chan struct{})
	r := workRunner(st, &log, func(ctx context.Context, w store.Taken) bool {
		close(busy)
		<-letGo
		return st.Inbox().Done(ctx, w) == nil
	})
	r.Grace = time.Hour
	r.Stop = func(ctx context.Context) error {
		defer close(stopped)
		return st.Inbox().StopClaiming(ctx)
	}
	cancel, done := start(r)
	<-busy
	cancel()
	<-stopped
	late := store.Work{Key: "claim:late", Kind: "test", Payload: []byte("{}")}
	if queued, err := st.Inbox().Enqueue(t.Context(), late, time.Hour); err != nil || !queued {
		t.Fatalf("Enqueue after the stop = %v, %v", queued, err)
	}
	got, err := other.Inbox().ClaimWork(t.Context(), 5, 30*time.Second)
	if err != nil || len(got) != 1 || got[0].Key != late.Key {
		t.Fatalf("another replica claimed %+v, %v; want just %s\nlog:\n%s", got, err, late.Key, log.String())
	}
	close(letGo)
	<-done
}
