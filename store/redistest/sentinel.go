package redistest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// SentinelMaster is the name the sentinels of StartSentinel know the primary by.
const SentinelMaster = "docsbot-test"

// Sentinels is a small Redis deployment with automatic failover, as a managed
// service runs it: a primary and two replicas (each with an append-only file
// and min-replicas-to-write 1, so that a primary no replica follows takes no
// writes) and three sentinels watching them, on free TCP ports of 127.0.0.1.
// The sentinels declare the primary down after 1 s without an answer and
// promote a replica, which the other replica then follows.
type Sentinels struct {
	// Nodes are the primary at start and its two replicas.
	Nodes [3]*Server
	// URL reaches the deployment through its sentinels, in the form
	// store.Open and go-redis's ParseFailoverURL read.
	URL string

	sentinels []*process
	addrs     []string
	dir       string
}

// StartSentinel starts a primary, two replicas and three sentinels and waits
// until the sentinels agree on the primary and the replica is in sync.
func StartSentinel() (_ *Sentinels, err error) {
	d := &Sentinels{}
	defer func() {
		if err != nil {
			_ = d.Close()
		}
	}()
	if d.dir, err = os.MkdirTemp("", "redistest-sentinel-"); err != nil {
		return nil, fmt.Errorf("redistest: %w", err)
	}
	// A primary refuses writes while no replica follows it: a restarted
	// old primary cannot take writes that its demotion would then discard.
	safe := WithArgs("--min-replicas-to-write", "1", "--min-replicas-max-lag", "5")
	if d.Nodes[0], err = Start(WithTCP(), WithAppendOnly(), safe); err != nil {
		return nil, err
	}
	primary := d.Nodes[0].Addr
	host, port, _ := strings.Cut(primary, ":")
	for i := 1; i < len(d.Nodes); i++ {
		if d.Nodes[i], err = Start(WithTCP(), WithAppendOnly(), safe, WithArgs("--replicaof", host, port)); err != nil {
			return nil, err
		}
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, errors.New(errNotInstalled)
	}
	for i := range 3 {
		p := freePort()
		conf := filepath.Join(d.dir, fmt.Sprintf("sentinel-%d.conf", i))
		text := strings.Join([]string{
			"port " + strconv.Itoa(p),
			"bind 127.0.0.1",
			"dir " + d.dir,
			"sentinel monitor " + SentinelMaster + " " + host + " " + port + " 2",
			"sentinel down-after-milliseconds " + SentinelMaster + " 1000",
			"sentinel failover-timeout " + SentinelMaster + " 5000",
			"sentinel parallel-syncs " + SentinelMaster + " 1",
			"logfile " + filepath.Join(d.dir, fmt.Sprintf("sentinel-%d.log", i)),
			"",
		}, "\n")
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			return nil, fmt.Errorf("redistest: %w", err)
		}
		cmd := exec.Command(bin, conf, "--sentinel")
		cmd.SysProcAttr = sysProcAttr()
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("redistest: start a sentinel: %w", err)
		}
		pr := &process{cmd: cmd, done: make(chan struct{})}
		go func() { pr.err = cmd.Wait(); close(pr.done) }()
		d.sentinels = append(d.sentinels, pr)
		d.addrs = append(d.addrs, fmt.Sprintf("127.0.0.1:%d", p))
	}
	d.URL = "redis://" + d.addrs[0] + "?addr=" + d.addrs[1] + "&addr=" + d.addrs[2] + "&master_name=" + SentinelMaster
	if err := d.waitPrimary(primary, readyTimeout); err != nil {
		return nil, err
	}
	return d, nil
}

// Primary asks a sentinel which node is the primary now: its host:port.
func (d *Sentinels) Primary(ctx context.Context) (string, error) {
	var last error
	for _, a := range d.addrs {
		sc := redis.NewSentinelClient(&redis.Options{Addr: a, DialTimeout: time.Second})
		addr, err := sc.GetMasterAddrByName(ctx, SentinelMaster).Result()
		sc.Close()
		if err == nil && len(addr) == 2 {
			return addr[0] + ":" + addr[1], nil
		}
		last = err
	}
	return "", fmt.Errorf("redistest: no sentinel names the primary: %w", last)
}

// WaitFailover waits until the sentinels name a primary other than old.
func (d *Sentinels) WaitFailover(old string, timeout time.Duration) (string, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		now, err := d.Primary(ctx)
		cancel()
		if err == nil && now != old {
			return now, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return "", fmt.Errorf("redistest: no failover from %s within %v", old, timeout)
}

// waitPrimary waits until every sentinel names primary and knows both
// replicas, and the replicas have finished their first sync.
func (d *Sentinels) waitPrimary(primary string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		ok := true
		for _, a := range d.addrs {
			sc := redis.NewSentinelClient(&redis.Options{Addr: a, DialTimeout: time.Second})
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			addr, err := sc.GetMasterAddrByName(ctx, SentinelMaster).Result()
			replicas, rerr := sc.Replicas(ctx, SentinelMaster).Result()
			cancel()
			sc.Close()
			if err != nil || len(addr) != 2 || addr[0]+":"+addr[1] != primary || rerr != nil || len(replicas) < len(d.Nodes)-1 {
				ok = false
				break
			}
		}
		for _, n := range d.Nodes[1:] {
			if !ok {
				break
			}
			replica := n.Client()
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			info, err := replica.Info(ctx, "replication").Result()
			cancel()
			replica.Close()
			ok = err == nil && strings.Contains(info, "master_link_status:up")
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redistest: the sentinels did not settle on %s within %v", primary, timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Close stops the sentinels and both nodes and removes their files.
func (d *Sentinels) Close() error {
	for _, p := range d.sentinels {
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	var errs []error
	for _, n := range d.Nodes {
		if n != nil {
			errs = append(errs, n.Close())
		}
	}
	if d.dir != "" {
		errs = append(errs, os.RemoveAll(d.dir))
	}
	return errors.Join(errs...)
}
