package store_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/docsbot/docsbot/store"
)

// A channel's subscriptions are its own: the one without a project first,
// then the projects' by name; a channel whose id starts with another's
// does not lend it its subscriptions, and a channel without any has none.
func TestChannelDigestSubs(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := t.Context()
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	legacy := store.DigestSub{Team: "T1", Channel: "C1", Frequency: "weekly", CreatedBy: "U1", CreatedAt: at}
	web := store.DigestSub{Team: "T1", Channel: "C1", Project: "web", Frequency: "daily", CreatedBy: "U2", CreatedAt: at.Add(time.Hour)}
	api := store.DigestSub{Team: "T1", Channel: "C1", Project: "api", Frequency: "weekly", CreatedBy: "U3", CreatedAt: at.Add(2 * time.Hour)}
	others := []store.DigestSub{
		{Team: "T1", Channel: "C12", Project: "api", Frequency: "daily", CreatedBy: "U4", CreatedAt: at},
		{Team: "T1", Channel: "C12", Frequency: "daily", CreatedBy: "U4", CreatedAt: at},
		{Team: "T2", Channel: "C1", Project: "api", Frequency: "daily", CreatedBy: "U5", CreatedAt: at},
		{Team: "T1", Channel: "C2", Project: "docs", Frequency: "weekly", CreatedBy: "U6", CreatedAt: at},
	}
	for _, d := range append([]store.DigestSub{web, legacy, api}, others...) {
		if err := s.Digests().SubscribeDigest(ctx, d); err != nil {
			t.Fatalf("SubscribeDigest(%+v): %v", d, err)
		}
	}
	// Many subscriptions of channels whose ids start with C1, so that HSCAN
	// matches them and takes several batches (a hash this big is not read
	// in one reply).
	for i := range 300 {
		d := store.DigestSub{Team: "T1", Channel: fmt.Sprintf("C1%04d", i), Frequency: "weekly", CreatedAt: at}
		if err := s.Digests().SubscribeDigest(ctx, d); err != nil {
			t.Fatal(err)
		}
	}

	tests := []struct {
		team, channel string
		want          []store.DigestSub
	}{
		{"T1", "C1", []store.DigestSub{legacy, api, web}},
		{"T1", "C12", []store.DigestSub{others[1], others[0]}},
		{"T2", "C1", []store.DigestSub{others[2]}},
		{"T1", "C3", nil},
	}
	for _, tt := range tests {
		got, err := s.Digests().ChannelDigestSubs(ctx, tt.team, tt.channel)
		if err != nil {
			t.Fatalf("ChannelDigestSubs(%s, %s): %v", tt.team, tt.channel, err)
		}
		if len(got) != len(tt.want) || len(got) > 0 && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ChannelDigestSubs(%s, %s) = %+v\nwant %+v", tt.team, tt.channel, got, tt.want)
		}
	}

	// Turning one off leaves the others.
	if ok, err := s.Digests().UnsubscribeDigest(ctx, "T1", "C1", "api"); !ok || err != nil {
		t.Fatalf("UnsubscribeDigest = %t, %v", ok, err)
	}
	got, err := s.Digests().ChannelDigestSubs(ctx, "T1", "C1")
	if want := []store.DigestSub{legacy, web}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after unsubscribing api: %+v, %v\nwant %+v", got, err, want)
	}

	for _, bad := range [][2]string{{"", "C1"}, {"T1", ""}, {"T1", "C1:api"}} {
		if _, err := s.Digests().ChannelDigestSubs(ctx, bad[0], bad[1]); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("ChannelDigestSubs(%q, %q) = %v, want ErrInvalid", bad[0], bad[1], err)
		}
	}
}
