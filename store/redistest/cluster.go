package redistest

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Cluster is a Redis Cluster of three primaries (no replicas) on free TCP
// ports of 127.0.0.1, made with redis-cli --cluster create.
type Cluster struct {
	Nodes []*Server
	// URL reaches the cluster in the form store.Open and go-redis's
	// ParseClusterURL read: the first node, the others as addr parameters.
	URL string
}

// StartCluster starts three cluster-enabled redis-servers, joins them into
// one cluster covering every hash slot, and waits until it is ready.
func StartCluster() (_ *Cluster, err error) {
	c := &Cluster{}
	defer func() {
		if err != nil {
			_ = c.Close()
		}
	}()
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		return nil, errors.New("redis-cli not found on PATH: install it (sudo apt-get install -y redis-tools)")
	}
	addrs := make([]string, 0, 3)
	for range 3 {
		n, err := startNode()
		if err != nil {
			return nil, err
		}
		c.Nodes = append(c.Nodes, n)
		addrs = append(addrs, n.Addr)
	}
	args := append([]string{"--cluster", "create"}, addrs...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("redistest: redis-cli --cluster create: %w: %s", err, out)
	}
	c.URL = "redis://" + addrs[0] + "?addr=" + addrs[1] + "&addr=" + addrs[2]
	if err := c.waitReady(readyTimeout); err != nil {
		return nil, err
	}
	return c, nil
}

// nodeAttempts bounds the starts of one cluster node: a free port picked
// for it may be taken by another process before the server binds it.
const nodeAttempts = 3

// startNode starts one cluster-enabled redis-server on a free port, with its
// cluster bus on another free port (Redis's default, the port + 10000, is
// not checked by anyone and may be some connection's local port). A server
// that does not start is tried again on other ports.
func startNode() (*Server, error) {
	var err error
	for range nodeAttempts {
		var n *Server
		n, err = Start(WithTCP(), WithArgs("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", "2000", "--cluster-port", strconv.Itoa(freePort())))
		if err == nil {
			return n, nil
		}
	}
	return nil, err
}

// waitReady waits until every node reports cluster_state:ok.
func (c *Cluster) waitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		ok := true
		for _, n := range c.Nodes {
			rdb := n.Client()
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			info, err := rdb.ClusterInfo(ctx).Result()
			cancel()
			rdb.Close()
			if err != nil || !strings.Contains(info, "cluster_state:ok") {
				ok = false
				break
			}
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redistest: the cluster was not ready within %v", timeout)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Close stops every node and removes their files.
func (c *Cluster) Close() error {
	var errs []error
	for _, n := range c.Nodes {
		errs = append(errs, n.Close())
	}
	return errors.Join(errs...)
}
