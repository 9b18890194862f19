package slacktest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"slices"
	"sync"
	"time"
)

// Balancer is the load balancer in front of an app's replicas in HTTP mode:
// the one public address that Slack's deliveries (WithHTTPDelivery) and
// people's browsers (an install by link) reach. Each request goes to the
// next replica in turn, on a new connection; a replica that refuses the
// connection (its process is gone) is passed over for the next one, the
// request not having left. A request that a replica took and did not
// answer (it went away with it), or that no replica would take, is answered
// 502 Bad Gateway, as a load balancer does: it is not sent to another
// replica, since the first may have carried it out. Slack then handles the
// 502 as any failed delivery (an event is sent again, a slash command is
// not).
//
// Which replicas are behind it is the caller's: Add one once it serves, as
// a readiness check would, and Remove it when it stops.
type Balancer struct {
	// URL is the public address, "http://127.0.0.1:PORT".
	URL string

	srv *http.Server
	wg  sync.WaitGroup

	mu       sync.Mutex
	replicas []string // host:port
	next     int
	stats    BalancerStats
}

// BalancerStats counts what the balancer did.
type BalancerStats struct {
	// Forwarded counts the requests a replica answered.
	Forwarded int
	// PassedOver counts the connections a replica refused, each retried
	// on the next replica.
	PassedOver int
	// BadGateway counts the requests answered 502: no replica took them,
	// or the one that did went away before it answered.
	BadGateway int
}

// errNoReplica: every replica refused the connection, or none is there.
var errNoReplica = errors.New("slacktest: no replica took the connection")

// NewBalancer starts a balancer on 127.0.0.1 with no replica behind it. It
// panics if it cannot listen, like NewServer.
func NewBalancer() *Balancer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(fmt.Sprintf("slacktest: balancer: listen: %v", err))
	}
	b := &Balancer{URL: "http://" + ln.Addr().String()}
	dialer := &net.Dialer{Timeout: 2 * time.Second}
	proxy := &httputil.ReverseProxy{
		// The replica is chosen when the connection is made (dial): the
		// URL's host only names the pool.
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(&url.URL{Scheme: "http", Host: "replicas"})
			r.Out.Host = r.In.Host
		},
		Transport: &http.Transport{
			DisableKeepAlives: true,
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return b.dial(ctx, dialer, network)
			},
		},
		ModifyResponse: func(*http.Response) error {
			b.count(func(s *BalancerStats) { s.Forwarded++ })
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, _ error) {
			if r.Context().Err() == nil { // not the caller giving up
				b.count(func(s *BalancerStats) { s.BadGateway++ })
			}
			w.WriteHeader(http.StatusBadGateway)
		},
	}
	b.srv = &http.Server{Handler: proxy, ReadHeaderTimeout: 10 * time.Second}
	b.wg.Go(func() { _ = b.srv.Serve(ln) })
	return b
}

// dial connects to the replicas in turn, from the next one, until one
// accepts.
func (b *Balancer) dial(ctx context.Context, d *net.Dialer, network string) (net.Conn, error) {
	b.mu.Lock()
	order := make([]string, 0, len(b.replicas))
	for i := range b.replicas {
		order = append(order, b.replicas[(b.next+i)%len(b.replicas)])
	}
	b.next++
	b.mu.Unlock()
	for _, addr := range order {
		c, err := d.DialContext(ctx, network, addr)
		if err == nil {
			return c, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		b.count(func(s *BalancerStats) { s.PassedOver++ })
	}
	return nil, errNoReplica
}

func (b *Balancer) count(f func(*BalancerStats)) {
	b.mu.Lock()
	f(&b.stats)
	b.mu.Unlock()
}

// Add puts the replica at base ("http://host:port") behind the balancer.
func (b *Balancer) Add(base string) {
	host := hostOf(base)
	b.mu.Lock()
	defer b.mu.Unlock()
	if !slices.Contains(b.replicas, host) {
		b.replicas = append(b.replicas, host)
	}
}

// Remove takes the replica at base out from behind the balancer.
func (b *Balancer) Remove(base string) {
	host := hostOf(base)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.replicas = slices.DeleteFunc(b.replicas, func(h string) bool { return h == host })
}

// Replicas is how many replicas are behind the balancer.
func (b *Balancer) Replicas() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.replicas)
}

// Stats is what the balancer did so far.
func (b *Balancer) Stats() BalancerStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stats
}

// Close stops the balancer, cutting the requests in flight.
func (b *Balancer) Close() {
	_ = b.srv.Close()
	b.wg.Wait()
}

// hostOf is base's host:port (base itself when it is no URL).
func hostOf(base string) string {
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		return u.Host
	}
	return base
}
