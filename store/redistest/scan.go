package redistest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// KeysHolding returns the keys under prefix of the Redis at url (a
// standalone server's URL, such as Server.URL or DB.URL) whose name or value
// holds text: a string's value, a hash's fields and values, the members of a
// list, set or sorted set, a stream's entries. A test proves with it that
// Redis keeps nothing of what a person wrote.
func KeysHolding(tb testing.TB, url, prefix, text string) []string {
	tb.Helper()
	opts, err := redis.ParseURL(url)
	if err != nil {
		tb.Fatalf("redistest: %s: %v", url, err)
	}
	c := redis.NewClient(opts)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var found []string
	iter := c.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	for iter.Next(ctx) {
		key := iter.Val()
		values, err := valuesOf(ctx, c, key)
		for try := 1; err != nil && try < 3; try++ {
			// The key may have been written again as another kind between
			// its TYPE and its read (WRONGTYPE): read it again.
			values, err = valuesOf(ctx, c, key)
		}
		if err != nil {
			tb.Fatalf("redistest: reading %s: %v", key, err)
		}
		if strings.Contains(key, text) || strings.Contains(strings.Join(values, "\x00"), text) {
			found = append(found, key)
		}
	}
	if err := iter.Err(); err != nil {
		tb.Fatalf("redistest: scanning %s*: %v", prefix, err)
	}
	return found
}

// valuesOf returns everything key holds, as strings; nothing when it
// expired meanwhile.
func valuesOf(ctx context.Context, c *redis.Client, key string) ([]string, error) {
	kind, err := c.Type(ctx, key).Result()
	if err != nil {
		return nil, err
	}
	switch kind {
	case "string":
		v, err := c.Get(ctx, key).Result()
		if errors.Is(err, redis.Nil) {
			return nil, nil
		}
		return []string{v}, err
	case "hash":
		m, err := c.HGetAll(ctx, key).Result()
		var out []string
		for f, v := range m {
			out = append(out, f, v)
		}
		return out, err
	case "list":
		return c.LRange(ctx, key, 0, -1).Result()
	case "set":
		return c.SMembers(ctx, key).Result()
	case "zset":
		return c.ZRange(ctx, key, 0, -1).Result()
	case "stream":
		msgs, err := c.XRange(ctx, key, "-", "+").Result()
		var out []string
		for _, m := range msgs {
			for f, v := range m.Values {
				out = append(out, f, fmt.Sprint(v))
			}
		}
		return out, err
	}
	return nil, nil // "none": gone since the scan
}

// ExpireKeys ends now the keys of the Redis at url whose names match
// pattern (SCAN's MATCH, such as "prefix*in:*react:*"), as their time to
// live running out would, and returns how many there were: a test shows
// with it what happens once a record Redis keeps for an hour is gone,
// without waiting the hour.
func ExpireKeys(tb testing.TB, url, pattern string) int {
	tb.Helper()
	c, err := ClientOf(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var keys []string
	iter := c.Scan(ctx, 0, pattern, 1000).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		tb.Fatalf("redistest: scanning %s: %v", pattern, err)
	}
	for _, k := range keys {
		if err := c.Del(ctx, k).Err(); err != nil {
			tb.Fatalf("redistest: ending %s: %v", k, err)
		}
	}
	return len(keys)
}
